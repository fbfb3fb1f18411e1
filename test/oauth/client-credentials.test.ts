import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { startHarness, type Harness } from '../helpers/harness.js';
import { listen } from '../helpers/server.js';
import { createClient, createRealm, postForm, type ClientFixture } from './fixtures.js';

const insecure = { [oauth.allowInsecureRequests]: true };

/** Issue 31 item 7: the client_credentials grant of a realm with OpenID Connect, through oauth4webapi. */
describe('client_credentials on a realm with OpenID Connect', () => {
  let h: Harness;
  let base: string;
  let service: ClientFixture;
  let jwtService: ClientFixture;
  let ungranted: ClientFixture;
  let resourceServer: ClientFixture;

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    await createRealm(h, 'bank');
    await h.request({ method: 'PUT', url: '/api/admin/realms/bank', payload: { settings: { openid_connect_enabled: true } } });
    service = await createClient(h, 'bank', { client_credentials_scopes: ['public', 'admin'] });
    jwtService = await createClient(h, 'bank', { client_credentials_scopes: ['public'], jwt_access_token_seconds: 300 });
    ungranted = await createClient(h, 'bank', {});
    resourceServer = await createClient(h, 'bank', {});
    await createRealm(h, 'plain');
  });
  afterAll(async () => { await h?.close(); });

  async function server(realm = 'bank') {
    const issuer = new URL(`${base}/realms/${realm}`);
    return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
  }
  async function grant(fixture: ClientFixture, scope?: string) {
    const as = await server();
    const response = await oauth.clientCredentialsGrantRequest(as, { client_id: fixture.uid }, oauth.ClientSecretBasic(fixture.secret), scope ? { scope } : {}, insecure);
    return oauth.processClientCredentialsResponse(as, { client_id: fixture.uid }, response);
  }
  async function introspect(token: string) {
    const as = await server();
    const response = await oauth.introspectionRequest(as, { client_id: resourceServer.uid }, oauth.ClientSecretBasic(resourceServer.secret), token, insecure);
    return oauth.processIntrospectionResponse(as, { client_id: resourceServer.uid }, response);
  }

  it('gives a confidential client a token for itself on its granted scopes, which introspection describes and revocation ends', async () => {
    expect((await server()).grant_types_supported).toContain('client_credentials');
    const tokens = await grant(service);
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'public admin', expires_in: 3600 });
    expect(tokens).not.toHaveProperty('refresh_token');
    expect(tokens).not.toHaveProperty('id_token');
    expect(await introspect(tokens.access_token)).toMatchObject({ active: true, client_id: service.uid, sub: service.uid, scope: 'public admin', exp: expect.any(Number) });

    // Atrium's own APIs act for a user: a client's own token is refused there.
    const me = await fetch(`${base}/api/customers/realms/bank/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(401);

    const narrower = await grant(service, 'admin');
    expect(narrower.scope).toBe('admin');
    const revoked = await postForm(h, '/realms/bank/oauth/revoke', { token: narrower.access_token, client_id: service.uid, client_secret: service.secret });
    expect(revoked.statusCode).toBe(200);
    expect(await introspect(narrower.access_token)).toEqual({ active: false });
    expect((await introspect(tokens.access_token)).active).toBe(true);
  });

  it('signs a JWT (sub the client) for a client with jwt_access_token_seconds, living that long', async () => {
    const tokens = await grant(jwtService);
    expect(tokens.expires_in).toBe(300);
    const jwks = (await h.request({ url: '/realms/bank/oauth/jwks', token: null })).json();
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, createLocalJWKSet(jwks), { issuer: `${base}/realms/bank`, typ: 'at+jwt' });
    expect(protectedHeader.typ).toBe('at+jwt');
    expect(payload).toMatchObject({ sub: jwtService.uid, client_id: jwtService.uid, scope: 'public' });
    expect(payload.exp! - payload.iat!).toBe(300);
    h.clock.advance(301_000);
    expect(await introspect(tokens.access_token)).toEqual({ active: false });
  });

  it('refuses a client without granted scopes, a wider scope, a wrong secret, a public client, and a realm without OpenID Connect', async () => {
    const token = (form: Record<string, string>, realm = 'bank') => postForm(h, `/realms/${realm}/oauth/token`, { grant_type: 'client_credentials', ...form });
    const cases: [Record<string, string>, number, string, string?][] = [
      [{ client_id: ungranted.uid, client_secret: ungranted.secret }, 400, 'unauthorized_client'],
      [{ client_id: jwtService.uid, client_secret: jwtService.secret, scope: 'public admin' }, 400, 'invalid_scope'],
      [{ client_id: service.uid, client_secret: 'wrong' }, 401, 'invalid_client'],
      [{ client_id: service.uid }, 401, 'invalid_client'],
      [{ client_id: service.uid, client_secret: service.secret }, 400, 'unsupported_grant_type', 'plain'],
    ];
    for (const [form, status, error, realm] of cases) {
      const res = await token(form, realm);
      expect(res.statusCode, JSON.stringify(form)).toBe(status);
      expect(res.json().error).toBe(error);
    }
    const publicClient = await h.request({ method: 'POST', url: '/api/admin/customers/bank/oauth_clients', payload: { name: 'SPA', redirect_uris: ['https://app.example/callback'], confidential: false, client_credentials_scopes: ['public'] } });
    expect(publicClient.statusCode).toBe(422);
    expect(publicClient.json().details.map((d: { field: string }) => d.field)).toContain('client_credentials_scopes');
    const userScope = await h.request({ method: 'PUT', url: `/api/admin/customers/bank/oauth_clients/${ungranted.id}`, payload: { client_credentials_scopes: ['openid'] } });
    expect(userScope.statusCode).toBe(422);
  });

  it('stops the client\'s own tokens when its secret is regenerated; 20 parallel grants each get their own token', async () => {
    const tokens = await Promise.all(Array.from({ length: 20 }, () => grant(service)));
    expect(new Set(tokens.map((t) => t.access_token)).size).toBe(20);
    const regenerated = await h.request({ method: 'POST', url: `/api/admin/customers/bank/oauth_clients/${service.id}/regenerate_secret` });
    expect(regenerated.statusCode, regenerated.body).toBe(200);
    expect(await introspect(tokens[0]!.access_token)).toEqual({ active: false });
  });
});
