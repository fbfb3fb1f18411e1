import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { startHarness, type Harness } from '../helpers/harness.js';
import { listen } from '../helpers/server.js';
import { createClient, createRealm, createUser, REDIRECT, signIn, type ClientFixture } from './fixtures.js';

const insecure = { [oauth.allowInsecureRequests]: true };

describe('the whole authorization code flow with oauth4webapi', () => {
  let h: Harness;
  let base: string;
  let registered: ClientFixture;
  let cookie: string;

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    const bank = await createRealm(h, 'bank');
    registered = await createClient(h, 'bank', { scopes: ['public', 'admin'] });
    cookie = (await signIn(h, bank, await createUser(h, bank, 'ana@bank.test'))).cookie;
  });
  afterAll(async () => { await h?.close(); });

  async function discover(): Promise<oauth.AuthorizationServer> {
    const issuer = new URL(`${base}/realms/bank`);
    return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  }

  /** Follows redirects by hand with the cookie, as a browser would, until the client's redirect URI is reached. */
  async function follow(start: string): Promise<URL> {
    let url = start;
    for (let hops = 0; hops < 5; hops++) {
      if (url.startsWith(REDIRECT)) return new URL(url);
      const res = await fetch(new URL(url, base), { redirect: 'manual', headers: { cookie } });
      expect(res.status, await res.clone().text()).toBe(302);
      url = new URL(res.headers.get('location')!, base).toString();
    }
    throw new Error('too many redirects');
  }

  for (const [label, auth] of [['client_secret_post', oauth.ClientSecretPost], ['client_secret_basic', oauth.ClientSecretBasic]] as const) {
    it(`discovers, authorizes with PKCE S256 and state, and exchanges the code (${label})`, async () => {
      const as = await discover();
      expect(as.issuer).toBe(`${base}/realms/bank`);
      const client: oauth.Client = { client_id: registered.uid };
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const authorizationUrl = new URL(as.authorization_endpoint!);
      authorizationUrl.search = new URLSearchParams({
        response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'public admin', state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
      }).toString();

      const callback = await follow(authorizationUrl.toString());
      const params = oauth.validateAuthResponse(as, client, callback, state);
      const response = await oauth.authorizationCodeGrantRequest(as, client, auth(registered.secret), params, REDIRECT, verifier, insecure);
      const result = await oauth.processAuthorizationCodeResponse(as, client, response);
      expect(result.token_type).toBe('bearer');
      expect(result.scope).toBe('public admin');
      expect(result.access_token.length).toBeGreaterThanOrEqual(43);
      expect(response.headers.get('cache-control')).toBe('no-store');

      await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth(registered.secret), result.access_token, insecure));
    });
  }

  it('reports an authorization error to the client library', async () => {
    const as = await discover();
    const client: oauth.Client = { client_id: registered.uid };
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid', state }).toString();
    const callback = await follow(url.toString());
    expect(() => oauth.validateAuthResponse(as, client, callback, state)).toThrow(oauth.AuthorizationResponseError);
    expect(callback.searchParams.get('error')).toBe('invalid_scope');
  });
});
