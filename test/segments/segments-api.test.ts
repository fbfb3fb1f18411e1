import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../../src/jobs/runner.js';
import { expiredRowsJob } from '../../src/maintenance/expired-rows.js';
import { realmUsers, realms } from '../../src/tables/realms.js';
import { segmentsCondition } from '../../src/segments/matching.js';
import { segmentCountsJob } from '../../src/segments/refresh.js';
import { segments } from '../../src/tables/segments.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.close(); });

const named = (value: string) => ({ attribute: 'first_name', operator: 'eq', value });

async function create(body: Record<string, unknown>, token?: string) {
  return h.request({ method: 'POST', url: '/api/admin/segments', payload: body, ...(token ? { token } : {}) });
}

async function created(body: Record<string, unknown>) {
  const res = await create(body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('segments API', () => {
  it('creates a segment answering its summary and its users counted now', async () => {
    const realm = await makeRealm(h);
    await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/custom_fields`, payload: { key: 'country', name: 'Country', type: 'text' } });
    await makeRealmUser(h, realm.uid, { first_name: 'Ana', custom_fields: [{ key: 'country', value: 'CL' }] });
    await makeRealmUser(h, realm.uid, { first_name: 'Anabel', custom_fields: [{ key: 'country', value: 'AR' }] });
    await makeRealmUser(h, realm.uid, { first_name: 'Ana', custom_fields: [{ key: 'country', value: 'PE' }] });
    const filters = {
      all: [
        { attribute: 'first_name', operator: 'contains', value: 'Ana' },
        { any: [{ attribute: 'custom_fields.country', operator: 'eq', value: 'CL' }, { attribute: 'custom_fields.country', operator: 'eq', value: 'AR' }] },
      ],
    };
    const segment = await created({ name: ' Southern Anas ', realm_uid: realm.uid, filters });
    expect(segment).toEqual({
      id: expect.any(Number), uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Southern Anas', realm_uid: realm.uid, filters,
      filters_summary: 'first name contains "Ana" and (country is "CL" or country is "AR")',
      matches_count: 2, matches_counted_at: h.clock.now().toISOString(), temporary: false, expires_at: null,
      created_at: h.clock.now().toISOString(), updated_at: h.clock.now().toISOString(),
    });
    const shown = await h.request({ method: 'GET', url: `/api/admin/segments/${segment.id}` });
    expect(shown.json()).toEqual(segment);
  });

  it('refuses bad trees with 422 naming the path of the bad node', async () => {
    const realm = await makeRealm(h);
    const cases: [unknown, string][] = [
      [{ all: [named('a'), named('b'), { attribute: 'first_name', operator: 'eq', value: 7 }] }, 'filters.all[2].value'],
      [{ all: [{ attribute: 'shoe_size', operator: 'eq', value: 'x' }] }, 'filters.all[0].attribute'],
      [{ attribute: 'custom_fields.nothing', operator: 'eq', value: 'x' }, 'filters.attribute'],
      [{ any: [{ not: { attribute: 'active', operator: 'contains', value: 'x' } }] }, 'filters.any[0].not.operator'],
      [{ attribute: 'created_at', operator: 'before', value: '2025-02-30' }, 'filters.value'],
      [{ attribute: 'created_at', operator: 'between', value: ['2025-03-01', '2025-02-01'] }, 'filters.value'],
      [{ attribute: 'email', operator: 'in', value: [] }, 'filters.value'],
      [{ attribute: 'email', operator: 'is_set', value: 'x' }, 'filters.value'],
      [{ attribute: 'events.user_login_log.count', operator: 'gte', value: '3' }, 'filters.value'],
      [{ attribute: 'events.user_login_log.count', operator: 'gte', value: 3, within_last_days: 0 }, 'filters.within_last_days'],
      [{ attribute: 'email', operator: 'eq', value: 'a', within_last_days: 3 }, 'filters.within_last_days'],
      [{ attribute: 'events.A-B.count', operator: 'gte', value: 1 }, 'filters.attribute'],
      [{ all: [named('a')], any: [] }, 'filters.any'],
      [{ all: 'x' }, 'filters.all'],
      [{ all: [null] }, 'filters.all[0]'],
      [{ attribute: 'email', operator: 'eq', value: 'a', colour: 'red' }, 'filters.colour'],
      [{ attribute: '__proto__', operator: 'eq', value: 'a' }, 'filters.attribute'],
      [{ attribute: 'random_bucket', operator: 'between', value: [1, Infinity] }, 'filters.value'],
    ];
    for (const [filters, field] of cases) {
      const res = await create({ name: 'bad', realm_uid: realm.uid, filters });
      expect(res.statusCode, JSON.stringify(filters)).toBe(422);
      expect(res.json().details.map((d: { field: string }) => d.field), JSON.stringify(filters)).toContain(field);
    }
    const list = await h.request({ method: 'GET', url: `/api/admin/segments?realm_uid=${realm.uid}` });
    expect(list.json().meta.total_entries).toBe(0);
  });

  it('refuses trees past the documented size, 10,000 deep or wide, without walking them', async () => {
    const realm = await makeRealm(h);
    const deep = `${'{"not":'.repeat(10_000)}{"attribute":"email","operator":"is_set"}${'}'.repeat(10_000)}`;
    const wide = `{"any":[${Array(10_000).fill('{"attribute":"email","operator":"is_set"}').join(',')}]}`;
    for (const filters of [deep, wide]) {
      for (const [url, name] of [['/api/admin/segments', '"name":"big",'], ['/api/admin/segments/count_matches', '']]) {
        const res = await h.request({
          method: 'POST', url, headers: { 'content-type': 'application/json' },
          payload: `{${name}"realm_uid":${JSON.stringify(realm.uid)},"filters":${filters}}`,
        });
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().errors[0]).toMatch(/levels deep|more than 200/);
      }
    }
    const tenDeep = (depth: number): unknown => (depth === 1 ? named('x') : { not: tenDeep(depth - 1) });
    expect((await create({ name: 'ok', realm_uid: realm.uid, filters: tenDeep(10) })).statusCode).toBe(201);
    expect((await create({ name: 'no', realm_uid: realm.uid, filters: tenDeep(11) })).statusCode).toBe(422);
    const wideOk = { any: Array.from({ length: 199 }, (_, i) => named(`n${i}`)) };
    expect((await create({ name: 'ok', realm_uid: realm.uid, filters: wideOk })).statusCode).toBe(201);
    expect((await create({ name: 'no', realm_uid: realm.uid, filters: { any: [...wideOk.any, named('x')] } })).statusCode).toBe(422);
  });

  it('counts matches without keeping anything, and applies filters as a temporary segment gone after an hour', async () => {
    const realm = await makeRealm(h);
    await makeRealmUser(h, realm.uid, { first_name: 'Bea' });
    await makeRealmUser(h, realm.uid, { first_name: 'Bea' });
    const counted = await h.request({ method: 'POST', url: '/api/admin/segments/count_matches', payload: { realm_uid: realm.uid, filters: named('Bea') } });
    expect(counted.statusCode, counted.body).toBe(200);
    expect(counted.json()).toEqual({ matches_count: 2 });

    const applied = await h.request({ method: 'POST', url: '/api/admin/segments/apply_filters', payload: { realm_uid: realm.uid, filters: named('Bea') } });
    expect(applied.statusCode, applied.body).toBe(201);
    const temporary = applied.json();
    expect(temporary).toMatchObject({ name: 'Temporary segment', temporary: true, matches_count: 2, expires_at: new Date(h.clock.now().getTime() + 3_600_000).toISOString() });
    const list = await h.request({ method: 'GET', url: `/api/admin/segments?realm_uid=${realm.uid}` });
    expect(list.json()).toEqual({ segments: [], meta: { total_entries: 0, per_page: 10, current_page: 1, total_pages: 0 } });
    expect((await h.request({ method: 'GET', url: `/api/admin/segments/${temporary.id}` })).statusCode).toBe(200);

    h.clock.advanceMinutes(60);
    expect((await h.request({ method: 'GET', url: `/api/admin/segments/${temporary.id}` })).statusCode).toBe(404);
    expect((await h.request({ method: 'PUT', url: `/api/admin/segments/${temporary.id}`, payload: { name: 'kept' } })).statusCode).toBe(404);
    h.clock.advanceMinutes(61);
    await runDueJobs(h.ctx, [expiredRowsJob]);
    expect(await h.ctx.db.select().from(segments).where(eq(segments.id, temporary.id))).toEqual([]);
  });

  it('lists lasting segments with query, sort_by, order and pagination', async () => {
    const realm = await makeRealm(h);
    await makeRealmUser(h, realm.uid, { first_name: 'Cleo' });
    const made = [];
    for (const [name, filters] of [['beta', named('Cleo')], ['Alpha', { all: [] }], ['gamma', { any: [] }]] as const) {
      made.push(await created({ name, realm_uid: realm.uid, filters }));
      h.clock.advanceMinutes(1);
    }
    const names = async (query: string) => {
      const res = await h.request({ method: 'GET', url: `/api/admin/segments?realm_uid=${realm.uid}&${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().segments.map((s: { name: string }) => s.name);
    };
    expect(await names('')).toEqual(['gamma', 'Alpha', 'beta']);
    expect(await names('sort_by=name&order=ASC')).toEqual(['Alpha', 'beta', 'gamma']);
    expect(await names('sort_by=created_at&order=asc')).toEqual(['beta', 'Alpha', 'gamma']);
    expect(await names('sort_by=matches_count')).toEqual(['Alpha', 'beta', 'gamma']);
    expect(await names('sort_by=__proto__')).toEqual(['gamma', 'Alpha', 'beta']);
    expect(await names('query=ET')).toEqual(['beta']);
    expect(await names('query=%25')).toEqual([]);
    const page = await h.request({ method: 'GET', url: `/api/admin/segments?realm_uid=${realm.uid}&per_page=2&page=2` });
    expect(page.json().meta).toEqual({ total_entries: 3, per_page: 2, current_page: 2, total_pages: 2 });
    expect(page.json().segments.map((s: { name: string }) => s.name)).toEqual(['beta']);
    const past = await h.request({ method: 'GET', url: `/api/admin/segments?realm_uid=${realm.uid}&per_page=2&page=9` });
    expect(past.json().meta.total_entries).toBe(3);
    expect(made.map((s) => s.filters_summary)).toEqual(['first name is "Cleo"', 'every user', 'no user']);
    expect(made.map((s) => s.matches_count)).toEqual([1, 1, 0]);
  });

  it('updates partially, recounting new filters, keeps the realm, and deletes', async () => {
    const realm = await makeRealm(h);
    await makeRealmUser(h, realm.uid, { first_name: 'Dina' });
    const segment = await created({ name: 'Dinas', realm_uid: realm.uid, filters: named('Nobody') });
    h.clock.advanceMinutes(1);
    const renamed = await h.request({ method: 'PUT', url: `/api/admin/segments/${segment.id}`, payload: { name: 'Renamed' } });
    expect(renamed.json()).toMatchObject({ name: 'Renamed', filters: named('Nobody'), matches_count: 0, updated_at: h.clock.now().toISOString() });
    const refiltered = await h.request({ method: 'PUT', url: `/api/admin/segments/${segment.id}`, payload: { filters: named('Dina') } });
    expect(refiltered.json()).toMatchObject({ name: 'Renamed', matches_count: 1, filters_summary: 'first name is "Dina"' });
    const other = await makeRealm(h);
    const moved = await h.request({ method: 'PUT', url: `/api/admin/segments/${segment.id}`, payload: { realm_uid: other.uid } });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().details[0].field).toBe('realm_uid');
    const blank = await h.request({ method: 'PUT', url: `/api/admin/segments/${segment.id}`, payload: { name: '  ' } });
    expect(blank.statusCode).toBe(422);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/segments/${segment.id}` })).statusCode).toBe(204);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/segments/${segment.id}` })).statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: `/api/admin/segments/${2 ** 40}` })).statusCode).toBe(422);
  });

  it('gives campaigns the union of saved segments of a realm, and nobody for another realm\'s segment', async () => {
    const realm = await makeRealm(h);
    const other = await makeRealm(h);
    const [fay, gus] = [await makeRealmUser(h, realm.uid, { first_name: 'Fay' }), await makeRealmUser(h, realm.uid, { first_name: 'Gus' })];
    await makeRealmUser(h, realm.uid, { first_name: 'Hal' });
    const fays = await created({ name: 'Fays', realm_uid: realm.uid, filters: named('Fay') });
    const guses = await created({ name: 'Guses', realm_uid: realm.uid, filters: named('Gus') });
    const foreign = await created({ name: 'Everyone elsewhere', realm_uid: other.uid, filters: { all: [] } });
    const [{ id: realmId }] = await h.ctx.db.select({ id: realms.id }).from(realms).where(eq(realms.uid, realm.uid));
    const ids = async (segmentIds: number[]) => (await h.ctx.db.select({ id: realmUsers.id }).from(realmUsers)
      .where(await segmentsCondition(h.ctx, realmId, segmentIds)).orderBy(realmUsers.id)).map((u) => u.id);
    expect(await ids([fays.id, guses.id])).toEqual([fay.id, gus.id]);
    expect(await ids([fays.id, fays.id])).toEqual([fay.id]);
    expect(await ids([foreign.id])).toEqual([]);
    expect(await ids([])).toEqual([]);
  });

  it('refuses missing attributes and an unknown realm', async () => {
    const missing = await create({});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().details.map((d: { field: string }) => d.field).sort()).toEqual(['filters', 'name', 'realm_uid']);
    const unknown = await create({ name: 'x', realm_uid: 'no-such-realm', filters: { all: [] } });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details[0].field).toBe('realm_uid');
  });

  it('keeps each member to the realms its roles reach', async () => {
    const mine = await makeRealm(h);
    const theirs = await makeRealm(h);
    const theirSegment = await created({ name: 'theirs', realm_uid: theirs.uid, filters: { all: [] } });
    const mySegment = await created({ name: 'mine', realm_uid: mine.uid, filters: { all: [] } });
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: mine.uid }]);
    const admin = await memberToken(h, [{ key: 'realm_admin', target: mine.uid }]);

    const listed = await h.request({ method: 'GET', url: '/api/admin/segments?per_page=100', token: viewer });
    expect(listed.json().segments.map((s: { id: number }) => s.id)).toEqual([mySegment.id]);
    expect((await h.request({ method: 'GET', url: `/api/admin/segments/${theirSegment.id}`, token: viewer })).statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: `/api/admin/segments/${mySegment.id}`, token: viewer })).statusCode).toBe(200);
    expect((await create({ name: 'x', realm_uid: mine.uid, filters: { all: [] } }, viewer)).statusCode).toBe(403);
    expect((await h.request({ method: 'PUT', url: `/api/admin/segments/${mySegment.id}`, payload: { name: 'y' }, token: viewer })).statusCode).toBe(403);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/segments/${mySegment.id}`, token: viewer })).statusCode).toBe(403);
    const count = (token: string, realm: string) => h.request({ method: 'POST', url: '/api/admin/segments/count_matches', token, payload: { realm_uid: realm, filters: { all: [] } } });
    expect((await count(viewer, mine.uid)).statusCode).toBe(200);
    expect((await count(viewer, theirs.uid)).statusCode).toBe(403);

    expect((await create({ name: 'x', realm_uid: mine.uid, filters: { all: [] } }, admin)).statusCode).toBe(201);
    expect((await create({ name: 'x', realm_uid: theirs.uid, filters: { all: [] } }, admin)).statusCode).toBe(403);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/segments/${theirSegment.id}`, token: admin })).statusCode).toBe(404);
    expect((await h.request({ method: 'GET', url: '/api/admin/segments', token: null })).statusCode).toBe(401);
  });

  it('keeps matches_count fresh by the background count, and answers many simultaneous writes', async () => {
    const realm = await makeRealm(h);
    const segment = await created({ name: 'Eves', realm_uid: realm.uid, filters: named('Eve') });
    expect(segment.matches_count).toBe(0);
    const users = await Promise.all(Array.from({ length: 5 }, () => makeRealmUser(h, realm.uid, { first_name: 'Eve' })));
    expect(users).toHaveLength(5);
    h.clock.advanceMinutes(1);
    await runDueJobs(h.ctx, [segmentCountsJob]);
    const early = await h.request({ method: 'GET', url: `/api/admin/segments/${segment.id}` });
    expect(early.json().matches_count).toBe(0);
    h.clock.advanceMinutes(2);
    expect(await runDueJobs(h.ctx, [segmentCountsJob])).toEqual(['segment-counts']);
    const later = await h.request({ method: 'GET', url: `/api/admin/segments/${segment.id}` });
    expect(later.json()).toMatchObject({ matches_count: 5, matches_counted_at: h.clock.now().toISOString() });

    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2
      ? h.request({ method: 'POST', url: '/api/admin/segments/count_matches', payload: { realm_uid: realm.uid, filters: named('Eve') } })
      : h.request({ method: 'PUT', url: `/api/admin/segments/${segment.id}`, payload: { name: `Eves ${i}` } }))));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    expect(answers.filter((_, i) => i % 2).every((a) => a.json().matches_count === 5)).toBe(true);
  });
});
