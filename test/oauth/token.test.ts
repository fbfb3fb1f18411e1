import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from '../helpers/harness.js';
import { signOutAtLogoutPage } from '../helpers/realms.js';
import { oauthAccessTokens } from '../../src/tables/oauth.js';
import { realmSessions } from '../../src/tables/realms.js';
import { hashSecret } from '../../src/security/secrets.js';
import {
  basicAuth, createClient, createRealm, issueCode, postForm, REDIRECT, signedInUser,
  type ClientFixture, type RealmFixture,
} from './fixtures.js';

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
const pkce = { code_challenge: CHALLENGE, code_challenge_method: 'S256' };

describe('POST /realms/{uid}/oauth/token', () => {
  let h: Harness;
  let bank: RealmFixture;
  let client: ClientFixture;
  let other: ClientFixture;
  let cookie: string;

  beforeAll(async () => {
    h = await startHarness();
    bank = await createRealm(h, 'bank');
    await createRealm(h, 'shop');
    client = await createClient(h, 'bank');
    other = await createClient(h, 'bank');
    ({ cookie } = await signedInUser(h, bank, 'ana@bank.test'));
  });
  afterAll(async () => { await h?.close(); });

  const token = (form: Record<string, string | undefined>, headers?: Record<string, string>) => postForm(h, '/realms/bank/oauth/token', form, headers);
  const exchange = (code: string, extra: Record<string, string | undefined> = {}) => token({
    grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.uid, client_secret: client.secret, code_verifier: VERIFIER, ...extra,
  });
  const expectOAuthError = (res: Awaited<ReturnType<typeof token>>, status: number, error: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toEqual({ error, error_description: expect.any(String) });
    expect(res.headers['cache-control']).toBe('no-store');
  };

  it('exchanges a code for a Bearer token tied to the session, stored hashed (client_secret_post)', async () => {
    const code = await issueCode(h, 'bank', client.uid, cookie, { ...pkce, scope: 'admin' });
    const res = await exchange(code);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', scope: 'admin', created_at: Math.floor(h.clock.now().getTime() / 1000) });
    expect(Object.keys(body)).not.toContain('expires_in');
    const [row] = await h.ctx.db.select().from(oauthAccessTokens).where(eq(oauthAccessTokens.tokenHash, hashSecret(body.access_token)));
    const [session] = await h.ctx.db.select().from(realmSessions).where(eq(realmSessions.sessionHash, hashSecret(cookie.slice(cookie.indexOf('=') + 1))));
    expect(row).toMatchObject({ sessionId: session.id, scope: 'admin', revokedAt: null });
  });

  it('accepts HTTP Basic client authentication', async () => {
    const code = await issueCode(h, 'bank', client.uid, cookie, pkce);
    const res = await exchange(code, { client_id: undefined, client_secret: undefined });
    expect(res.statusCode).toBe(401);
    const basic = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, { authorization: basicAuth(client.uid, client.secret) });
    expect(basic.statusCode, basic.body).toBe(200);
  });

  it('refuses a wrong secret: invalid_client 401, with a Basic challenge when Basic was used', async () => {
    const code = await issueCode(h, 'bank', client.uid, cookie, pkce);
    const post = await exchange(code, { client_secret: 'wrong' });
    expectOAuthError(post, 401, 'invalid_client');
    expect(post.headers['www-authenticate']).toBeUndefined();
    const basic = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, { authorization: basicAuth(client.uid, 'wrong') });
    expectOAuthError(basic, 401, 'invalid_client');
    expect(basic.headers['www-authenticate']).toMatch(/^Basic /);
    expectOAuthError(await exchange(code, { client_id: 'nobody' }), 401, 'invalid_client');
    // A client of the bank is unknown at the shop.
    expectOAuthError(await postForm(h, '/realms/shop/oauth/token', {
      grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.uid, client_secret: client.secret, code_verifier: VERIFIER,
    }), 401, 'invalid_client');
    // The code still works for its own client afterwards.
    expect((await exchange(code)).statusCode).toBe(200);
  });

  it('refuses a code whose redirect URI was removed from the client since (invalid_grant)', async () => {
    const changing = await createClient(h, 'bank', { redirect_uris: [REDIRECT, 'https://app.example/other'] });
    const code = await issueCode(h, 'bank', changing.uid, cookie, pkce);
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: changing.uid, client_secret: changing.secret, code_verifier: VERIFIER };
    const update = await h.request({ method: 'PUT', url: `/api/admin/customers/bank/oauth_clients/${changing.id}`, payload: { redirect_uris: ['https://app.example/other'] } });
    expect(update.statusCode).toBe(200);
    const res = await token(form);
    expectOAuthError(res, 400, 'invalid_grant');
    expect(res.json().error_description).toMatch(/no longer registered/);
    await h.request({ method: 'PUT', url: `/api/admin/customers/bank/oauth_clients/${changing.id}`, payload: { redirect_uris: [REDIRECT] } });
    expect((await token(form)).statusCode).toBe(200);
  });

  it('refuses Basic credentials holding a NUL byte, raw or percent-encoded, with invalid_client at the token and revocation endpoints', async () => {
    const code = await issueCode(h, 'bank', client.uid, cookie, pkce);
    for (const [id, secret] of [[`${client.uid}\u0000`, client.secret], [`${client.uid}%00`, client.secret], [client.uid, `${client.secret}%00`]]) {
      const authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
      const exchanged = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, { authorization });
      expectOAuthError(exchanged, 401, 'invalid_client');
      expectOAuthError(await postForm(h, '/realms/bank/oauth/revoke', { token: 'anything' }, { authorization }), 401, 'invalid_client');
    }
    expect((await exchange(code)).statusCode).toBe(200);
  });

  it('challenges with Basic only an invalid_client answer to a client that tried HTTP Basic', async () => {
    const code = await issueCode(h, 'bank', client.uid, cookie, pkce);
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER };
    const bare = await token(form, { authorization: 'Basic' });
    expectOAuthError(bare, 401, 'invalid_client');
    expect(bare.headers['www-authenticate']).toMatch(/^Basic /);
    const badCode = await token({ ...form, code: 'never-issued' }, { authorization: basicAuth(client.uid, client.secret) });
    expectOAuthError(badCode, 400, 'invalid_grant');
    expect(badCode.headers['www-authenticate']).toBeUndefined();
    const bearer = await token({ ...form, client_id: client.uid, client_secret: 'wrong' }, { authorization: 'Bearer something' });
    expectOAuthError(bearer, 401, 'invalid_client');
    expect(bearer.headers['www-authenticate']).toBeUndefined();
  });

  it('supports only the authorization_code grant', async () => {
    for (const grant of ['client_credentials', 'password', 'refresh_token', 'implicit']) {
      expectOAuthError(await token({ grant_type: grant, client_id: client.uid, client_secret: client.secret }), 400, 'unsupported_grant_type');
    }
    expectOAuthError(await token({ client_id: client.uid, client_secret: client.secret }), 400, 'invalid_request');
  });

  it('wants a form-encoded body', async () => {
    const res = await h.request({ method: 'POST', url: '/realms/bank/oauth/token', token: null, payload: { grant_type: 'authorization_code' } });
    expectOAuthError(res, 400, 'invalid_request');
  });

  it('refuses an unknown code, a code of another client and a redirect_uri mismatch with invalid_grant, spending nothing', async () => {
    expectOAuthError(await exchange('never-issued'), 400, 'invalid_grant');
    expectOAuthError(await exchange(''), 400, 'invalid_request');
    const code = await issueCode(h, 'bank', client.uid, cookie, pkce);
    expectOAuthError(await exchange(code, { client_id: other.uid, client_secret: other.secret }), 400, 'invalid_grant');
    expectOAuthError(await exchange(code, { redirect_uri: `${REDIRECT}/` }), 400, 'invalid_grant');
    expectOAuthError(await exchange(code, { redirect_uri: undefined }), 400, 'invalid_grant');
    expect((await exchange(code)).statusCode).toBe(200);
  });

  it('expires a code after ten minutes', async () => {
    const code = await issueCode(h, 'bank', client.uid, cookie, pkce);
    const fresh = await issueCode(h, 'bank', client.uid, cookie, pkce);
    h.clock.advanceMinutes(9);
    expect((await exchange(fresh)).statusCode).toBe(200);
    h.clock.advanceMinutes(2);
    expectOAuthError(await exchange(code), 400, 'invalid_grant');
    expect((await exchange(code)).json().error_description).toMatch(/expired/);
  });

  it('checks the PKCE verifier: missing, wrong, or sent without a challenge', async () => {
    const code = await issueCode(h, 'bank', client.uid, cookie, pkce);
    expectOAuthError(await exchange(code, { code_verifier: undefined }), 400, 'invalid_grant');
    expectOAuthError(await exchange(code, { code_verifier: `${VERIFIER.slice(0, -1)}A` }), 400, 'invalid_grant');
    expectOAuthError(await exchange(code, { code_verifier: CHALLENGE }), 400, 'invalid_grant');
    expect((await exchange(code)).statusCode).toBe(200);
    const bare = await issueCode(h, 'bank', client.uid, cookie);
    expectOAuthError(await exchange(bare), 400, 'invalid_grant');
    expect((await exchange(bare, { code_verifier: undefined })).statusCode).toBe(200);
  });

  it('accepts a plain challenge where the realm allows it', async () => {
    const open = await createRealm(h, 'open', { pkcePlainAllowed: true });
    const openClient = await createClient(h, 'open');
    const openCookie = (await signedInUser(h, open, 'dora@open.test')).cookie;
    const code = await issueCode(h, 'open', openClient.uid, openCookie, { code_challenge: VERIFIER, code_challenge_method: 'plain' });
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: openClient.uid, client_secret: openClient.secret };
    expectOAuthError(await postForm(h, '/realms/open/oauth/token', { ...form, code_verifier: CHALLENGE }), 400, 'invalid_grant');
    expect((await postForm(h, '/realms/open/oauth/token', { ...form, code_verifier: VERIFIER })).statusCode).toBe(200);
  });

  it('works once: a second use fails with invalid_grant and revokes the token issued from the code', async () => {
    const code = await issueCode(h, 'bank', client.uid, cookie, pkce);
    const first = await exchange(code);
    expect(first.statusCode).toBe(200);
    const hash = hashSecret(first.json().access_token);
    const replay = await exchange(code);
    expectOAuthError(replay, 400, 'invalid_grant');
    const [row] = await h.ctx.db.select().from(oauthAccessTokens).where(eq(oauthAccessTokens.tokenHash, hash));
    expect(row.revokedAt).not.toBeNull();
  });

  it('gives exactly one token to three concurrent exchanges of one code; the others get invalid_grant', async () => {
    const code = await issueCode(h, 'bank', client.uid, cookie, pkce);
    const answers = await Promise.all([exchange(code), exchange(code), exchange(code)]);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(refused.map((a) => [a.statusCode, a.json().error])).toEqual([[400, 'invalid_grant'], [400, 'invalid_grant']]);
  });

  it('lets a public client exchange with its client_id alone only when PKCE binds the code', async () => {
    const mobile = await createClient(h, 'bank', { confidential: false });
    const withPkce = await issueCode(h, 'bank', mobile.uid, cookie, pkce);
    const form = (code: string) => ({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: mobile.uid });
    expect((await token({ ...form(withPkce), code_verifier: VERIFIER })).statusCode).toBe(200);
    const withoutPkce = await issueCode(h, 'bank', mobile.uid, cookie);
    expectOAuthError(await token(form(withoutPkce)), 401, 'invalid_client');
    expect((await token({ ...form(withoutPkce), client_secret: mobile.secret })).statusCode).toBe(200);
    // A confidential client always needs its secret.
    const code = await issueCode(h, 'bank', client.uid, cookie, pkce);
    expectOAuthError(await exchange(code, { client_secret: undefined }), 401, 'invalid_client');
  });

  it('refuses a code whose session has ended', async () => {
    const session = await signedInUser(h, bank, 'eve@bank.test');
    const code = await issueCode(h, 'bank', client.uid, session.cookie, pkce);
    await signOutAtLogoutPage(h, 'bank', session.cookie);
    expectOAuthError(await exchange(code), 400, 'invalid_grant');
  });

  it('refuses repeated parameters', async () => {
    const res = await h.request({
      method: 'POST', url: '/realms/bank/oauth/token', token: null, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=authorization_code&code=a&code=b&client_id=${client.uid}&client_secret=${client.secret}`,
    });
    expectOAuthError(res, 400, 'invalid_request');
  });
});
