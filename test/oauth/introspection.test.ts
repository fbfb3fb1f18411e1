import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { startHarness, type Harness } from '../helpers/harness.js';
import { listen } from '../helpers/server.js';
import { signInAtLoginPage } from '../helpers/realms.js';
import { createClient, createRealm, createUser, issueCode, postForm, REDIRECT, USER_PASSWORD, type ClientFixture } from './fixtures.js';

const insecure = { [oauth.allowInsecureRequests]: true };

/** Issue 31 item 5: RFC 7662 introspection for a realm's confidential clients, through oauth4webapi. */
describe('token introspection of a realm with OpenID Connect', () => {
  let h: Harness;
  let base: string;
  let app: ClientFixture;
  let resourceServer: ClientFixture;
  let publicClient: ClientFixture;
  let userId: number;

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    const bank = await createRealm(h, 'bank');
    await h.request({ method: 'PUT', url: '/api/admin/realms/bank', payload: { settings: { openid_connect_enabled: true } } });
    app = await createClient(h, 'bank', { scopes: ['public', 'openid', 'offline_access'] });
    resourceServer = await createClient(h, 'bank', {});
    publicClient = await createClient(h, 'bank', { confidential: false });
    userId = await createUser(h, bank, 'ana@bank.test');
    await createRealm(h, 'other');
    await h.request({ method: 'PUT', url: '/api/admin/realms/other', payload: { settings: { openid_connect_enabled: true } } });
  });
  afterAll(async () => { await h?.close(); });

  /** A new session of the user, and the token answer of `app` tied to it. */
  async function obtainTokens(scope: string): Promise<{ access_token: string; refresh_token?: string }> {
    const cookie = await signInAtLoginPage(h, 'bank', 'ana@bank.test', USER_PASSWORD);
    const code = await issueCode(h, 'bank', app.uid, cookie, { scope });
    const res = await postForm(h, '/realms/bank/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: app.uid, client_secret: app.secret });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  const obtainToken = async (scope: string) => (await obtainTokens(scope)).access_token;

  async function introspect(token: string, fixture = resourceServer) {
    const issuer = new URL(`${base}/realms/bank`);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
    expect(as.introspection_endpoint).toBe(`${base}/realms/bank/oauth/introspect`);
    const response = await oauth.introspectionRequest(as, { client_id: fixture.uid }, oauth.ClientSecretBasic(fixture.secret), token, insecure);
    return oauth.processIntrospectionResponse(as, { client_id: fixture.uid }, response);
  }

  it('says who an alive access token is for, and inactive once revoked', async () => {
    const token = await obtainToken('public openid');
    const user = (await h.request({ url: `/api/admin/customers/bank/users/${userId}` })).json();
    expect(await introspect(token)).toEqual({
      active: true, scope: 'public openid', client_id: app.uid, token_type: 'Bearer', sub: user.uuid, iss: `${base}/realms/bank`, iat: expect.any(Number),
    });
    const revoked = await fetch(`${base}/realms/bank/oauth/revoke`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: app.uid, client_secret: app.secret }),
    });
    expect(revoked.status).toBe(200);
    expect(await introspect(token)).toEqual({ active: false });
  });

  it('tells a refresh token\'s end, and revoking it revokes its family', async () => {
    const tokens = await obtainTokens('openid offline_access');
    const now = Math.floor(h.clock.now().getTime() / 1000);
    const refreshed = await introspect(tokens.refresh_token!);
    expect(refreshed).toMatchObject({ active: true, token_type: 'refresh_token', client_id: app.uid, scope: 'openid offline_access' });
    expect(refreshed.exp).toBe(now + 14 * 86_400);
    const revoked = await fetch(`${base}/realms/bank/oauth/revoke`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token!, token_type_hint: 'refresh_token', client_id: app.uid, client_secret: app.secret }),
    });
    expect(revoked.status).toBe(200);
    expect(await introspect(tokens.refresh_token!)).toEqual({ active: false });
    expect(await introspect(tokens.access_token)).toEqual({ active: false });
  });

  it('answers inactive for garbage, another realm\'s token and an ended session, and refuses a public client', async () => {
    expect(await introspect('not-a-token')).toEqual({ active: false });
    const token = await obtainToken('public');
    const otherRealm = await createClient(h, 'other', {});
    const res = await fetch(`${base}/realms/other/oauth/introspect`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: otherRealm.uid, client_secret: otherRealm.secret }),
    });
    expect(await res.json()).toEqual({ active: false });

    const publicAsk = await fetch(`${base}/realms/bank/oauth/introspect`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token, client_id: publicClient.uid }),
    });
    expect(publicAsk.status).toBe(401);
    expect((await publicAsk.json()).error).toBe('invalid_client');

    expect((await h.request({ method: 'DELETE', url: `/api/admin/customers/bank/users/${userId}/sessions` })).statusCode).toBe(204);
    expect(await introspect(token)).toEqual({ active: false });
  });

  it('is not there where the realm has OpenID Connect off', async () => {
    await createRealm(h, 'plain');
    const client = await createClient(h, 'plain', {});
    const res = await fetch(`${base}/realms/plain/oauth/introspect`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'x', client_id: client.uid, client_secret: client.secret }),
    });
    expect(res.status).toBe(404);
  });
});
