import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { segmentCondition } from '../../src/segments/compile.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';
import { LOAN } from '../originations/fixtures.js';
import { recordCustom } from '../events/helpers.js';
import { bucketOf } from './evaluate.js';

/**
 * Every operator of every attribute against a known data set of four users, through count_matches
 * over HTTP: for each filter, which of the users it selects. Days are counted from `base` (a UTC
 * midnight); every user is created at noon of its day, and "now" is noon of day 10.
 */
const DAY = 86_400_000;
let h: Harness;
let realm: { uid: string };
let base: number;
const day = (n: number) => new Date(base + n * DAY).toISOString().slice(0, 10);
const users: Record<string, { id: number; email: string }> = {};

async function at(n: number) {
  const target = base + n * DAY + 12 * 3_600_000;
  h.clock.advance(target - h.clock.now().getTime());
}

beforeAll(async () => {
  h = await startHarness();
  base = Date.parse(h.clock.now().toISOString().slice(0, 10)) + DAY;
  realm = await makeRealm(h);
  const fields = [
    { key: 'country', type: 'dropdown', options: ['CL', 'AR', 'PE'] }, { key: 'score', type: 'number' },
    { key: 'born', type: 'date' }, { key: 'vip', type: 'checkbox' },
  ];
  for (const field of fields) {
    const res = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/custom_fields`, payload: { name: field.key, ...field } });
    expect(res.statusCode, res.body).toBe(201);
  }
  const custom = (values: Record<string, unknown>) => Object.entries(values).map(([key, value]) => ({ key, value }));
  const origination = (await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/originations`, payload: LOAN })).json();
  const submit = async (user: string, start: boolean) => {
    const res = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/originations/${origination.id}/submissions`, payload: { user_id: users[user].id, start } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };

  await at(0);
  users.ana = await makeRealmUser(h, realm.uid, {
    email: 'ana@example.com', username: 'ana', first_name: 'Ana', last_name: 'Lopez',
    custom_fields: custom({ country: 'CL', score: 10, born: '1990-05-01', vip: true }),
  });
  await signInAtLoginPage(h, realm.uid, 'ana@example.com', REALM_USER_PASSWORD);
  await submit('ana', true);
  await at(2);
  users.bob = await makeRealmUser(h, realm.uid, {
    email: 'bob@example.com', first_name: 'Bob', last_name: '', active: false,
    custom_fields: custom({ country: 'AR', score: 2.5, born: '2000-01-31', vip: false }),
  });
  await submit('bob', false);
  await at(3);
  for (let i = 0; i < 3; i++) await recordCustom(h, realm.uid, users.ana.id, 'points_earned');
  await at(4);
  users.cleo = await makeRealmUser(h, realm.uid, { email: 'cleo@example.com', first_name: 'Cleo', last_name: 'Anders' });
  await signInAtLoginPage(h, realm.uid, 'cleo@example.com', REALM_USER_PASSWORD);
  const canceled = await submit('cleo', true);
  const cancel = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/submissions/${canceled.id}/cancel`, payload: { reason: 'duplicate' } });
  expect(cancel.statusCode, cancel.body).toBe(200);
  await at(5);
  await signInAtLoginPage(h, realm.uid, 'ana@example.com', REALM_USER_PASSWORD);
  await at(6);
  users.dina = await makeRealmUser(h, realm.uid, {
    email: 'dina_x@example.com', first_name: 'Dina', last_name: 'Lopez', custom_fields: custom({ country: 'PE', score: -1, born: day(9) }),
  });
  await at(10);
});
afterAll(async () => { await h?.close(); });

const count = async (filters: unknown) => {
  const res = await h.request({ method: 'POST', url: '/api/admin/segments/count_matches', payload: { realm_uid: realm.uid, filters } });
  expect(res.statusCode, `${JSON.stringify(filters)}: ${res.body}`).toBe(200);
  return res.json().matches_count as number;
};

/** The names of the users a filter selects. */
async function selected(filters: unknown): Promise<string[]> {
  const names: string[] = [];
  for (const [name, user] of Object.entries(users)) {
    if (await count({ all: [filters, { attribute: 'email', operator: 'eq', value: user.email }] })) names.push(name);
  }
  expect(await count(filters), JSON.stringify(filters)).toBe(names.length);
  return names;
}

const c = (attribute: string, operator: string, value?: unknown, extra: Record<string, unknown> = {}) => ({ attribute, operator, value, ...extra });

describe('segment filters on a known data set', () => {
  it.each([
    // text
    [c('first_name', 'eq', 'Ana'), ['ana']],
    [c('first_name', 'eq', 'ana'), []],
    [c('first_name', 'neq', 'Ana'), ['bob', 'cleo', 'dina']],
    [c('last_name', 'neq', 'Lopez'), ['cleo']],
    [{ not: c('last_name', 'eq', 'Lopez') }, ['bob', 'cleo']],
    [c('last_name', 'contains', 'AND'), ['cleo']],
    [c('first_name', 'starts_with', 'c'), ['cleo']],
    [c('email', 'contains', '_'), ['dina']],
    [c('email', 'contains', '%'), []],
    [c('email', 'starts_with', 'ANA@'), ['ana']],
    [c('username', 'in', ['ana', 'zed']), ['ana']],
    [c('username', 'is_set'), ['ana']],
    [c('username', 'is_not_set'), ['bob', 'cleo', 'dina']],
    [c('last_name', 'is_not_set'), ['bob']],
    [c('custom_fields.country', 'eq', 'CL'), ['ana']],
    [c('custom_fields.country', 'in', ['AR', 'PE']), ['bob', 'dina']],
    [c('custom_fields.country', 'neq', 'CL'), ['bob', 'dina']],
    [c('custom_fields.country', 'is_not_set'), ['cleo']],
    // number
    [c('custom_fields.score', 'eq', 10), ['ana']],
    [c('custom_fields.score', 'lt', 2.5), ['dina']],
    [c('custom_fields.score', 'lte', 2.5), ['bob', 'dina']],
    [c('custom_fields.score', 'gt', 2.5), ['ana']],
    [c('custom_fields.score', 'gte', -1), ['ana', 'bob', 'dina']],
    [c('custom_fields.score', 'between', [0, 10]), ['ana', 'bob']],
    [c('custom_fields.score', 'is_set'), ['ana', 'bob', 'dina']],
    // calendar dates
    [c('custom_fields.born', 'before', '2000-01-31'), ['ana']],
    [c('custom_fields.born', 'after', '2000-01-31'), ['dina']],
    [c('custom_fields.born', 'on', '2000-01-31'), ['bob']],
    [c('custom_fields.born', 'between', ['1990-05-01', '2000-01-31']), ['ana', 'bob']],
    [c('custom_fields.born', 'within_last_days', 3), ['dina']],
    [c('custom_fields.born', 'is_not_set'), ['cleo']],
    // boolean
    [c('active', 'is', true), ['ana', 'cleo', 'dina']],
    [c('active', 'is', false), ['bob']],
    [c('custom_fields.vip', 'is', false), ['bob']],
    [c('custom_fields.vip', 'is', true), ['ana']],
    [{ not: c('custom_fields.vip', 'is', true) }, ['bob', 'cleo', 'dina']],
    [c('custom_fields.vip', 'is_not_set'), ['cleo', 'dina']],
  ] as [unknown, string[]][])('user attributes and custom fields: %j', async (filters, expected) => {
    expect(await selected(filters)).toEqual(expected);
  });

  it('compares moments by UTC days and within the last days', async () => {
    expect(await selected(c('created_at', 'before', day(2)))).toEqual(['ana']);
    expect(await selected(c('created_at', 'after', day(2)))).toEqual(['cleo', 'dina']);
    expect(await selected(c('created_at', 'on', day(2)))).toEqual(['bob']);
    expect(await selected(c('created_at', 'between', [day(2), day(4)]))).toEqual(['bob', 'cleo']);
    expect(await selected(c('created_at', 'within_last_days', 4))).toEqual(['dina']);
    expect(await selected(c('created_at', 'within_last_days', 6))).toEqual(['cleo', 'dina']);
    expect(await selected(c('created_at', 'is_set'))).toEqual(['ana', 'bob', 'cleo', 'dina']);
    expect(await selected(c('last_login_at', 'after', day(4)))).toEqual(['ana']);
    expect(await selected(c('last_login_at', 'before', day(5)))).toEqual(['cleo']);
    expect(await selected(c('last_login_at', 'on', day(4)))).toEqual(['cleo']);
    expect(await selected(c('last_login_at', 'within_last_days', 7))).toEqual(['ana', 'cleo']);
    expect(await selected(c('last_login_at', 'is_not_set'))).toEqual(['bob', 'dina']);
    expect(await selected({ not: c('last_login_at', 'before', day(5)) })).toEqual(['ana', 'bob', 'dina']);
  });

  it('counts events of a type, all time or within the last days, and knows their last time', async () => {
    const logins = 'events.user_login_log.count';
    expect(await selected(c(logins, 'eq', 0))).toEqual(['bob', 'dina']);
    expect(await selected(c(logins, 'gte', 1))).toEqual(['ana', 'cleo']);
    expect(await selected(c(logins, 'lt', 2))).toEqual(['bob', 'cleo', 'dina']);
    expect(await selected(c(logins, 'lte', 0))).toEqual(['bob', 'dina']);
    expect(await selected(c(logins, 'gt', 1))).toEqual(['ana']);
    expect(await selected(c(logins, 'between', [1, 1]))).toEqual(['cleo']);
    expect(await selected(c(logins, 'gte', 1, { within_last_days: 5 }))).toEqual(['ana']);
    expect(await selected(c(logins, 'eq', 0, { within_last_days: 5 }))).toEqual(['bob', 'cleo', 'dina']);
    expect(await selected(c(logins, 'is_set'))).toEqual(['ana', 'bob', 'cleo', 'dina']);
    expect(await selected(c('events.points_earned.count', 'gte', 3))).toEqual(['ana']);
    expect(await selected(c('events.points_earned.last_at', 'on', day(3)))).toEqual(['ana']);
    expect(await selected(c('events.points_earned.last_at', 'is_set'))).toEqual(['ana']);
    expect(await selected(c('events.points_earned.last_at', 'is_not_set'))).toEqual(['bob', 'cleo', 'dina']);
    expect(await selected(c('events.never_seen.count', 'eq', 0))).toEqual(['ana', 'bob', 'cleo', 'dina']);
  });

  it('matches submissions by status: some submission of the user in it', async () => {
    expect(await selected(c('submissions.status', 'eq', 'pending'))).toEqual(['ana']);
    expect(await selected(c('submissions.status', 'neq', 'pending'))).toEqual(['bob', 'cleo']);
    expect(await selected(c('submissions.status', 'in', ['not_started', 'canceled']))).toEqual(['bob', 'cleo']);
    expect(await selected(c('submissions.status', 'contains', 'ED'))).toEqual(['bob', 'cleo']);
    expect(await selected(c('submissions.status', 'starts_with', 'p'))).toEqual(['ana']);
    expect(await selected(c('submissions.status', 'is_not_set'))).toEqual(['dina']);
    const typo = await h.request({ method: 'POST', url: '/api/admin/segments/count_matches', payload: { realm_uid: realm.uid, filters: c('submissions.status', 'eq', 'done') } });
    expect(typo.statusCode).toBe(422);
    expect(typo.json().details[0].field).toBe('filters.value');
  });

  it('puts each user in a stable random bucket from 0 to 99', async () => {
    for (const user of Object.values(users)) {
      const bucket = bucketOf(user.id);
      expect(bucket).toBeGreaterThanOrEqual(0);
      expect(bucket).toBeLessThan(100);
      expect(await count({ all: [c('random_bucket', 'eq', bucket), c('email', 'eq', user.email)] })).toBe(1);
    }
    const lower = await count(c('random_bucket', 'between', [0, 49]));
    expect(lower + await count(c('random_bucket', 'gte', 50))).toBe(4);
    // Over many ids, the buckets spread evenly: each tenth holds about a tenth.
    const tenths = Array(10).fill(0);
    for (let id = 1; id <= 100_000; id++) tenths[Math.floor(bucketOf(id) / 10)]++;
    for (const n of tenths) expect(Math.abs(n - 10_000)).toBeLessThan(300);
  });

  it('combines with all, any and not, and sums them up in English', async () => {
    const either = { any: [c('first_name', 'eq', 'Ana'), c('custom_fields.country', 'eq', 'AR')] };
    expect(await selected({ all: [] })).toEqual(['ana', 'bob', 'cleo', 'dina']);
    expect(await selected({ any: [] })).toEqual([]);
    expect(await selected(either)).toEqual(['ana', 'bob']);
    expect(await selected({ not: either })).toEqual(['cleo', 'dina']);
    expect(await selected({ all: [either, { not: c('active', 'is', false) }] })).toEqual(['ana']);
    const segment = await h.request({
      method: 'POST', url: '/api/admin/segments',
      payload: { name: 'Summary', realm_uid: realm.uid, filters: { all: [{ not: either }, c('events.user_login_log.count', 'gte', 2, { within_last_days: 30 }), c('custom_fields.born', 'between', ['1990-01-01', '1999-12-31'])] } },
    });
    expect(segment.json().filters_summary).toBe('not (first name is "Ana" or country is "AR") and number of user_login_log events in the last 30 days '
      + 'is at least 2 and born is between 1990-01-01 and 1999-12-31');
  });

  // Counted again every two minutes: a realm's count reads its own submissions, not every realm's.
  it('reads a realm\'s submissions from their realm index when a segment tests their status', async () => {
    const tree = { op: 'condition' as const, attribute: { source: 'submission_status' as const, kind: 'text' as const }, test: { operator: 'eq' as const, value: 'pending' } };
    const plan = await h.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql`explain select count(*) from realm_users where ${segmentCondition(1, tree, h.clock.now())}`))
        .map((line) => line['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/submissions_realm_idx/);
  });
});
