import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { startHarness, type Harness } from '../helpers/harness.js';
import { listen } from '../helpers/server.js';
import { createClient, createRealm, createUser, REDIRECT, USER_PASSWORD, type ClientFixture } from './fixtures.js';
import { browse, CookieJar } from './browse.js';

const insecure = { [oauth.allowInsecureRequests]: true };

describe('the whole authorization code flow with oauth4webapi', () => {
  let h: Harness;
  let base: string;
  let registered: ClientFixture;
  let jar: CookieJar;
  const login = { username: 'ana@bank.test', password: USER_PASSWORD };

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    const bank = await createRealm(h, 'bank');
    registered = await createClient(h, 'bank', { scopes: ['public', 'admin'] });
    await createUser(h, bank, login.username);
    jar = new CookieJar(base);
  });
  afterAll(async () => { await h?.close(); });

  async function discover(): Promise<oauth.AuthorizationServer> {
    const issuer = new URL(`${base}/realms/bank`);
    return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  }

  /** The browser's part: authorize, the login page when there is no session yet, back to the client. */
  const follow = (start: string) => browse(jar, start, login, REDIRECT);

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

      const me = await oauth.protectedResourceRequest(result.access_token, 'GET', new URL(`${base}/api/customers/realms/bank/me`), undefined, undefined, insecure);
      expect(me.status).toBe(200);
      expect((await me.json()).email).toBe(login.username);

      await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth(registered.secret), result.access_token, insecure));
      const after = await fetch(`${base}/api/customers/realms/bank/me`, { headers: { authorization: `Bearer ${result.access_token}` } });
      expect(after.status).toBe(401);
      expect(await after.json()).toEqual({ error: { grant_expired: 'session expired' } });
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
