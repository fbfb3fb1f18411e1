import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessEvents } from '../../src/tables/events.js';
import { realmUsers } from '../../src/tables/realms.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { impersonatedSession, makeRealm, makeRealmUser } from '../helpers/realms.js';
import { accessToken, GRANT_EXPIRED, signInAs, USER_SESSION } from './fixtures.js';

describe('PUT /api/profile/me: the customers PUT /me (spec 4.3 rule 1) with the profile\'s credential', () => {
  let h: Harness;
  let realm: { uid: string };
  let user: { id: number; email: string };
  let cookie: string;

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h, { settings: { session_lifetime_minutes: 60 } });
    const fields = [
      { key: 'nickname', name: 'Nickname', type: 'text', visible: true, editable: true },
      { key: 'shoe_size', name: 'Shoe size', type: 'number', visible: true, editable: true },
      { key: 'tier', name: 'Tier', type: 'dropdown', options: ['silver', 'gold'], visible: true, editable: false },
      { key: 'risk_score', name: 'Risk', type: 'number', visible: false, editable: true },
    ];
    for (const field of fields) {
      expect((await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/custom_fields`, payload: field })).statusCode).toBe(201);
    }
    user = await makeRealmUser(h, realm.uid, {
      username: 'ada', custom_fields: [{ key: 'nickname', value: 'Countess' }, { key: 'tier', value: 'gold' }, { key: 'risk_score', value: 3 }],
    });
    await makeRealmUser(h, realm.uid, { username: 'taken', email: 'taken@example.com' });
    cookie = await signInAs(h, realm.uid, user.email);
  });
  afterAll(async () => { await h?.close(); });

  const put = (payload: unknown, headers: Record<string, string> = { cookie }, query = '') =>
    h.request({ method: 'PUT', url: `/api/profile/me${query}`, token: null, headers, payload: payload as object });
  const stored = async () => (await h.ctx.db.select().from(realmUsers).where(eq(realmUsers.id, user.id)))[0];
  const updates = async () => (await h.ctx.db.select().from(businessEvents)
    .where(and(eq(businessEvents.userId, user.id), eq(businessEvents.type, 'user_updated_log')))).length;

  it('saves names and editable fields, drops the others silently, records the change, and answers GET /me\'s shape', async () => {
    const res = await put({
      first_name: 'Augusta', second_last_name: 'Byron',
      custom_fields: [{ key: 'nickname', value: 'Enchantress' }, { key: 'shoe_size', value: 37 }, { key: 'tier', value: 'silver' }, { key: 'risk_score', value: 99 }, { key: 'nope', value: 1 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: user.id, first_name: 'Augusta', last_name: 'Lovelace', second_last_name: 'Byron', name: 'Augusta Lovelace Byron',
      custom_fields: [{ key: 'nickname', value: 'Enchantress' }, { key: 'shoe_size', value: 37 }, { key: 'tier', value: 'gold' }],
    });
    expect((await stored()).customFields).toEqual({ nickname: 'Enchantress', shoe_size: 37, tier: 'gold', risk_score: 3 });
    expect(await updates()).toBe(1);
    const read = await h.request({ method: 'GET', url: '/api/profile/me', token: null, headers: { cookie } });
    expect(read.json()).toEqual(res.json());
    const customers = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie } });
    expect(customers.json()).toEqual(res.json());
    // Nothing changed: nothing recorded.
    expect((await put({ first_name: 'Augusta' })).statusCode).toBe(200);
    expect(await updates()).toBe(1);
  });

  it('answers 422 naming each invalid attribute, and saves nothing', async () => {
    const before = await stored();
    const res = await put({ first_name: 'Changed', email: 'not an email', username: 'TAKEN', custom_fields: [{ key: 'shoe_size', value: 'big' }] });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([
      { field: 'email', messages: ['is invalid'] },
      { field: 'username', messages: ['has already been taken'] },
      { field: 'custom_fields.shoe_size', messages: ['must be a number'] },
    ]);
    const unknown = await put({ active: false, password: 'a new long password' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details.map((d: { field: string }) => d.field)).toEqual(['active', 'password']);
    for (const payload of [{ first_name: 'A\u0000B' }, { first_name: { a: 1 } }, { custom_fields: 'x' }, { first_name: 'x'.repeat(10_000_000) }]) {
      const bad = await put(payload);
      expect(bad.statusCode, JSON.stringify(payload).slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(bad.statusCode).toBeLessThan(500);
    }
    expect(await stored()).toEqual(before);
  });

  it('accepts back what GET /me answered, ignoring its read-only attributes', async () => {
    const current = (await h.request({ method: 'GET', url: '/api/profile/me', token: null, headers: { cookie } })).json();
    const res = await put({ ...current, id: 999, external_id: 'hacked', name: 'Someone Else', last_name: 'King' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, external_id: null, last_name: 'King' });
  });

  it('takes a bearer token (which names its realm) or the cookie with realm_uid', async () => {
    const token = await accessToken(h, realm.uid, cookie);
    const byToken = await put({ username: 'ada_token' }, { authorization: `Bearer ${token}` });
    expect(byToken.statusCode, byToken.body).toBe(200);
    expect(byToken.json().username).toBe('ada_token');
    const other = await makeRealm(h);
    const named = await put({ username: 'ada_named' }, { cookie: `${cookie}; atrium_realm_${other.uid}=x` }, `?realm_uid=${realm.uid}`);
    expect(named.json().username).toBe('ada_named');
    const ambiguous = await put({ username: 'x' }, { cookie: `${cookie}; atrium_realm_${other.uid}=x` });
    expect(ambiguous.statusCode).toBe(401);
    expect(ambiguous.json()).toEqual(USER_SESSION);
  });

  it('records the impersonating admin on the change', async () => {
    const impersonated = await impersonatedSession(h, realm.uid, user.id);
    expect((await put({ first_name: 'Impersonated' }, { cookie: impersonated })).statusCode).toBe(200);
    const [event] = await h.ctx.db.select().from(businessEvents)
      .where(and(eq(businessEvents.userId, user.id), eq(businessEvents.type, 'user_updated_log'))).orderBy(businessEvents.id).limit(1).offset(await updates() - 1);
    expect(event.impersonatorId).toBe(h.ownerId);
  });

  it('answers the customers API\'s credential failures', async () => {
    const none = await put({ first_name: 'x' }, {});
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual(USER_SESSION);
    const unknown = await put({ first_name: 'x' }, { cookie }, '?realm_uid=no-such-realm');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({});
    const other = await makeRealmUser(h, realm.uid);
    const stale = await signInAs(h, realm.uid, other.email);
    h.clock.advanceMinutes(61);
    const expired = await put({ first_name: 'x' }, { cookie: stale });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual(GRANT_EXPIRED);
    expect((await h.ctx.db.select().from(realmUsers).where(eq(realmUsers.id, other.id)))[0].firstName).toBe('Ada');
  });
});
