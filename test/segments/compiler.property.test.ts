import fc from 'fast-check';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/events/events.js';
import { submissions } from '../../src/tables/originations.js';
import { realmUsers, realms } from '../../src/tables/realms.js';
import { segmentCondition } from '../../src/segments/compile.js';
import { parseFilters } from '../../src/segments/filters.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm } from '../helpers/realms.js';
import { LOAN } from '../originations/fixtures.js';
import { matches, type FieldTypes, type MemoryUser } from './evaluate.js';

/**
 * The differential test of the compiler: random users (with random events) and random filter trees;
 * the users the one SQL query selects must be exactly those the plain in-memory reading selects.
 */
const DAY = 86_400_000;
const FIELDS = [
  { key: 'country', type: 'dropdown', options: ['CL', 'AR', 'cl'] },
  { key: 'nickname', type: 'text' },
  { key: 'score', type: 'number' },
  { key: 'born', type: 'date' },
  { key: 'vip', type: 'checkbox' },
];
const FIELD_TYPES: FieldTypes = { country: 'text', nickname: 'text', score: 'number', born: 'date', vip: 'boolean' };
const EVENT_TYPES = ['user_login_log', 'user_otp_login_log', 'points_earned'];
const STATUSES = ['not_started', 'pending', 'completed', 'canceled'];

let h: Harness;
let realm: { uid: string };
let realmId: number;
let originationId: number;
let now: Date;
let today: number;

beforeAll(async () => {
  h = await startHarness();
  realm = await makeRealm(h);
  for (const field of FIELDS) {
    const res = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/custom_fields`, payload: { name: field.key, ...field } });
    expect(res.statusCode, res.body).toBe(201);
  }
  [{ id: realmId }] = await h.ctx.db.select({ id: realms.id }).from(realms).where(eq(realms.uid, realm.uid));
  const origination = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/originations`, payload: LOAN });
  expect(origination.statusCode, origination.body).toBe(201);
  originationId = origination.json().id;
  now = h.clock.now();
  today = Date.parse(now.toISOString().slice(0, 10));
});
afterAll(async () => { await h?.close(); });

// Texts from a small ASCII alphabet (both cases, and the LIKE specials), so that comparisons often meet.
const text = fc.string({ unit: fc.constantFrom('a', 'A', 'b', '%', '_', '\\'), minLength: 1, maxLength: 3 });
const dayOffset = fc.integer({ min: -12, max: 2 });
const dateText = dayOffset.map((d) => new Date(today + d * DAY).toISOString().slice(0, 10));
/** Moments on and around midnights, where the day boundaries are. */
const moment = fc.tuple(dayOffset, fc.constantFrom(0, 1, 12 * 3_600_000, DAY - 1)).map(([d, ms]) => new Date(today + d * DAY + ms));

const userArb = fc.record({
  username: fc.option(text, { nil: null }),
  first_name: fc.oneof(fc.constant(''), text),
  last_name: fc.oneof(fc.constant(''), text),
  active: fc.boolean(),
  created_at: moment,
  custom: fc.record({
    country: fc.constantFrom('CL', 'AR', 'cl'),
    nickname: text,
    score: fc.constantFrom(-1, 0, 1.5, 2, 3, 10),
    born: dateText,
    vip: fc.boolean(),
  }, { requiredKeys: [] }),
  events: fc.array(fc.record({ type: fc.constantFrom(...EVENT_TYPES), at: moment }), { maxLength: 5 }),
  submissions: fc.array(fc.constantFrom(...STATUSES), { maxLength: 2 }),
});

const numberValue = fc.constantFrom(-1, 0, 1, 1.5, 2, 3, 10, 50);
const condition = (attribute: string, ops: [string, fc.Arbitrary<unknown>][]) => fc.constantFrom(...ops).chain(([operator, value]) =>
  value.map((v) => ({ attribute, operator, value: v })));
const presence: [string, fc.Arbitrary<unknown>][] = [['is_set', fc.constant(undefined)], ['is_not_set', fc.constant(undefined)]];
const textOps: [string, fc.Arbitrary<unknown>][] = [
  ['eq', text], ['neq', text], ['contains', text], ['starts_with', text], ['in', fc.array(text, { minLength: 1, maxLength: 3 })], ...presence,
];
const numberOps: [string, fc.Arbitrary<unknown>][] = [
  ['eq', numberValue], ['lt', numberValue], ['gt', numberValue], ['lte', numberValue], ['gte', numberValue],
  ['between', fc.tuple(numberValue, numberValue).map(([a, b]) => [Math.min(a, b), Math.max(a, b)])], ...presence,
];
const dateOps: [string, fc.Arbitrary<unknown>][] = [
  ['before', dateText], ['after', dateText], ['on', dateText],
  ['between', fc.tuple(dateText, dateText).map(([a, b]) => (a <= b ? [a, b] : [b, a]))],
  ['within_last_days', fc.integer({ min: 1, max: 10 })], ...presence,
];
const booleanOps: [string, fc.Arbitrary<unknown>][] = [['is', fc.boolean()], ...presence];
const status = fc.constantFrom(...STATUSES);
const statusOps: [string, fc.Arbitrary<unknown>][] = [
  ['eq', status], ['neq', status], ['in', fc.array(status, { minLength: 1, maxLength: 2 })],
  ['contains', fc.constantFrom('e', 'ted', 'x')], ['starts_with', fc.constantFrom('p', 'C', 'not')], ...presence,
];

const leaf = fc.oneof(
  ...['email', 'username', 'first_name', 'last_name', 'custom_fields.country', 'custom_fields.nickname'].map((a) => condition(a, textOps)),
  ...['custom_fields.score', 'random_bucket'].map((a) => condition(a, numberOps)),
  ...['created_at', 'last_login_at', 'custom_fields.born', ...EVENT_TYPES.map((t) => `events.${t}.last_at`)].map((a) => condition(a, dateOps)),
  ...['active', 'custom_fields.vip'].map((a) => condition(a, booleanOps)),
  condition('submissions.status', statusOps),
  ...EVENT_TYPES.map((t) => fc.tuple(condition(`events.${t}.count`, numberOps), fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }))
    .map(([c, within]) => (within === undefined ? c : { ...c, within_last_days: within }))),
);

const tree = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { maxLength: 4 }).map((all) => ({ all })),
    fc.array(tie('node'), { maxLength: 4 }).map((any) => ({ any })),
    tie('node').map((not) => ({ not }))),
})).node;

let serial = 0;

/** Replaces the realm's users by these, their events recorded through the server's own code at their moments. */
type UserValue = typeof userArb extends fc.Arbitrary<infer T> ? T : never;

async function store(users: UserValue[]): Promise<MemoryUser[]> {
  await h.ctx.db.delete(realmUsers).where(eq(realmUsers.realmId, realmId));
  const stored: MemoryUser[] = [];
  for (const user of users) {
    const email = `User${++serial}@Example.com`;
    // Usernames are unique in a realm: each gets a suffix of its own.
    const username = user.username === null ? null : `${user.username}${serial}`;
    const [row] = await h.ctx.db.insert(realmUsers).values({
      realmId, email, username, firstName: user.first_name, lastName: user.last_name,
      active: user.active, customFields: { ...user.custom }, createdAt: user.created_at,
    }).returning({ id: realmUsers.id });
    for (const status of user.submissions) {
      await h.ctx.db.insert(submissions).values({ realmId, userId: row.id, originationId, status });
    }
    for (const event of user.events) {
      await recordEvent({ ...h.ctx, clock: { now: () => event.at } }, { realmId, userId: row.id, type: event.type });
    }
    stored.push({ id: row.id, ...user, email, username });
  }
  return stored;
}

describe('segment filter compiler', () => {
  it('selects in SQL exactly the users the in-memory reading selects', async () => {
    const fields = FIELDS.map(({ key, type }) => ({ key, type }));
    await fc.assert(fc.asyncProperty(fc.array(userArb, { minLength: 1, maxLength: 10 }), fc.array(tree, { minLength: 8, maxLength: 8 }), async (users, trees) => {
      const stored = await store(users);
      for (const raw of trees) {
        const checked = parseFilters(raw, fields);
        const rows = await h.ctx.db.select({ id: realmUsers.id }).from(realmUsers)
          .where(segmentCondition(realmId, checked, now)).orderBy(asc(realmUsers.id));
        const expected = stored.filter((u) => matches(raw, u, FIELD_TYPES, now)).map((u) => u.id);
        expect(rows.map((r) => r.id), JSON.stringify(raw)).toEqual(expected);
      }
    }), { numRuns: Number(process.env.SEGMENT_RUNS ?? 40), seed: process.env.SEGMENT_SEED ? Number(process.env.SEGMENT_SEED) : undefined });
  }, 300_000);
});
