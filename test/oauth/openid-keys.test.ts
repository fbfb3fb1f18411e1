import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { rotateDueSigningKeys } from '../../src/oauth/signing-keys.js';
import { signInAtLoginPage } from '../helpers/realms.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { createClient, createRealm, createUser, issueCode, postForm, REDIRECT, USER_PASSWORD, type ClientFixture } from './fixtures.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Issue 31 items 1 and 3: ES256 ID tokens per client, keys rotated on a schedule, and custom fields in userinfo under the client's claim. */
describe('OpenID Connect: algorithms, scheduled rotation, custom fields in userinfo', () => {
  let h: Harness;
  let rs: ClientFixture;
  let es: ClientFixture;
  let withFields: ClientFixture;
  let userId: number;
  const email = 'eva@keys.test';

  beforeAll(async () => {
    h = await startHarness();
    await createRealm(h, 'keys');
    const enabled = await h.request({ method: 'PUT', url: '/api/admin/realms/keys', payload: { settings: { openid_connect_enabled: true } } });
    expect(enabled.json().settings.signing_key_rotation_days).toBeNull();
    rs = await createClient(h, 'keys', { scopes: ['openid', 'profile'] });
    es = await createClient(h, 'keys', { scopes: ['openid', 'profile'], id_token_signed_response_alg: 'ES256' });
    withFields = await createClient(h, 'keys', { scopes: ['openid', 'profile'], custom_fields_claim: 'https://bank.example/fields' });
    userId = await createUser(h, { uid: 'keys' }, email);
  });
  afterAll(async () => { await h?.close(); });

  const jwks = async () => (await h.request({ url: '/realms/keys/oauth/jwks', token: null })).json() as JSONWebKeySet;

  /** Signs in again (the session may have expired as the clock moved) and exchanges a code for the client's tokens. */
  async function tokensFor(fixture: ClientFixture, scope = 'openid profile') {
    const cookie = await signInAtLoginPage(h, 'keys', email, USER_PASSWORD);
    const code = await issueCode(h, 'keys', fixture.uid, cookie, { scope });
    const res = await postForm(h, '/realms/keys/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: fixture.uid, client_secret: fixture.secret });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { access_token: string; id_token: string };
  }

  it('signs a client\'s ID tokens with ES256 when it asks, RS256 otherwise, both keys in the JWKS and the discovery', async () => {
    const metadata = (await h.request({ url: '/realms/keys/.well-known/openid-configuration', token: null })).json();
    expect(metadata.id_token_signing_alg_values_supported).toEqual(['RS256', 'ES256']);
    const client = (await h.request({ url: `/api/admin/customers/keys/oauth_clients/${es.id}` })).json();
    expect(client).toMatchObject({ id_token_signed_response_alg: 'ES256', custom_fields_claim: null });

    const rsToken = (await tokensFor(rs)).id_token;
    const esToken = (await tokensFor(es)).id_token;
    expect(decodeProtectedHeader(rsToken).alg).toBe('RS256');
    expect(decodeProtectedHeader(esToken).alg).toBe('ES256');
    const set = await jwks();
    expect(set.keys.map((key) => [key.alg, key.kty]).sort()).toEqual([['ES256', 'EC'], ['RS256', 'RSA']]);
    for (const [token, audience] of [[rsToken, rs.uid], [esToken, es.uid]] as const) {
      const { payload } = await jwtVerify(token, createLocalJWKSet(set), { issuer: `${h.config.baseUrl}/realms/keys`, audience });
      expect(payload.sub).toBeTruthy();
    }
    // An RSA key never signs as ES256, nor the reverse: each algorithm has its own key.
    expect(new Set(set.keys.map((key) => key.kid)).size).toBe(2);
  });

  it('refuses an unknown algorithm, a standard or malformed claim name and a rotation outside 1 to 365 days (422), and takes null', async () => {
    const client = (payload: object) => h.request({ method: 'PUT', url: `/api/admin/customers/keys/oauth_clients/${rs.id}`, payload });
    for (const [payload, field] of [
      [{ id_token_signed_response_alg: 'HS256' }, 'id_token_signed_response_alg'], [{ id_token_signed_response_alg: 'none' }, 'id_token_signed_response_alg'],
      [{ custom_fields_claim: 'email' }, 'custom_fields_claim'], [{ custom_fields_claim: 'with space' }, 'custom_fields_claim'],
      [{ custom_fields_claim: 'x'.repeat(101) }, 'custom_fields_claim'],
    ] as const) {
      const res = await client(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
    // A NUL byte is refused before any route, as everywhere (400).
    expect((await client({ custom_fields_claim: 'a\u0000b' })).statusCode).toBe(400);
    expect((await client({ custom_fields_claim: null })).json().custom_fields_claim).toBeNull();
    for (const days of [0, 366, -1]) {
      const res = await h.request({ method: 'PUT', url: '/api/admin/realms/keys', payload: { settings: { signing_key_rotation_days: days } } });
      expect(res.statusCode, String(days)).toBe(422);
    }
    const off = await h.request({ method: 'PUT', url: '/api/admin/realms/keys', payload: { settings: { signing_key_rotation_days: null } } });
    expect(off.json().settings.signing_key_rotation_days).toBeNull();
  });

  it('rotates keys once as old as the realm\'s setting: an earlier ID token verifies until an ID token\'s lifetime after, then its key is gone', async () => {
    const before = (await tokensFor(rs)).id_token;
    const oldKid = decodeProtectedHeader(before).kid;
    // Without the setting, the job leaves keys of any age.
    h.clock.advance(10 * DAY);
    expect(await rotateDueSigningKeys(h.ctx)).toBe(0);
    const set = await h.request({ method: 'PUT', url: '/api/admin/realms/keys', payload: { settings: { signing_key_rotation_days: 7 } } });
    expect(set.json().settings.signing_key_rotation_days).toBe(7);
    // Both keys in use (RS256 and ES256) are older than 7 days: both retire, once.
    expect(await rotateDueSigningKeys(h.ctx)).toBe(2);
    expect(await rotateDueSigningKeys(h.ctx)).toBe(0);

    const after = (await tokensFor(rs)).id_token;
    const newKid = decodeProtectedHeader(after).kid;
    expect(newKid).not.toBe(oldKid);
    const kids = (await jwks()).keys.map((key) => key.kid);
    expect(kids).toEqual(expect.arrayContaining([oldKid, newKid]));

    h.clock.advance(HOUR + 1000);
    expect((await jwks()).keys.map((key) => key.kid)).not.toContain(oldKid);
    // The new key, a day old, is kept until it is 7 days old.
    h.clock.advance(DAY);
    expect(await rotateDueSigningKeys(h.ctx)).toBe(0);
  });

  it('adds the user\'s visible custom fields to userinfo under the client\'s claim, with the scope profile only', async () => {
    for (const field of [{ key: 'tier', name: 'Tier', type: 'text' }, { key: 'risk', name: 'Risk', type: 'text', visible: false }]) {
      expect((await h.request({ method: 'POST', url: '/api/admin/customers/keys/custom_fields', payload: field })).statusCode).toBe(201);
    }
    const saved = await h.request({ method: 'PUT', url: `/api/admin/customers/keys/users/${userId}`, payload: { custom_fields: [{ key: 'tier', value: 'gold' }, { key: 'risk', value: 'high' }] } });
    expect(saved.statusCode, saved.body).toBe(200);
    const userinfo = (token: string) => h.request({ url: '/realms/keys/oauth/userinfo', token: null, headers: { authorization: `Bearer ${token}` } });

    const info = (await userinfo((await tokensFor(withFields)).access_token)).json();
    expect(info['https://bank.example/fields']).toEqual({ tier: 'gold' });
    expect(JSON.stringify(info)).not.toContain('high');
    expect((await userinfo((await tokensFor(withFields, 'openid')).access_token)).json()).not.toHaveProperty(['https://bank.example/fields']);
    expect(Object.keys((await userinfo((await tokensFor(rs)).access_token)).json())).not.toContain('https://bank.example/fields');
  });
});
