import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/events/events.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { impersonatedSession, makeRealm, makeRealmUser, signInAtLoginPage } from '../helpers/realms.js';
import { realmIdOf, recordCustom, signedInUser, titles, userEvents } from './helpers.js';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.close(); });

/**
 * A user with four events a minute apart: signing in, a failed sign-in, a custom event and a profile
 * change, newest last. Answers the user, the session cookie and the four moments.
 */
async function userWithFourEvents(realmUid: string) {
  const moments: string[] = [];
  const { user, cookie } = await signedInUser(h, realmUid);
  moments.push(h.clock.now().toISOString());
  h.clock.advanceMinutes(1);
  await expect(signInAtLoginPage(h, realmUid, user.email, 'not the password')).rejects.toThrow(/401|200|422/);
  moments.push(h.clock.now().toISOString());
  h.clock.advanceMinutes(1);
  await recordCustom(h, realmUid, user.id, 'points_earned', { points: 10 });
  moments.push(h.clock.now().toISOString());
  h.clock.advanceMinutes(1);
  const put = await h.request({ method: 'PUT', url: `/api/customers/realms/${realmUid}/me`, token: null, headers: { cookie }, payload: { first_name: 'Grace' } });
  expect(put.statusCode, put.body).toBe(200);
  moments.push(h.clock.now().toISOString());
  h.clock.advanceMinutes(1);
  return { user, cookie, moments };
}

describe('GET /events of the customers API', () => {
  it('answers the session user\'s events newest first, with a title, the realm and the time only', async () => {
    const realm = await makeRealm(h, { name: 'Personal Banking' });
    const { cookie, moments } = await userWithFourEvents(realm.uid);
    const res = await userEvents(h, realm.uid, cookie);
    expect(res.statusCode, res.body).toBe(200);
    const description = 'Realm: Personal Banking';
    expect(res.json()).toEqual({
      events: [
        { title: 'Profile updated', description, created_at: moments[3] },
        { title: '', description, created_at: moments[2] },
        { title: 'Failed login attempt', description, created_at: moments[1] },
        { title: 'Login', description, created_at: moments[0] },
      ],
      meta: { total_entries: 4, per_page: 10, current_page: 1, total_pages: 1 },
    });
  });

  it('sorts by created_at or type, each way; an unknown order is desc and an unknown sort_by is created_at', async () => {
    const realm = await makeRealm(h);
    const { cookie } = await userWithFourEvents(realm.uid);
    const newestFirst = ['Profile updated', '', 'Failed login attempt', 'Login'];
    const oldestFirst = [...newestFirst].reverse();
    expect(await titles(h, realm.uid, cookie, '?order=asc')).toEqual(oldestFirst);
    expect(await titles(h, realm.uid, cookie, '?order=ASC')).toEqual(oldestFirst);
    expect(await titles(h, realm.uid, cookie, '?order=desc')).toEqual(newestFirst);
    for (const order of ['sideways', '', 'ascending', '1', '__proto__']) {
      expect(await titles(h, realm.uid, cookie, `?order=${order}`)).toEqual(newestFirst);
    }
    // points_earned < user_login_attempt_failed_log < user_login_log < user_updated_log
    const byType = ['', 'Failed login attempt', 'Login', 'Profile updated'];
    expect(await titles(h, realm.uid, cookie, '?sort_by=type&order=asc')).toEqual(byType);
    expect(await titles(h, realm.uid, cookie, '?sort_by=type')).toEqual([...byType].reverse());
    expect(await titles(h, realm.uid, cookie, '?sort_by=type&order=nonsense')).toEqual([...byType].reverse());
    expect(await titles(h, realm.uid, cookie, '?sort_by=created_at&order=asc')).toEqual(oldestFirst);
    for (const sortBy of ['title', 'id', '__proto__', 'toString', '']) {
      expect(await titles(h, realm.uid, cookie, `?sort_by=${sortBy}`)).toEqual(newestFirst);
      expect(await titles(h, realm.uid, cookie, `?sort_by=${sortBy}&order=asc`)).toEqual(oldestFirst);
    }
  });

  it('pages 10 at a time by default and at most 100 at a time', async () => {
    const realm = await makeRealm(h);
    const { user, cookie } = await signedInUser(h, realm.uid);
    for (let i = 0; i < 104; i++) {
      h.clock.advanceMinutes(1);
      await recordCustom(h, realm.uid, user.id, 'step_taken', { i });
    }
    const meta = async (query: string) => {
      const res = await userEvents(h, realm.uid, cookie, query);
      expect(res.statusCode, res.body).toBe(200);
      return { count: res.json().events.length, meta: res.json().meta };
    };
    expect(await meta('')).toEqual({ count: 10, meta: { total_entries: 105, per_page: 10, current_page: 1, total_pages: 11 } });
    expect(await meta('?per_page=1000')).toEqual({ count: 100, meta: { total_entries: 105, per_page: 100, current_page: 1, total_pages: 2 } });
    expect(await meta('?per_page=101&page=2')).toEqual({ count: 5, meta: { total_entries: 105, per_page: 100, current_page: 2, total_pages: 2 } });
    expect(await meta('?per_page=100')).toMatchObject({ count: 100 });
    for (const garbage of ['0', '-5', 'ten', '']) {
      expect(await meta(`?per_page=${garbage}&page=${garbage}`)).toEqual({ count: 10, meta: { total_entries: 105, per_page: 10, current_page: 1, total_pages: 11 } });
    }
    expect(await meta('?page=12')).toEqual({ count: 0, meta: { total_entries: 105, per_page: 10, current_page: 12, total_pages: 11 } });
    // The last page holds the oldest event: the sign-in.
    expect(await titles(h, realm.uid, cookie, '?page=11')).toEqual(['', '', '', '', 'Login']);
  });

  it('gives every event exactly once across the pages of each sort, whichever end a page is read from', async () => {
    const realm = await makeRealm(h);
    const { user, cookie } = await signedInUser(h, realm.uid);
    const realmId = await realmIdOf(h, realm.uid);
    const recorded = [{ type: 'user_login_log', at: h.clock.now().toISOString(), impersonated: false }];
    for (let i = 0; i < 23; i++) {
      h.clock.advanceMinutes(1);
      const type = ['step_b', 'step_a', 'user_logout_log'][i % 3];
      const impersonated = i % 4 === 0;
      // Many events at chosen moments, a quarter of them impersonated: recorded by the operation itself, for speed.
      await recordEvent(h.ctx, { realmId, userId: user.id, type, impersonatorId: impersonated ? h.ownerId : null });
      recorded.push({ type, at: h.clock.now().toISOString(), impersonated });
    }
    const newest = (a: { at: string }, b: { at: string }) => b.at.localeCompare(a.at);
    const orders: [string, typeof recorded][] = [
      ['', [...recorded].sort(newest)],
      ['sort_by=created_at&order=asc', [...recorded].sort((a, b) => -newest(a, b))],
      ['sort_by=type&order=asc', [...recorded].sort((a, b) => a.type.localeCompare(b.type) || newest(a, b))],
      ['sort_by=type', [...recorded].sort((a, b) => b.type.localeCompare(a.type) || newest(a, b))],
    ];
    for (const [query, expected] of orders) {
      for (const [filter, wanted] of [['', expected], ['&not_impersonated', expected.filter((x) => !x.impersonated)]] as const) {
        for (const perPage of [1, 5, 7, 100]) {
          const seen: string[] = [];
          for (let page = 1; page <= Math.ceil(wanted.length / perPage); page++) {
            const res = await userEvents(h, realm.uid, cookie, `?${query}${filter}&per_page=${perPage}&page=${page}`);
            expect(res.json().meta.total_entries).toBe(wanted.length);
            seen.push(...res.json().events.map((e: { created_at: string }) => e.created_at));
          }
          expect(seen, `${query}${filter} per_page ${perPage}`).toEqual(wanted.map((x) => x.at));
        }
      }
    }
  });

  it('leaves out the events recorded while impersonating when not_impersonated is present, whatever its value', async () => {
    const realm = await makeRealm(h);
    const { user, cookie } = await signedInUser(h, realm.uid);
    h.clock.advanceMinutes(1);
    // The owner opens the user's session through an impersonation link (a login recorded as impersonated)
    // and changes the profile in it.
    const impersonated = await impersonatedSession(h, realm.uid, user.id);
    h.clock.advanceMinutes(1);
    const changed = await h.request({ method: 'PUT', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie: impersonated }, payload: { first_name: 'Changed' } });
    expect(changed.statusCode, changed.body).toBe(200);
    h.clock.advanceMinutes(1);
    expect(await titles(h, realm.uid, cookie)).toEqual(['Profile updated', 'Login', 'Login']);
    for (const query of ['?not_impersonated', '?not_impersonated=', '?not_impersonated=true', '?not_impersonated=false', '?not_impersonated=0']) {
      const res = await userEvents(h, realm.uid, cookie, query);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().events.map((e: { title: string }) => e.title), query).toEqual(['Login']);
      expect(res.json().meta.total_entries, query).toBe(1);
    }
    const admin = await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/events?user_id=${user.id}` });
    expect(admin.json().events.map((e: { impersonated: boolean; impersonator_id: number | null }) => [e.impersonated, e.impersonator_id]))
      .toEqual([[true, h.ownerId], [true, h.ownerId], [false, null]]);
  });

  it('answers an empty first page and a total of 0 when none of the user\'s events is shown, as it does past the last page', async () => {
    const realm = await makeRealm(h);
    const { user, cookie } = await signedInUser(h, realm.uid);
    // Every event of the user recorded while impersonating: not_impersonated leaves out all of them.
    await h.ctx.db.execute(sql`update business_events set impersonated = true where user_id = ${user.id}`);
    await h.ctx.db.execute(sql`update business_event_counts set impersonated = total where user_id = ${user.id}`);
    for (const query of ['?not_impersonated', '?not_impersonated&page=2', '?not_impersonated&sort_by=type&order=asc']) {
      const res = await userEvents(h, realm.uid, cookie, query);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json(), query).toEqual({ events: [], meta: { total_entries: 0, per_page: 10, current_page: query.includes('page=2') ? 2 : 1, total_pages: 0 } });
    }
    const all = await userEvents(h, realm.uid, cookie);
    expect(all.json().meta.total_entries).toBe(1);
    expect(all.json().events).toHaveLength(1);
  });

  it('writes the realm\'s name as JSON whatever it holds, and a stored moment with microseconds cut to its milliseconds', async () => {
    const name = 'Quote " backslash \\ <b>&amp; Ünï\u2028cödé 🎉';
    const realm = await makeRealm(h, { name });
    const { user, cookie } = await signedInUser(h, realm.uid);
    await h.ctx.db.execute(sql`update business_events set created_at = '2026-01-02 03:04:05.678999+00' where user_id = ${user.id}`);
    const res = await userEvents(h, realm.uid, cookie, '', { 'accept-language': 'es' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual({
      events: [{ title: 'Inicio de sesión', description: `Dominio: ${name}`, created_at: '2026-01-02T03:04:05.678Z' }],
      meta: { total_entries: 1, per_page: 10, current_page: 1, total_pages: 1 },
    });
  });

  it('translates titles and the realm label into the language Accept-Language prefers, English otherwise', async () => {
    const realm = await makeRealm(h, { name: 'Banca Personal' });
    const { cookie } = await userWithFourEvents(realm.uid);
    const spanish = ['Perfil actualizado', '', 'Intento de inicio de sesión fallido', 'Inicio de sesión'];
    const english = ['Profile updated', '', 'Failed login attempt', 'Login'];
    const cases: [string, string[]][] = [
      ['es', spanish], ['ES', spanish], ['es-MX', spanish], ['es-MX,es;q=0.9,en;q=0.8', spanish], ['fr, es;q=0.5', spanish],
      ['en;q=0.2, es;q=0.7', spanish], ['en;q=0, *', spanish], ['es;q=0.8, es-MX;q=1, en;q=0.9', spanish],
      ['en', english], ['en-US,en;q=0.9,es;q=0.8', english], ['fr', english], ['*', english], ['es;q=0, en', english],
      ['es;q=0', english], ['es;q=abc, en;q=0.1', english], ['', english], [';;,,', english], ['es;q=1.5', english],
    ];
    for (const [header, expected] of cases) {
      const res = await userEvents(h, realm.uid, cookie, '', { 'accept-language': header });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().events.map((e: { title: string }) => e.title), header).toEqual(expected);
      expect(res.json().events[0].description, header).toBe(expected === spanish ? 'Dominio: Banca Personal' : 'Realm: Banca Personal');
      expect(res.headers.vary).toMatch(/accept-language/i);
    }
    expect(await titles(h, realm.uid, cookie)).toEqual(english);
  });

  it('never shows another user\'s events, of the same realm or of another', async () => {
    const realm = await makeRealm(h);
    const other = await makeRealm(h);
    const first = await signedInUser(h, realm.uid);
    const second = await signedInUser(h, realm.uid);
    const elsewhere = await signedInUser(h, other.uid);
    await recordCustom(h, realm.uid, second.user.id, 'only_second');
    await recordCustom(h, other.uid, elsewhere.user.id, 'only_elsewhere');
    await recordCustom(h, other.uid, elsewhere.user.id, 'only_elsewhere');
    const listed = async (uid: string, cookie: string) => (await userEvents(h, uid, cookie, '?per_page=100')).json().meta.total_entries;
    expect(await listed(realm.uid, first.cookie)).toBe(1);
    expect(await listed(realm.uid, second.cookie)).toBe(2);
    expect(await listed(other.uid, elsewhere.cookie)).toBe(3);
    // A realm's session cookie means nothing to another realm.
    const crossed = await userEvents(h, other.uid, first.cookie.replace(realm.uid, other.uid));
    expect(crossed.statusCode).toBe(401);
  });

  it('answers the customers API\'s credential failures', async () => {
    const realm = await makeRealm(h);
    await makeRealmUser(h, realm.uid);
    const none = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/events`, token: null });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: { user_session: 'user not found' } });
    const unknown = await h.request({ method: 'GET', url: '/api/customers/realms/no-such-realm/events', token: null });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({});
  });
});
