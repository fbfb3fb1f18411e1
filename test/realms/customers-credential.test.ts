import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessEvents } from '../../src/tables/events.js';
import { oauthAccessTokens } from '../../src/tables/oauth.js';
import { realmUsers } from '../../src/tables/realms.js';
import { hashSecret, randomSecret } from '../../src/security/secrets.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, REALM_USER_PASSWORD, signInAtLoginPage, signOutAtLogoutPage } from '../helpers/realms.js';
import { accessTokenFor } from '../oauth/fixtures.js';

const realmCookieName = (uid: string) => `atrium_realm_${uid}`;

const USER_SESSION = { error: { user_session: 'user not found' } };
const GRANT_EXPIRED = { error: { grant_expired: 'session expired' } };

describe('customers API credential and /me', () => {
  let h: Harness;
  let realm: { uid: string };
  let user: { id: number; email: string };

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h, { name: 'Personal Banking', settings: { session_lifetime_minutes: 120 } });
    user = await makeRealmUser(h, realm.uid, { email: 'ada@example.com', username: 'ada', first_name: 'Ada', last_name: 'Lovelace', external_id: 'crm-7' });
  });
  afterAll(async () => { await h?.close(); });

  /** A session from the realm's login page; answers the Cookie header. */
  async function session(uid: string, who: { email: string }) {
    return { cookie: await signInAtLoginPage(h, uid, who.email, REALM_USER_PASSWORD) };
  }

  const accessToken = (uid: string, cookie: string) => accessTokenFor(h, uid, cookie);

  const me = (uid: string, headers: Record<string, string> = {}) =>
    h.request({ method: 'GET', url: `/api/customers/realms/${uid}/me`, token: null, headers });

  it('answers the signed-in user with the cookie', async () => {
    const { cookie } = await session(realm.uid, user);
    const res = await me(realm.uid, { cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      id: user.id, external_id: 'crm-7', name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace', second_last_name: '',
      email: 'ada@example.com', username: 'ada', avatar: null, custom_fields: [], delegated_token: null, locale: null,
    });
  });

  it('answers 404 {} for an unknown or inactive realm, whatever the credential', async () => {
    const { cookie } = await session(realm.uid, user);
    const unknown = await me('no-such-realm', { cookie: cookie.replace(realmCookieName(realm.uid), realmCookieName('no-such-realm')) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({});
    expect((await me('no-such-realm')).json()).toEqual({});
    const sleeping = await makeRealm(h);
    const sleeper = await makeRealmUser(h, sleeping.uid);
    const live = await session(sleeping.uid, sleeper);
    expect((await me(sleeping.uid, { cookie: live.cookie })).statusCode).toBe(200);
    await h.request({ method: 'PUT', url: `/api/admin/realms/${sleeping.uid}`, payload: { active: false } });
    const inactive = await me(sleeping.uid, { cookie: live.cookie });
    expect(inactive.statusCode).toBe(404);
    expect(inactive.json()).toEqual({});
    expect((await h.request({ method: 'PUT', url: `/api/customers/realms/${sleeping.uid}/me`, token: null, headers: { cookie: live.cookie }, payload: {} })).json()).toEqual({});
  });

  it('answers 401 user_session without a credential, with a cookie we never issued, or with a blank one', async () => {
    for (const headers of [{} as Record<string, string>, { cookie: `${realmCookieName(realm.uid)}=${randomSecret()}` }, { cookie: `${realmCookieName(realm.uid)}=` }, { cookie: 'atrium_admin=x' }]) {
      const res = await me(realm.uid, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toEqual(USER_SESSION);
    }
  });

  it('answers 401 user_session for a session of another realm presented as this realm\'s cookie', async () => {
    const other = await makeRealm(h);
    const stranger = await makeRealmUser(h, other.uid);
    const { cookie } = await session(other.uid, stranger);
    const value = cookie.split('=')[1];
    const res = await me(realm.uid, { cookie: `${realmCookieName(realm.uid)}=${value}` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(USER_SESSION);
    // That other realm's cookie under its own name does not open this realm either.
    expect((await me(realm.uid, { cookie })).json()).toEqual(USER_SESSION);
  });

  it('answers 401 user_session for an inactive user, even while the session is live', async () => {
    const sleepy = await makeRealmUser(h, realm.uid);
    const { cookie } = await session(realm.uid, sleepy);
    // No route leaves a live session to an inactive user (see below): this is the defence against one.
    await h.ctx.db.update(realmUsers).set({ active: false }).where(eq(realmUsers.id, sleepy.id));
    const res = await me(realm.uid, { cookie });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(USER_SESSION);
    // Deactivation through the admin API ends the sessions too; the answer stays user_session.
    const other = await makeRealmUser(h, realm.uid);
    const second = await session(realm.uid, other);
    await h.request({ method: 'PUT', url: `/api/admin/customers/${realm.uid}/users/${other.id}`, payload: { active: false } });
    expect((await me(realm.uid, { cookie: second.cookie })).json()).toEqual(USER_SESSION);
  });

  it('answers 401 user_session once the user is deleted', async () => {
    const gone = await makeRealmUser(h, realm.uid);
    const { cookie } = await session(realm.uid, gone);
    await h.request({ method: 'DELETE', url: `/api/admin/customers/${realm.uid}/users/${gone.id}` });
    expect((await me(realm.uid, { cookie })).json()).toEqual(USER_SESSION);
  });

  it('answers 401 grant_expired for a session ended by sign-out or by the admin', async () => {
    const signedOut = await session(realm.uid, user);
    await signOutAtLogoutPage(h, realm.uid, signedOut.cookie);
    const res = await me(realm.uid, { cookie: signedOut.cookie });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(GRANT_EXPIRED);

    const revoked = await session(realm.uid, user);
    expect((await me(realm.uid, { cookie: revoked.cookie })).statusCode).toBe(200);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/customers/${realm.uid}/users/${user.id}/sessions` })).statusCode).toBe(204);
    const after = await me(realm.uid, { cookie: revoked.cookie });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(GRANT_EXPIRED);
  });

  it('renews the session while used (sliding) and expires it after the lifetime of inactivity', async () => {
    const { cookie } = await session(realm.uid, user);
    for (let i = 0; i < 4; i++) {
      h.clock.advanceMinutes(100);
      expect((await me(realm.uid, { cookie })).statusCode, `use ${i}`).toBe(200);
    }
    h.clock.advanceMinutes(119);
    expect((await me(realm.uid, { cookie })).statusCode).toBe(200);
    h.clock.advanceMinutes(120);
    const expired = await me(realm.uid, { cookie });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual(GRANT_EXPIRED);
    // Using it again does not bring it back.
    h.clock.advanceMinutes(1);
    expect((await me(realm.uid, { cookie })).json()).toEqual(GRANT_EXPIRED);
  });

  it('gives a recognized bearer token precedence and falls back to the cookie for one it does not recognize', async () => {
    const cookieSession = await session(realm.uid, user);
    const tokenSession = await session(realm.uid, user);
    const token = await accessToken(realm.uid, tokenSession.cookie);
    const auth = (t: string) => ({ authorization: `Bearer ${t}`, cookie: cookieSession.cookie });
    expect((await me(realm.uid, auth(token))).statusCode).toBe(200);
    expect((await me(realm.uid, auth(randomSecret()))).statusCode).toBe(200);
    // A dead token decides alone, although the cookie is alive.
    await h.ctx.db.update(oauthAccessTokens).set({ revokedAt: h.clock.now() }).where(eq(oauthAccessTokens.tokenHash, hashSecret(token)));
    // Written behind the server's back, the revocation is seen once the two-second credential cache lapses.
    h.clock.advance(2001);
    const revoked = await me(realm.uid, auth(token));
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toEqual(GRANT_EXPIRED);
    // A token we never issued, without a cookie.
    expect((await me(realm.uid, { authorization: `Bearer ${randomSecret()}` })).json()).toEqual(USER_SESSION);
    // A token of another realm is not recognized here.
    const other = await makeRealm(h);
    const stranger = await makeRealmUser(h, other.uid);
    const foreign = await accessToken(other.uid, (await session(other.uid, stranger)).cookie);
    expect((await me(other.uid, { authorization: `Bearer ${foreign}` })).statusCode).toBe(200);
    expect((await me(realm.uid, { authorization: `Bearer ${foreign}` })).json()).toEqual(USER_SESSION);
  });

  it('documents the credential failures as named models of the customers catalog', async () => {
    const doc = (await h.request({ method: 'GET', url: '/api/customers/docs/openapi.json', token: null })).json();
    expect(doc.components.schemas).toMatchObject({
      UserSessionError: { properties: { error: { properties: { user_session: { enum: ['user not found'] } } } } },
      GrantExpiredError: { properties: { error: { properties: { grant_expired: { enum: ['session expired'] } } } } },
      RealmNotFound: { type: 'object' },
      Me: expect.any(Object),
    });
    const op = doc.paths['/realms/{realm_uid}/me'].get;
    // 400 (a broken escape or NUL in the URL), 414 (a realm_uid past the router's limit) and 503 (the database unreachable) are declared for every operation.
    expect(Object.keys(op.responses)).toEqual(['200', '400', '401', '404', '414', '503']);
  });
});

describe('PUT /me (spec 4.3 rule 1)', () => {
  let h: Harness;
  let realm: { uid: string };
  let user: { id: number; email: string };
  let cookie: string;

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
    const fields = [
      { key: 'nickname', name: 'Nickname', type: 'text', visible: true, editable: true },
      { key: 'shoe_size', name: 'Shoe size', type: 'number', visible: true, editable: true },
      { key: 'tier', name: 'Tier', type: 'dropdown', options: ['silver', 'gold'], visible: true, editable: false },
      { key: 'risk_score', name: 'Risk', type: 'number', visible: false, editable: true },
      { key: 'badge', name: 'Badge', type: 'text', visible: true, editable: true, unique: true },
    ];
    for (const field of fields) await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/custom_fields`, payload: field });
    user = await makeRealmUser(h, realm.uid, {
      username: 'ada', first_name: 'Ada', last_name: 'Lovelace',
      custom_fields: [{ key: 'nickname', value: 'Countess' }, { key: 'tier', value: 'gold' }, { key: 'risk_score', value: 3 }],
    });
    await makeRealmUser(h, realm.uid, { username: 'taken', email: 'taken@example.com', custom_fields: [{ key: 'badge', value: 'B-1' }] });
    cookie = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
  });
  afterAll(async () => { await h?.close(); });

  const put = (payload: unknown) => h.request({ method: 'PUT', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie }, payload: payload as object });
  const stored = async () => (await h.ctx.db.select().from(realmUsers).where(eq(realmUsers.id, user.id)))[0];

  it('shows only the visible custom fields', async () => {
    const res = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie } });
    expect(res.json().custom_fields).toEqual([
      { key: 'nickname', value: 'Countess' }, { key: 'shoe_size', value: null }, { key: 'tier', value: 'gold' }, { key: 'badge', value: null },
    ]);
  });

  it('drops fields not both visible and editable silently, saves the rest and records the change', async () => {
    const res = await put({
      first_name: 'Augusta', second_last_name: 'Byron',
      custom_fields: [
        { key: 'nickname', value: 'Enchantress' }, { key: 'shoe_size', value: 37 },
        { key: 'tier', value: 'silver' }, { key: 'risk_score', value: 99 }, { key: 'not_a_field', value: 'x' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      first_name: 'Augusta', last_name: 'Lovelace', second_last_name: 'Byron', name: 'Augusta Lovelace Byron',
      custom_fields: [{ key: 'nickname', value: 'Enchantress' }, { key: 'shoe_size', value: 37 }, { key: 'tier', value: 'gold' }, { key: 'badge', value: null }],
    });
    expect((await stored()).customFields).toEqual({ nickname: 'Enchantress', shoe_size: 37, tier: 'gold', risk_score: 3 });
    const events = await h.ctx.db.select().from(businessEvents).where(and(eq(businessEvents.userId, user.id), eq(businessEvents.type, 'user_updated_log')));
    expect(events).toHaveLength(1);
  });

  it('drops an invalid value of a field the user may not edit without complaint', async () => {
    const res = await put({ custom_fields: [{ key: 'tier', value: 'platinum' }, { key: 'risk_score', value: 'high' }] });
    expect(res.statusCode).toBe(200);
    expect((await stored()).customFields).toMatchObject({ tier: 'gold', risk_score: 3 });
  });

  it('answers 422 naming each invalid attribute, and saves nothing', async () => {
    const before = await stored();
    const res = await put({
      first_name: 'Changed', email: 'not an email', username: 'TAKEN',
      custom_fields: [{ key: 'shoe_size', value: 'big' }, { key: 'badge', value: 'B-1' }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([
      { field: 'email', messages: ['is invalid'] },
      { field: 'username', messages: ['has already been taken'] },
      { field: 'custom_fields.shoe_size', messages: ['must be a number'] },
    ]);
    expect(res.json().errors).toContain('Email is invalid');
    const unique = await put({ custom_fields: [{ key: 'badge', value: 'B-1' }] });
    expect(unique.statusCode).toBe(422);
    expect(unique.json().details).toEqual([{ field: 'custom_fields.badge', messages: ['has already been taken'] }]);
    const taken = await put({ email: 'TAKEN@example.com' });
    expect(taken.json().details).toEqual([{ field: 'email', messages: ['has already been taken'] }]);
    expect(await stored()).toEqual(before);
  });

  it('accepts back the read-only attributes of GET /me and ignores them, but refuses unknown ones', async () => {
    const current = (await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie } })).json();
    const res = await put({ ...current, id: 999, external_id: 'hacked', name: 'Someone Else', last_name: 'King' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, external_id: null, last_name: 'King' });
    const unknown = await put({ active: false, password: 'a new long password' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details.map((d: { field: string }) => d.field)).toEqual(['active', 'password']);
    expect((await stored()).active).toBe(true);
  });

  it('changes the username when it is free; a free email waits for its link, so the answer shows the old one', async () => {
    const res = await put({ email: 'Ada.New@Example.com', username: 'ada_new' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: user.email, username: 'ada_new' });
  });

  it('needs the credential: 401 without it, 404 for an unknown realm', async () => {
    const none = await h.request({ method: 'PUT', url: `/api/customers/realms/${realm.uid}/me`, token: null, payload: { first_name: 'x' } });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual(USER_SESSION);
    const unknown = await h.request({ method: 'PUT', url: '/api/customers/realms/nope/me', token: null, headers: { cookie }, payload: { first_name: 'x' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({});
  });
});

describe('GET /api/profile/me', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  it('answers the same shape with the same credential', async () => {
    const realm = await makeRealm(h);
    const other = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid, { first_name: 'Grace', last_name: 'Hopper' });
    const cookie = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    const customers = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie } });

    const single = await h.request({ method: 'GET', url: '/api/profile/me', token: null, headers: { cookie } });
    expect(single.statusCode, single.body).toBe(200);
    expect(single.json()).toEqual(customers.json());
    const named = await h.request({ method: 'GET', url: `/api/profile/me?realm_uid=${realm.uid}`, token: null, headers: { cookie: `${cookie}; ${realmCookieName(other.uid)}=x` } });
    expect(named.json()).toEqual(customers.json());

    const ambiguous = await h.request({ method: 'GET', url: '/api/profile/me', token: null, headers: { cookie: `${cookie}; ${realmCookieName(other.uid)}=x` } });
    expect(ambiguous.statusCode).toBe(401);
    expect(ambiguous.json()).toEqual(USER_SESSION);
    expect((await h.request({ method: 'GET', url: '/api/profile/me', token: null })).json()).toEqual(USER_SESSION);
    const unknown = await h.request({ method: 'GET', url: '/api/profile/me?realm_uid=nope', token: null, headers: { cookie } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({});

    h.clock.advanceMinutes(121);
    const expired = await h.request({ method: 'GET', url: '/api/profile/me', token: null, headers: { cookie } });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual(GRANT_EXPIRED);
  });
});
