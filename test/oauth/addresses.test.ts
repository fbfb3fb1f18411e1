import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../helpers/admin.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { createRealm } from './fixtures.js';

// The addresses the console shows an admin with copy buttons (issue 29, item 8): each one is the address that answers.
describe('a realm\'s addresses for apps and identity providers', () => {
  let h: Harness;
  let otherRealmViewer: Member;
  let viewer: Member;

  beforeAll(async () => {
    h = await startHarness();
    await createRealm(h, 'bank');
    await createRealm(h, 'branded', { customDomain: 'login.branded.test' });
    viewer = await createMember(h, [{ key: 'realm_viewer', target: 'bank' }]);
    otherRealmViewer = await createMember(h, [{ key: 'realm_viewer', target: 'branded' }]);
  });
  afterAll(async () => { await h?.close(); });

  const addresses = (uid: string, token?: string | null) => h.request({ method: 'GET', url: `/api/admin/customers/${uid}/addresses`, token });

  it('names the pages, the OAuth endpoints as the metadata document gives them, and the delegated sign-in\'s redirect URI', async () => {
    const res = await addresses('bank', viewer.token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.pages).toEqual({
      sign_in: 'http://atrium.test/realms/bank/login',
      sign_up: 'http://atrium.test/realms/bank/signup',
      one_time_code: 'http://atrium.test/realms/bank/otp_login',
      password_reset: 'http://atrium.test/realms/bank/password',
    });
    expect(body.identity_provider_callbacks).toEqual(['http://atrium.test/realms/bank/delegated_login/callback']);
    const metadata = await h.request({ method: 'GET', url: new URL(body.oauth.metadata).pathname, token: null });
    expect(metadata.statusCode).toBe(200);
    const { issuer, authorization_endpoint, token_endpoint, revocation_endpoint } = metadata.json();
    expect(body.oauth).toEqual({ issuer, metadata: 'http://atrium.test/.well-known/oauth-authorization-server/realms/bank', authorization_endpoint, token_endpoint, revocation_endpoint });
    for (const page of Object.values(body.pages) as string[]) {
      expect((await h.request({ method: 'GET', url: new URL(page).pathname, token: null })).statusCode, page).toBe(200);
    }
    expect(body.openid_connect).toBeNull();
  });

  it('gives the OpenID Connect addresses where the realm enables it, as its discovery document does', async () => {
    expect((await h.request({ method: 'PUT', url: '/api/admin/realms/bank', payload: { settings: { openid_connect_enabled: true } } })).statusCode).toBe(200);
    try {
      const body = (await addresses('bank', viewer.token)).json();
      const discovery = await h.request({ method: 'GET', url: new URL(body.openid_connect.discovery).pathname, token: null });
      expect(discovery.statusCode).toBe(200);
      const { jwks_uri, userinfo_endpoint, introspection_endpoint, end_session_endpoint } = discovery.json();
      expect(body.openid_connect).toEqual({
        discovery: 'http://atrium.test/realms/bank/.well-known/openid-configuration', jwks_uri, userinfo_endpoint, introspection_endpoint, end_session_endpoint,
      });
    } finally {
      await h.request({ method: 'PUT', url: '/api/admin/realms/bank', payload: { settings: { openid_connect_enabled: false } } });
    }
  });

  it('puts the pages on the custom domain, and gives a redirect URI on each host', async () => {
    const body = (await addresses('branded')).json();
    expect(body.pages.sign_in).toBe('http://login.branded.test/realms/branded/login');
    expect(body.oauth.authorization_endpoint).toBe('http://login.branded.test/realms/oauth/authorize');
    expect(body.identity_provider_callbacks).toEqual([
      'http://atrium.test/realms/branded/delegated_login/callback', 'http://login.branded.test/realms/branded/delegated_login/callback',
    ]);
    const page = await h.request({ method: 'GET', url: '/realms/branded/login', headers: { host: 'login.branded.test' }, token: null });
    expect(page.statusCode).toBe(200);
  });

  it('answers 401 without a credential, 403 to a member of another realm, 404 for an unknown realm', async () => {
    expect((await addresses('bank', null)).statusCode).toBe(401);
    expect((await addresses('bank', otherRealmViewer.token)).statusCode).toBe(403);
    expect((await addresses('nowhere')).statusCode).toBe(404);
  });
});
