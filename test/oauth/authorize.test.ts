import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from '../helpers/harness.js';
import { signOutAtLogoutPage } from '../helpers/realms.js';
import { authorizationCodes } from '../../src/tables/oauth.js';
import { hashSecret } from '../../src/security/secrets.js';
import {
  authorizePath, callbackParams, createClient, createRealm, REDIRECT, signedInUser,
  type ClientFixture, type RealmFixture,
} from './fixtures.js';

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

describe('GET /realms/{uid}/oauth/authorize', () => {
  let h: Harness;
  let bank: RealmFixture;
  let shop: RealmFixture;
  let client: ClientFixture;
  let cookie: string;
  let shopCookie: string;

  beforeAll(async () => {
    h = await startHarness();
    bank = await createRealm(h, 'bank');
    shop = await createRealm(h, 'shop');
    client = await createClient(h, 'bank', { redirect_uris: [REDIRECT, 'https://app.example/other?x=1'] });
    cookie = (await signedInUser(h, bank, 'ana@bank.test')).cookie;
    shopCookie = (await signedInUser(h, shop, 'bob@shop.test')).cookie;
  });
  afterAll(async () => { await h?.close(); });

  const get = (url: string, headers: Record<string, string> = {}) => h.request({ method: 'GET', url, token: null, headers });
  const valid = (extra: Record<string, string | undefined> = {}) => ({
    response_type: 'code', client_id: client.uid, redirect_uri: REDIRECT, state: 'xyz 123', code_challenge: CHALLENGE, code_challenge_method: 'S256', ...extra,
  });

  it('redirects a signed-in user to the redirect URI with a code and the state unchanged', async () => {
    const res = await get(authorizePath('bank', valid()), { cookie });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location!.startsWith(`${REDIRECT}?`)).toBe(true);
    const params = callbackParams(res.headers.location);
    expect(params.get('state')).toBe('xyz 123');
    expect(params.get('iss')).toBe('http://atrium.test/realms/bank');
    const code = params.get('code')!;
    expect(code.length).toBeGreaterThanOrEqual(43);
    const [row] = await h.ctx.db.select().from(authorizationCodes).where(eq(authorizationCodes.codeHash, hashSecret(code)));
    expect(row).toMatchObject({ redirectUri: REDIRECT, scope: 'public', codeChallenge: CHALLENGE, codeChallengeMethod: 'S256', usedAt: null });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(10 * 60_000);
  });

  it('keeps the query a registered redirect URI already has', async () => {
    const res = await get(authorizePath('bank', valid({ redirect_uri: 'https://app.example/other?x=1' })), { cookie });
    const url = new URL(res.headers.location!);
    expect(url.searchParams.get('x')).toBe('1');
    expect(url.searchParams.get('code')).toBeTruthy();
  });

  it('sends a user without a session to the login page, which returns to this authorize address', async () => {
    const path = authorizePath('bank', valid());
    const res = await get(path);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/realms/bank/login?redirect_uri=${encodeURIComponent(path)}`);
    const bogus = await get(path, { cookie: 'atrium_realm_bank=not-a-session' });
    expect(bogus.headers.location).toMatch(/^\/realms\/bank\/login\?/);
  });

  it('treats an expired or signed-out session as none', async () => {
    const session = await signedInUser(h, bank, 'carl@bank.test');
    await signOutAtLogoutPage(h, 'bank', session.cookie);
    const res = await get(authorizePath('bank', valid()), { cookie: session.cookie });
    expect(res.headers.location).toMatch(/^\/realms\/bank\/login\?/);
  });

  it('shows an error page, never a redirect, for an unknown client or redirect URI', async () => {
    for (const params of [
      valid({ client_id: 'unknown' }),
      valid({ client_id: undefined }),
      valid({ redirect_uri: 'https://evil.example/callback' }),
      valid({ redirect_uri: `${REDIRECT}/` }),
      valid({ redirect_uri: undefined }),
      valid({ redirect_uri: REDIRECT.toUpperCase() }),
    ]) {
      const res = await get(authorizePath('bank', params), { cookie });
      expect(res.statusCode, JSON.stringify(params)).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toMatch(/<h1>/);
    }
  });

  it('follows a change or removal of the client at once, though it was just read', async () => {
    const changing = await createClient(h, 'bank');
    const params = valid({ client_id: changing.uid });
    expect((await get(authorizePath('bank', params), { cookie })).statusCode).toBe(302);
    const update = await h.request({ method: 'PUT', url: `/api/admin/customers/bank/oauth_clients/${changing.id}`, payload: { redirect_uris: ['https://app.example/other'] } });
    expect(update.statusCode).toBe(200);
    expect((await get(authorizePath('bank', params), { cookie })).statusCode).toBe(400);
    expect((await get(authorizePath('bank', valid({ client_id: changing.uid, redirect_uri: 'https://app.example/other' })), { cookie })).statusCode).toBe(302);
    const removal = await h.request({ method: 'DELETE', url: `/api/admin/customers/bank/oauth_clients/${changing.id}` });
    expect(removal.statusCode).toBe(204);
    expect((await get(authorizePath('bank', valid({ client_id: changing.uid, redirect_uri: 'https://app.example/other' })), { cookie })).statusCode).toBe(400);
  });

  it('never lets a client of one realm authorize a user of another', async () => {
    // The bank's client at the shop's authorize address, with a shop user signed in: an error page.
    const res = await get(authorizePath('shop', valid()), { cookie: `${shopCookie}; ${cookie}` });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    // A shop session never counts at the bank: the bank's authorize asks for the bank login.
    const crossed = await get(authorizePath('bank', valid()), { cookie: `atrium_realm_bank=${shopCookie.split('=')[1]}` });
    expect(crossed.headers.location).toMatch(/^\/realms\/bank\/login\?/);
  });

  it('answers 404 for an unknown realm', async () => {
    const res = await get(authorizePath('nope', valid()), { cookie });
    expect(res.statusCode).toBe(404);
    expect(res.headers.location).toBeUndefined();
  });

  const expectError = async (params: Record<string, string | undefined>, error: string, path = authorizePath('bank', params)) => {
    const res = await get(path, { cookie });
    expect(res.statusCode).toBe(302);
    const back = callbackParams(res.headers.location);
    expect(back.get('error')).toBe(error);
    expect(back.get('error_description')).toBeTruthy();
    expect(back.get('code')).toBeNull();
    if (params.state) expect(back.get('state')).toBe(params.state);
  };

  it('redirects unsupported_response_type and invalid_request with the state', async () => {
    await expectError(valid({ response_type: 'token' }), 'unsupported_response_type');
    await expectError(valid({ response_type: undefined }), 'invalid_request');
    await expectError(valid(), 'invalid_request', `${authorizePath('bank', valid())}&scope=public&scope=admin`);
  });

  it('accepts public and admin scopes and refuses others with invalid_scope', async () => {
    const ok = await get(authorizePath('bank', valid({ scope: 'public admin' })), { cookie });
    const code = callbackParams(ok.headers.location).get('code')!;
    const [row] = await h.ctx.db.select().from(authorizationCodes).where(eq(authorizationCodes.codeHash, hashSecret(code)));
    expect(row.scope).toBe('public admin');
    await expectError(valid({ scope: 'email' }), 'invalid_scope');
    await expectError(valid({ scope: 'public openid' }), 'invalid_scope');
  });

  it('limits scopes to those the client defines', async () => {
    const limited = await createClient(h, 'bank', { scopes: ['public'] });
    await expectError(valid({ client_id: limited.uid, scope: 'admin' }), 'invalid_scope');
    const ok = await get(authorizePath('bank', valid({ client_id: limited.uid, scope: 'public' })), { cookie });
    expect(callbackParams(ok.headers.location).get('code')).toBeTruthy();
    const adminOnly = await createClient(h, 'bank', { scopes: ['admin'] });
    // No scope asked: the default, public, which this client does not allow.
    await expectError(valid({ client_id: adminOnly.uid, scope: undefined }), 'invalid_scope');
  });

  it('checks PKCE: S256 by default, plain only where the realm allows it', async () => {
    const s256 = await get(authorizePath('bank', valid({ code_challenge_method: undefined })), { cookie });
    const code = callbackParams(s256.headers.location).get('code')!;
    const [row] = await h.ctx.db.select().from(authorizationCodes).where(eq(authorizationCodes.codeHash, hashSecret(code)));
    expect(row.codeChallengeMethod).toBe('S256');
    await expectError(valid({ code_challenge: VERIFIER, code_challenge_method: 'plain' }), 'invalid_request');
    await expectError(valid({ code_challenge_method: 'S512' }), 'invalid_request');
    await expectError(valid({ code_challenge: 'short' }), 'invalid_request');
    await expectError(valid({ code_challenge: undefined }), 'invalid_request');

    const open = await createRealm(h, 'open', { pkcePlainAllowed: true });
    const openClient = await createClient(h, 'open');
    const openCookie = (await signedInUser(h, open, 'dora@open.test')).cookie;
    const plain = await get(authorizePath('open', { ...valid(), client_id: openClient.uid, code_challenge: VERIFIER, code_challenge_method: 'plain' }), { cookie: openCookie });
    expect(callbackParams(plain.headers.location).get('code')).toBeTruthy();
  });

  it('issues a code without PKCE when none is asked for', async () => {
    const res = await get(authorizePath('bank', valid({ code_challenge: undefined, code_challenge_method: undefined })), { cookie });
    expect(callbackParams(res.headers.location).get('code')).toBeTruthy();
  });
});
