import { currentNaming } from '@atrium/client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../../src/jobs/runner.js';
import { expiredRowsJob } from '../../src/maintenance/expired-rows.js';
import { realmUsers, realms } from '../../src/tables/realms.js';
import { segmentsCondition } from '../../src/segments/matching.js';
import { segmentCountsJob } from '../../src/segments/refresh.js';
import { segments } from '../../src/tables/segments.js';
import { adminClient, refusal, statusOf } from '../helpers/client.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.close(); });

const named = (value: string) => ({ attribute: 'first_name', operator: 'eq', value });
const admin = (token?: string | null) => adminClient(h, token);
const segmentPath = (id: number) => ({ params: { path: { id } } });

function create(body: { name?: string; realm_uid?: string; filters?: Record<string, unknown> }, token?: string) {
  return admin(token).POST('/segments', { body });
}

async function created(body: { name?: string; realm_uid?: string; filters?: Record<string, unknown> }) {
  const { data, response } = await create(body);
  expect(response.status).toBe(201);
  return data!;
}

describe('segments API', () => {
  it('creates a segment answering its summary and its users counted now', async () => {
    const realm = await makeRealm(h);
    await admin().POST('/customers/{realm_uid}/custom_fields', { params: { path: { realm_uid: realm.uid } }, body: { key: 'country', name: 'Country', type: 'text' } });
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
    const { data: shown } = await admin().GET('/segments/{id}', segmentPath(segment.id));
    expect(shown).toEqual(segment);
  });

  it('refuses bad trees with 422 naming the path of the bad node', async () => {
    const realm = await makeRealm(h);
    const cases: [Record<string, unknown>, string][] = [
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
      const refused = await refusal(create({ name: 'bad', realm_uid: realm.uid, filters }));
      expect(refused.status, JSON.stringify(filters)).toBe(422);
      expect(refused.body.details!.map((d) => d.field), JSON.stringify(filters)).toContain(field);
    }
    const { data: list } = await admin().GET('/segments', { params: { query: { realm_uid: realm.uid } } });
    expect(currentNaming(list!).meta.total_entries).toBe(0);
  });

  it('refuses trees past the documented size, 10,000 deep or wide, without walking them', async () => {
    const realm = await makeRealm(h);
    const deep = `${'{"not":'.repeat(10_000)}{"attribute":"email","operator":"is_set"}${'}'.repeat(10_000)}`;
    const wide = `{"any":[${Array(10_000).fill('{"attribute":"email","operator":"is_set"}').join(',')}]}`;
    // Raw: bodies 10,000 levels deep or wide, written as text (JSON.stringify would overflow on the deep one).
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
    const tenDeep = (depth: number): Record<string, unknown> => (depth === 1 ? named('x') : { not: tenDeep(depth - 1) });
    expect(await statusOf(create({ name: 'ok', realm_uid: realm.uid, filters: tenDeep(10) }))).toBe(201);
    expect(await statusOf(create({ name: 'no', realm_uid: realm.uid, filters: tenDeep(11) }))).toBe(422);
    const wideOk = { any: Array.from({ length: 199 }, (_, i) => named(`n${i}`)) };
    expect(await statusOf(create({ name: 'ok', realm_uid: realm.uid, filters: wideOk }))).toBe(201);
    expect(await statusOf(create({ name: 'no', realm_uid: realm.uid, filters: { any: [...wideOk.any, named('x')] } }))).toBe(422);
  });

  it('counts matches without keeping anything, and applies filters as a temporary segment gone after an hour', async () => {
    const realm = await makeRealm(h);
    await makeRealmUser(h, realm.uid, { first_name: 'Bea' });
    await makeRealmUser(h, realm.uid, { first_name: 'Bea' });
    const counted = await admin().POST('/segments/count_matches', { body: { realm_uid: realm.uid, filters: named('Bea') } });
    expect(counted.response.status).toBe(200);
    expect(counted.data).toEqual({ matches_count: 2 });

    const applied = await admin().POST('/segments/apply_filters', { body: { realm_uid: realm.uid, filters: named('Bea') } });
    expect(applied.response.status).toBe(201);
    const temporary = applied.data!;
    expect(temporary).toMatchObject({ name: 'Temporary segment', temporary: true, matches_count: 2, expires_at: new Date(h.clock.now().getTime() + 3_600_000).toISOString() });
    const { data: list } = await admin().GET('/segments', { params: { query: { realm_uid: realm.uid } } });
    expect(list).toEqual({ segments: [], meta: { total_entries: 0, per_page: 10, current_page: 1, total_pages: 0 } });
    expect(await statusOf(admin().GET('/segments/{id}', segmentPath(temporary.id)))).toBe(200);

    h.clock.advanceMinutes(60);
    expect(await statusOf(admin().GET('/segments/{id}', segmentPath(temporary.id)))).toBe(404);
    expect(await statusOf(admin().PUT('/segments/{id}', { ...segmentPath(temporary.id), body: { name: 'kept' } }))).toBe(404);
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
    const list = (query: { sort_by?: string; order?: string; query?: string; per_page?: string; page?: string }) =>
      admin().GET('/segments', { params: { query: { realm_uid: realm.uid, ...query } } });
    const names = async (query: Parameters<typeof list>[0]) => {
      const { data, response } = await list(query);
      expect(response.status).toBe(200);
      return currentNaming(data!).segments.map((s) => s.name);
    };
    expect(await names({})).toEqual(['gamma', 'Alpha', 'beta']);
    expect(await names({ sort_by: 'name', order: 'ASC' })).toEqual(['Alpha', 'beta', 'gamma']);
    expect(await names({ sort_by: 'created_at', order: 'asc' })).toEqual(['beta', 'Alpha', 'gamma']);
    expect(await names({ sort_by: 'matches_count' })).toEqual(['Alpha', 'beta', 'gamma']);
    expect(await names({ sort_by: '__proto__' })).toEqual(['gamma', 'Alpha', 'beta']);
    expect(await names({ query: 'ET' })).toEqual(['beta']);
    expect(await names({ query: '%' })).toEqual([]);
    const { data: page } = await list({ per_page: '2', page: '2' });
    expect(currentNaming(page!).meta).toEqual({ total_entries: 3, per_page: 2, current_page: 2, total_pages: 2 });
    expect(currentNaming(page!).segments.map((s) => s.name)).toEqual(['beta']);
    const { data: past } = await list({ per_page: '2', page: '9' });
    expect(currentNaming(past!).meta.total_entries).toBe(3);

    // The older names, with X-Api-Naming: legacy (spec 9): `targets` and `goal`, for the same kept page asked for in
    // either naming in turn.
    const samePage = `/api/admin/segments?realm_uid=${realm.uid}&per_page=2`;
    expect(Object.keys((await h.request({ method: 'GET', url: samePage })).json())).toEqual(['segments', 'meta']);
    const legacy = await h.request({ method: 'GET', url: samePage, headers: { 'x-api-naming': 'legacy' } });
    expect(legacy.statusCode).toBe(200);
    expect(Object.keys(legacy.json())).toEqual(['targets', 'goal']);
    expect(Object.keys((await h.request({ method: 'GET', url: samePage })).json())).toEqual(['segments', 'meta']);
    expect(legacy.json().targets.map((s: { name: string }) => s.name)).toEqual(['gamma', 'Alpha']);
    expect(legacy.json().goal).toEqual({ total_entries: 3, per_page: 2, current_page: 1, total_pages: 2 });
    expect(made.map((s) => s.filters_summary)).toEqual(['first name is "Cleo"', 'every user', 'no user']);
    expect(made.map((s) => s.matches_count)).toEqual([1, 1, 0]);
  });

  it('updates partially, recounting new filters, keeps the realm, and deletes', async () => {
    const realm = await makeRealm(h);
    await makeRealmUser(h, realm.uid, { first_name: 'Dina' });
    const segment = await created({ name: 'Dinas', realm_uid: realm.uid, filters: named('Nobody') });
    h.clock.advanceMinutes(1);
    const update = (body: { name?: string; realm_uid?: string; filters?: Record<string, unknown> }) =>
      admin().PUT('/segments/{id}', { ...segmentPath(segment.id), body });
    const { data: renamed } = await update({ name: 'Renamed' });
    expect(renamed).toMatchObject({ name: 'Renamed', filters: named('Nobody'), matches_count: 0, updated_at: h.clock.now().toISOString() });
    const { data: refiltered } = await update({ filters: named('Dina') });
    expect(refiltered).toMatchObject({ name: 'Renamed', matches_count: 1, filters_summary: 'first name is "Dina"' });
    const other = await makeRealm(h);
    const moved = await refusal(update({ realm_uid: other.uid }));
    expect(moved.status).toBe(422);
    expect(moved.body.details![0].field).toBe('realm_uid');
    expect(await statusOf(update({ name: '  ' }))).toBe(422);
    expect(await statusOf(admin().DELETE('/segments/{id}', segmentPath(segment.id)))).toBe(204);
    expect(await statusOf(admin().DELETE('/segments/{id}', segmentPath(segment.id)))).toBe(404);
    expect(await statusOf(admin().GET('/segments/{id}', segmentPath(2 ** 40)))).toBe(422);
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
    const missing = await refusal(create({}));
    expect(missing.status).toBe(422);
    expect(missing.body.details!.map((d) => d.field).sort()).toEqual(['filters', 'name', 'realm_uid']);
    const unknown = await refusal(create({ name: 'x', realm_uid: 'no-such-realm', filters: { all: [] } }));
    expect(unknown.status).toBe(422);
    expect(unknown.body.details![0].field).toBe('realm_uid');
  });

  it('keeps each member to the realms its roles reach', async () => {
    const mine = await makeRealm(h);
    const theirs = await makeRealm(h);
    const theirSegment = await created({ name: 'theirs', realm_uid: theirs.uid, filters: { all: [] } });
    const mySegment = await created({ name: 'mine', realm_uid: mine.uid, filters: { all: [] } });
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: mine.uid }]);
    const realmAdmin = await memberToken(h, [{ key: 'realm_admin', target: mine.uid }]);

    const { data: listed } = await admin(viewer).GET('/segments', { params: { query: { per_page: '100' } } });
    expect(currentNaming(listed!).segments.map((s) => s.id)).toEqual([mySegment.id]);
    expect(await statusOf(admin(viewer).GET('/segments/{id}', segmentPath(theirSegment.id)))).toBe(404);
    expect(await statusOf(admin(viewer).GET('/segments/{id}', segmentPath(mySegment.id)))).toBe(200);
    expect(await statusOf(create({ name: 'x', realm_uid: mine.uid, filters: { all: [] } }, viewer))).toBe(403);
    expect(await statusOf(admin(viewer).PUT('/segments/{id}', { ...segmentPath(mySegment.id), body: { name: 'y' } }))).toBe(403);
    expect(await statusOf(admin(viewer).DELETE('/segments/{id}', segmentPath(mySegment.id)))).toBe(403);
    const count = (token: string, realm: string) => admin(token).POST('/segments/count_matches', { body: { realm_uid: realm, filters: { all: [] } } });
    expect(await statusOf(count(viewer, mine.uid))).toBe(200);
    expect(await statusOf(count(viewer, theirs.uid))).toBe(403);

    expect(await statusOf(create({ name: 'x', realm_uid: mine.uid, filters: { all: [] } }, realmAdmin))).toBe(201);
    expect(await statusOf(create({ name: 'x', realm_uid: theirs.uid, filters: { all: [] } }, realmAdmin))).toBe(403);
    expect(await statusOf(admin(realmAdmin).DELETE('/segments/{id}', segmentPath(theirSegment.id)))).toBe(404);
    expect(await statusOf(admin(null).GET('/segments'))).toBe(401);
  });

  it('keeps matches_count fresh by the background count, and answers many simultaneous writes', async () => {
    const realm = await makeRealm(h);
    const segment = await created({ name: 'Eves', realm_uid: realm.uid, filters: named('Eve') });
    expect(segment.matches_count).toBe(0);
    const users = await Promise.all(Array.from({ length: 5 }, () => makeRealmUser(h, realm.uid, { first_name: 'Eve' })));
    expect(users).toHaveLength(5);
    h.clock.advanceMinutes(1);
    await runDueJobs(h.ctx, [segmentCountsJob]);
    const { data: early } = await admin().GET('/segments/{id}', segmentPath(segment.id));
    expect(early!.matches_count).toBe(0);
    h.clock.advanceMinutes(2);
    expect(await runDueJobs(h.ctx, [segmentCountsJob])).toEqual(['segment-counts']);
    const { data: later } = await admin().GET('/segments/{id}', segmentPath(segment.id));
    expect(later).toMatchObject({ matches_count: 5, matches_counted_at: h.clock.now().toISOString() });

    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2
      ? admin().POST('/segments/count_matches', { body: { realm_uid: realm.uid, filters: named('Eve') } })
      : admin().PUT('/segments/{id}', { ...segmentPath(segment.id), body: { name: `Eves ${i}` } }))));
    expect(answers.map((a) => a.response.status)).toEqual(answers.map(() => 200));
    expect(answers.filter((_, i) => i % 2).every((a) => a.data!.matches_count === 5)).toBe(true);
  });
});
