// Segments on PostgreSQL: POST /api/admin/segments/count_matches of a three-condition filter (a custom
// field, a date, an event count) over a realm of 1,000,000 users, one request at a time, next to the same
// compiled query run raw through pg in the same run; and GET /api/admin/segments with 10 segments at 50
// connections, next to a bare Fastify route. The users and their per-type event counts (what
// recordEvent keeps) are written straight into the scratch database with generate_series.
import pg from 'pg';
import { PgDialect } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { segmentCondition } from '../dist/segments/compile.js';
import { parseFilters } from '../dist/segments/filters.js';
import { adminApi, load, row, scratchPostgres, startServer, verdict } from './lib.js';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
const ROUNDS = 21;
const FILTERS = {
  all: [
    { attribute: 'custom_fields.plan', operator: 'eq', value: 'pro' },
    { attribute: 'created_at', operator: 'within_last_days', value: 365 },
    { attribute: 'events.user_login_log.count', operator: 'gte', value: 3 },
  ],
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const scratch = await scratchPostgres();
if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
const atrium = await startServer('atrium', { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: process.env.BENCH_POOL ?? '10' });
const bare = await startServer('bare');
const db = new pg.Client({ connectionString: scratch.url });
try {
  const admin = adminApi(atrium);
  await admin('POST', '/realms', { uid: 'bench', name: 'Bench' });
  await admin('POST', '/customers/bench/custom_fields', { key: 'plan', name: 'Plan', type: 'dropdown', options: ['free', 'pro', 'team'] });

  await db.connect();
  const started = performance.now();
  const { rows: [realm] } = await db.query("select id from realms where uid = 'bench'");
  // A third on each plan, sign-up dates spread over two years, 0 to 5 logins each.
  await db.query(`insert into realm_users (realm_id, email, first_name, custom_fields, created_at)
    select $1, 'user' || g || '@example.com', 'User ' || g, jsonb_build_object('plan', (array['free','pro','team'])[1 + g % 3]),
      now() - make_interval(days => g % 730, secs => g % 86400)
    from generate_series(1, ${USERS}) g`, [realm.id]);
  await db.query(`insert into business_event_type_counts (user_id, realm_id, type, count, last_at)
    select id, realm_id, 'user_login_log', id % 6, now() - make_interval(hours => id % 5000) from realm_users where realm_id = $1 and id % 6 > 0`, [realm.id]);
  await db.query('vacuum analyze realm_users');
  await db.query('vacuum analyze business_event_type_counts');
  console.log(`${USERS.toLocaleString('en')} users and their login counts written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The same condition the server compiles, rendered here and run raw: the database's own cost.
  const fields = [{ key: 'plan', type: 'dropdown' }];
  const condition = segmentCondition(realm.id, parseFilters(FILTERS, fields), new Date());
  const raw = new PgDialect().sqlToQuery(sql`select count(*)::integer as n from realm_users where ${condition}`);
  if (process.env.BENCH_PLAN) {
    const { rows } = await db.query(`explain analyze ${raw.sql}`, raw.params);
    console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }

  const counted = async () => {
    const t = performance.now();
    const { matches_count: n } = await admin('POST', '/segments/count_matches', { realm_uid: 'bench', filters: FILTERS });
    return { ms: performance.now() - t, n };
  };
  const rawCount = async () => {
    const t = performance.now();
    const { rows: [{ n }] } = await db.query(raw.sql, raw.params);
    return { ms: performance.now() - t, n };
  };
  await counted();
  await rawCount();
  const served = [];
  const direct = [];
  // Alternating rounds, so both sides meet the same load on the machine.
  for (let i = 0; i < ROUNDS; i++) {
    served.push(await counted());
    direct.push(await rawCount());
  }
  if (served.some((s) => s.n !== direct[0].n)) throw new Error('count_matches and the raw query disagree');
  console.log(`\ncount_matches of ${JSON.stringify(FILTERS)} over ${USERS.toLocaleString('en')} users (${direct[0].n.toLocaleString('en')} match), ${ROUNDS} rounds, one at a time (target median < 250 ms):`);
  console.log(`${'POST /segments/count_matches'.padEnd(44)} median ${median(served.map((s) => s.ms)).toFixed(1)} ms  max ${Math.max(...served.map((s) => s.ms)).toFixed(1)} ms`);
  console.log(`${'the same query raw through pg'.padEnd(44)} median ${median(direct.map((s) => s.ms)).toFixed(1)} ms  max ${Math.max(...direct.map((s) => s.ms)).toFixed(1)} ms`);
  const servedMedian = median(served.map((s) => s.ms));
  verdict(`count_matches over ${USERS.toLocaleString('en')} users`, { figure: `median ${servedMedian.toFixed(1)} ms`, comparison: `the same query raw through pg: median ${median(direct.map((s) => s.ms)).toFixed(1)} ms`, target: 'median < 250 ms', met: servedMedian < 250 });

  const createdStarted = performance.now();
  for (let i = 0; i < 10; i++) {
    await admin('POST', '/segments', { name: `Segment ${i}`, realm_uid: 'bench', filters: { all: [FILTERS.all[i % 3], { attribute: 'random_bucket', operator: 'lt', value: 10 * (i + 1) }] } });
  }
  console.log(`\n10 segments created (each counted at creation) in ${((performance.now() - createdStarted) / 1000).toFixed(1)} s`);
  const headers = { authorization: `Bearer ${atrium.token}` };
  const list = `${atrium.url}/api/admin/segments`;
  const listed = await admin('GET', '/segments');
  if (listed.segments.length !== 10) throw new Error(`GET /segments answered ${listed.segments.length} segments`);
  await load(list, { headers, duration: 2 });
  const bareBefore = await load(bare.url, { duration });
  const segments = await load(list, { headers, duration });
  const bareAfter = await load(bare.url, { duration });
  const bareFigures = { rps: (bareBefore.rps + bareAfter.rps) / 2, p50: Math.max(bareBefore.p50, bareAfter.p50), p99: Math.max(bareBefore.p99, bareAfter.p99), non2xx: 0 };
  console.log(`\n50 connections, ${duration} s each, bearer token (target p99 < 50 ms):`);
  row('bare Fastify route GET / (mean of two runs)', bareFigures);
  row('GET /api/admin/segments (10 segments)', segments, bareFigures);
  verdict('GET /api/admin/segments at 50 connections', { figure: `p99 ${segments.p99} ms, ${Math.round(segments.rps)} req/s`, comparison: `bare Fastify route p99 ${bareFigures.p99} ms, ${Math.round(bareFigures.rps)} req/s`, target: 'p99 < 50 ms', met: segments.p99 < 50 });
} finally {
  await db.end().catch(() => {});
  await atrium.stop();
  await bare.stop();
  await scratch.drop();
}
