import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';
import { recordCustom, signedInUser } from './helpers.js';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.close(); });

const log = (realmUid: string, query = '', token?: string) =>
  h.request({ method: 'GET', url: `/api/admin/customers/${realmUid}/events${query}`, ...(token ? { token } : {}) });

const post = (realmUid: string, userId: number | string, payload: unknown, token?: string) =>
  h.request({ method: 'POST', url: `/api/admin/customers/${realmUid}/users/${userId}/events`, payload: payload as object, ...(token ? { token } : {}) });

describe('custom events through the admin API', () => {
  it('records a custom event with its properties, which the user sees untitled', async () => {
    const realm = await makeRealm(h);
    const { user, cookie } = await signedInUser(h, realm.uid);
    h.clock.advanceMinutes(1);
    const res = await post(realm.uid, user.id, { type: 'loyalty_points_earned', properties: { points: 25, tier: { name: 'gold', since: [2024] } } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number), type: 'loyalty_points_earned', title: '', user: { id: user.id, email: user.email },
      impersonated: false, impersonator_id: null, properties: { points: 25, tier: { name: 'gold', since: [2024] } },
      created_at: h.clock.now().toISOString(),
    });
    const without = await post(realm.uid, user.id, { type: 'coupon_seen' });
    expect(without.statusCode, without.body).toBe(201);
    expect(without.json().properties).toEqual({});
    const mine = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/events`, token: null, headers: { cookie } });
    expect(mine.json().events.map((e: { title: string }) => e.title)).toEqual(['', '', 'Login']);
  });

  it('refuses built-in type names, malformed types and properties out of bounds, naming the attribute', async () => {
    const realm = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const refused = async (payload: unknown, field: string) => {
      const res = await post(realm.uid, user.id, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(422);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    };
    for (const type of ['user_login_log', 'user_updated_log', 'notification_opened_log']) await refused({ type }, 'type');
    for (const type of ['ab', 'Abc_def', '1abc', 'abc-def', 'abc def', `a${'b'.repeat(64)}`, '', 'ñandú']) await refused({ type }, 'type');
    await refused({}, 'type');
    await refused({ type: 'good_type', extra: 1 }, 'extra');
    for (const properties of [[1, 2], 'text', 3, null]) await refused({ type: 'good_type', properties }, 'properties');
    const nested = (depth: number): unknown => (depth === 1 ? { leaf: true } : { inner: nested(depth - 1) });
    expect((await post(realm.uid, user.id, { type: 'deep_enough', properties: nested(5) })).statusCode).toBe(201);
    await refused({ type: 'too_deep', properties: nested(6) }, 'properties');
    await refused({ type: 'too_deep', properties: { list: [[[[[1]]]]] } }, 'properties');
    expect((await post(realm.uid, user.id, { type: 'big_enough', properties: { text: 'x'.repeat(8 * 1024 - 20) } })).statusCode).toBe(201);
    await refused({ type: 'too_big', properties: { text: 'x'.repeat(8 * 1024) } }, 'properties');
    await refused({ type: 'too_big', properties: { text: 'é'.repeat(4100) } }, 'properties');
    // A lone surrogate, which PostgreSQL's jsonb cannot hold, in a value and in a key.
    for (const raw of ['{"type":"bad_text","properties":{"a":"\\ud800"}}', '{"type":"bad_text","properties":{"\\udc00":1}}']) {
      const res = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/users/${user.id}/events`, payload: raw, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, res.body).toBe(422);
    }
    // A body nested far deeper than allowed is refused without trouble.
    const deep = `{"type":"very_deep","properties":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const res = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/users/${user.id}/events`, payload: deep, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode, res.body).toBe(422);
    expect((await log(realm.uid)).json().meta.total_entries).toBe(2);
  });

  it('answers 404 for a user of another realm or none, 422 for an id out of range', async () => {
    const realm = await makeRealm(h);
    const other = await makeRealm(h);
    const stranger = await makeRealmUser(h, other.uid);
    expect((await post(realm.uid, stranger.id, { type: 'good_type' })).statusCode).toBe(404);
    expect((await post(realm.uid, 2147483647, { type: 'good_type' })).statusCode).toBe(404);
    expect((await post('no-such-realm', stranger.id, { type: 'good_type' })).statusCode).toBe(404);
    expect((await post(realm.uid, 2 ** 40, { type: 'good_type' })).statusCode).toBe(422);
    expect((await post(realm.uid, 'abc', { type: 'good_type' })).statusCode).toBe(422);
  });
});

describe('the realm\'s event log', () => {
  it('lists every user\'s events newest first with the user, impersonation and properties, filtered by type, user and period', async () => {
    const realm = await makeRealm(h);
    const other = await makeRealm(h);
    const ada = await signedInUser(h, realm.uid);
    const start = h.clock.now();
    h.clock.advanceMinutes(10);
    const bob = await signedInUser(h, realm.uid);
    const middle = h.clock.now();
    h.clock.advanceMinutes(10);
    await recordCustom(h, realm.uid, ada.user.id, 'order_placed', { total: 12.5 });
    const end = h.clock.now();
    await signedInUser(h, other.uid);

    const all = await log(realm.uid);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().events.map((e: { type: string; user: { email: string } }) => [e.type, e.user.email])).toEqual([
      ['order_placed', ada.user.email], ['user_login_log', bob.user.email], ['user_login_log', ada.user.email],
    ]);
    expect(all.json().events[0]).toMatchObject({ title: '', properties: { total: 12.5 }, impersonated: false, impersonator_id: null, created_at: end.toISOString() });
    expect(all.json().events[1]).toMatchObject({ title: 'Login', properties: {}, user: { id: bob.user.id } });
    expect(all.json().meta).toEqual({ total_entries: 3, per_page: 10, current_page: 1, total_pages: 1 });

    const count = async (query: string) => {
      const res = await log(realm.uid, query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
      return res.json().events.length;
    };
    expect(await count('?type=user_login_log')).toBe(2);
    expect(await count('?type=order_placed')).toBe(1);
    expect(await count('?type=never_happened')).toBe(0);
    expect(await count(`?user_id=${ada.user.id}`)).toBe(2);
    expect(await count(`?user_id=${ada.user.id}&type=user_login_log`)).toBe(1);
    expect(await count('?user_id=2147483647')).toBe(0);
    expect(await count(`?from=${encodeURIComponent(middle.toISOString())}`)).toBe(2);
    expect(await count(`?to=${encodeURIComponent(middle.toISOString())}`)).toBe(1);
    expect(await count(`?from=${encodeURIComponent(start.toISOString())}&to=${encodeURIComponent(end.toISOString())}`)).toBe(2);
    const offset = new Date(middle.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect(await count(`?from=${encodeURIComponent(offset)}`)).toBe(2);
    expect(await count('?per_page=2&page=2')).toBe(1);
  });

  it('answers 422 for malformed filters', async () => {
    const realm = await makeRealm(h);
    for (const query of [
      '?from=yesterday', '?to=2025-13-01T00:00:00Z', '?from=2025-01-01', '?from=2025-01-01T10:00:00', '?to=2025-02-30T00:00:00Z',
      '?from=2025-06-30T23:59:60Z', `?user_id=${2 ** 40}`, '?user_id=abc', '?user_id=0', '?user_id=-1', '?type=Not-A-Type', '?type=ab',
    ]) {
      const res = await log(realm.uid, query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(422);
      expect(res.json().errors.length).toBeGreaterThan(0);
    }
  });

  it('needs realm.activity.read to read and realm.activity.write to record, for that realm', async () => {
    const realm = await makeRealm(h);
    const other = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    const userRole = await memberToken(h, [{ key: 'realm_user', target: realm.uid }]);
    const elsewhere = await memberToken(h, [{ key: 'realm_admin', target: other.uid }]);
    const accountUser = await memberToken(h, [{ key: 'account_user' }]);
    expect((await log(realm.uid, '', viewer)).statusCode).toBe(200);
    expect((await post(realm.uid, user.id, { type: 'good_type' }, viewer)).statusCode).toBe(403);
    expect((await post(realm.uid, user.id, { type: 'good_type' }, userRole)).statusCode).toBe(201);
    expect((await log(realm.uid, '', elsewhere)).statusCode).toBe(403);
    expect((await post(realm.uid, user.id, { type: 'good_type' }, elsewhere)).statusCode).toBe(403);
    expect((await log(realm.uid, '', accountUser)).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/events`, token: null })).statusCode).toBe(401);
  });
});
