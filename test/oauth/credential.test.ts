import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import {
  createClient, createRealm, issueCode, postForm, REDIRECT, signedInUser,
  type ClientFixture, type RealmFixture,
} from './fixtures.js';
import { formFields } from './browse.js';

const GRANT_EXPIRED = { error: { grant_expired: 'session expired' } };
const USER_SESSION = { error: { user_session: 'user not found' } };

describe('access tokens on the customers API', () => {
  let h: Harness;
  let bank: RealmFixture;
  let client: ClientFixture;

  beforeAll(async () => {
    h = await startHarness();
    bank = await createRealm(h, 'bank');
    await h.request({ method: 'PUT', url: '/api/admin/realms/bank', payload: { settings: { session_lifetime_minutes: 30 } } });
    client = await createClient(h, 'bank');
  });
  afterAll(async () => { await h?.close(); });

  const signedIn = (email: string) => signedInUser(h, bank, email);

  async function tokenFor(cookie: string): Promise<{ token: string; code: string }> {
    const code = await issueCode(h, 'bank', client.uid, cookie);
    const res = await postForm(h, '/realms/bank/oauth/token', {
      grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.uid, client_secret: client.secret,
    });
    expect(res.statusCode, res.body).toBe(200);
    return { token: res.json().access_token, code };
  }

  const me = (token: string | null, cookie?: string) => h.request({
    method: 'GET', url: '/api/customers/realms/bank/me', token, headers: cookie ? { cookie } : {},
  });

  it('answers GET /me for the user the token was issued to', async () => {
    const { cookie } = await signedIn('ana@bank.test');
    const { token } = await tokenFor(cookie);
    const res = await me(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().email).toBe('ana@bank.test');
  });

  it('stops a token revoked per RFC 7009: 401 grant_expired', async () => {
    const { cookie } = await signedIn('rev@bank.test');
    const { token } = await tokenFor(cookie);
    const revoke = await postForm(h, '/realms/bank/oauth/revoke', { token, client_id: client.uid, client_secret: client.secret });
    expect(revoke.statusCode).toBe(200);
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(GRANT_EXPIRED);
  });

  it('stops the token issued from a code that is used a second time', async () => {
    const { cookie } = await signedIn('replay@bank.test');
    const { token, code } = await tokenFor(cookie);
    expect((await me(token)).statusCode).toBe(200);
    const replay = await postForm(h, '/realms/bank/oauth/token', {
      grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.uid, client_secret: client.secret,
    });
    expect(replay.json().error).toBe('invalid_grant');
    expect((await me(token)).json()).toEqual(GRANT_EXPIRED);
  });

  it('stops the token when the user signs out on the logout page', async () => {
    const { cookie } = await signedIn('out@bank.test');
    const { token } = await tokenFor(cookie);
    const page = await h.request({ method: 'GET', url: '/realms/bank/logout', token: null, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    const csrfCookies = [page.headers['set-cookie']].flat().filter(Boolean).map((c) => String(c).split(';')[0]);
    const out = await h.request({
      method: 'POST', url: '/realms/bank/logout', token: null,
      headers: { cookie: [cookie, ...csrfCookies].join('; '), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(formFields(page.body)).toString(),
    });
    expect(out.statusCode).toBeLessThan(400);
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(GRANT_EXPIRED);
  });

  it('stops the token when an admin revokes the user\'s sessions', async () => {
    const { cookie, id: userId } = await signedIn('admin-rev@bank.test');
    const { token } = await tokenFor(cookie);
    const res = await h.request({ method: 'DELETE', url: `/api/admin/customers/bank/users/${userId}/sessions` });
    expect(res.statusCode).toBeLessThan(300);
    expect((await me(token)).json()).toEqual(GRANT_EXPIRED);
  });

  it('keeps the token alive while used and stops it when the session expires', async () => {
    const { cookie } = await signedIn('slide@bank.test');
    const { token } = await tokenFor(cookie);
    h.clock.advanceMinutes(20);
    expect((await me(token)).statusCode).toBe(200);
    h.clock.advanceMinutes(20);
    expect((await me(token)).statusCode).toBe(200);
    h.clock.advanceMinutes(31);
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(GRANT_EXPIRED);
  });

  it('gives a recognized bearer precedence over the cookie', async () => {
    const ana = await signedIn('first@bank.test');
    const bob = await signedIn('second@bank.test');
    const { token } = await tokenFor(ana.cookie);
    const res = await me(token, bob.cookie);
    expect(res.json().email).toBe('first@bank.test');
    await postForm(h, '/realms/bank/oauth/revoke', { token, client_id: client.uid, client_secret: client.secret });
    const dead = await me(token, bob.cookie);
    expect(dead.statusCode).toBe(401);
    expect(dead.json()).toEqual(GRANT_EXPIRED);
  });

  it('answers user_session for a token never issued', async () => {
    const res = await me('never-issued-token');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(USER_SESSION);
  });

  it('never accepts a token of one realm in another', async () => {
    await createRealm(h, 'shop');
    const { cookie } = await signedIn('cross@bank.test');
    const { token } = await tokenFor(cookie);
    const res = await h.request({ method: 'GET', url: '/api/customers/realms/shop/me', token });
    expect(res.statusCode).toBe(401);
  });
});
