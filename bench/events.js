// GET /api/customers/realms/{uid}/events on PostgreSQL, at 50 connections, next to a bare Fastify route:
// a realm with 1,000,000 business events over 10,000 users, written straight into the scratch database
// (after the server migrated it) with generate_series; one user has 5,000 of them. Measured: page 1 and
// the last page of that user (default per_page 10: page 500; and per_page 100: page 50).
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { load, row, scratchPostgres, startServer, verdict } from './lib.js';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const USERS = 10_000;
const EVENTS = 1_000_000;
const HEAVY = 5_000;

const sha256hex = (text) => createHash('sha256').update(text).digest('hex');

const scratch = await scratchPostgres();
if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
const atrium = await startServer('atrium', { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: process.env.BENCH_POOL ?? '10' });
const bare = await startServer('bare');
try {
  const created = await fetch(`${atrium.url}/api/admin/realms`, {
    method: 'POST', headers: { authorization: `Bearer ${atrium.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ uid: 'bench', name: 'Bench' }),
  });
  if (created.status !== 201) throw new Error(`creating the realm: ${created.status} ${await created.text()}`);

  const db = new pg.Client({ connectionString: scratch.url });
  await db.connect();
  const started = performance.now();
  const { rows: [realm] } = await db.query("select id from realms where uid = 'bench'");
  const { rows: [{ first }] } = await db.query(`
    with made as (
      insert into realm_users (realm_id, email) select $1, 'user' || g || '@example.com' from generate_series(1, ${USERS}) g returning id
    ) select min(id) as first from made`, [realm.id]);
  const { rows: [owner] } = await db.query('select min(id) as id from admins');
  // The heavy user (the first) gets one event a minute; the others share the rest, one a second, every
  // 50th recorded while impersonating; types cycle through five built-in ones and a custom one.
  await db.query(`
    insert into business_events (realm_id, user_id, type, impersonated, impersonator_id, created_at)
    select $1,
      case when g <= ${HEAVY} then $2 else $2 + 1 + g % ${USERS - 1} end,
      (array['user_login_log','user_logout_log','user_updated_log','user_login_attempt_failed_log','notification_opened_log','points_earned'])[1 + g % 6],
      g % 50 = 0, case when g % 50 = 0 then $3::integer end,
      case when g <= ${HEAVY} then now() - make_interval(mins => g) else now() - make_interval(secs => g) end
    from generate_series(1, ${EVENTS}) g`, [realm.id, first, owner.id]);
  // The per-user counters recordEvent keeps, for the rows written here behind its back.
  await db.query(`insert into business_event_counts (user_id, total, impersonated)
    select user_id, count(*), count(*) filter (where impersonated) from business_events group by user_id`);
  await db.query('vacuum analyze business_events');
  await db.query('vacuum analyze business_event_counts');
  const secret = randomBytes(32).toString('base64url');
  await db.query("insert into realm_sessions (realm_id, user_id, session_hash, expires_at) values ($1, $2, $3, now() + interval '1 day')", [realm.id, first, sha256hex(secret)]);
  await db.end();
  console.log(`${EVENTS.toLocaleString('en')} events over ${USERS.toLocaleString('en')} users written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const headers = { cookie: `atrium_realm_bench=${secret}` };
  const url = (query) => `${atrium.url}/api/customers/realms/bench/events${query}`;
  const pages = [
    ['page 1 (per_page 10)', ''],
    ['last page, 500 (per_page 10)', '?page=500'],
    ['last page, 50 (per_page 100)', '?page=50&per_page=100'],
  ];
  for (const [, query] of pages) {
    const res = await fetch(url(query), { headers });
    const body = await res.json();
    if (res.status !== 200 || body.events.length !== (query.includes('per_page=100') ? 100 : 10) || body.meta.total_entries !== HEAVY) {
      throw new Error(`GET /events${query} answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
  }

  // Warm-up: the server's JIT, and each pooled connection's prepared statements.
  for (const [, query] of pages) await load(url(query), { headers, duration: 2 });
  const bareBefore = await load(bare.url, { duration });
  const figures = [];
  // GET /me with the same cookie: the credential alone, to tell its cost from the log's.
  figures.push(['GET /me, the same session cookie', await load(`${atrium.url}/api/customers/realms/bench/me`, { headers, duration })]);
  for (const [label, query] of pages) figures.push([`GET /events ${label}`, await load(url(query), { headers, duration })]);
  const bareAfter = await load(bare.url, { duration });
  const bareFigures = { rps: (bareBefore.rps + bareAfter.rps) / 2, p50: Math.max(bareBefore.p50, bareAfter.p50), p99: Math.max(bareBefore.p99, bareAfter.p99), non2xx: 0 };
  console.log(`\n50 connections, ${duration} s each, the user with ${HEAVY.toLocaleString('en')} events, session cookie (target p99 < 15 ms):`);
  row('bare Fastify route GET / (mean of two runs)', bareFigures);
  for (const [label, result] of figures) row(label, result, bareFigures);
  for (const [label, result] of figures) {
    verdict(`${label} at 50 connections`, { figure: `p99 ${result.p99} ms, ${Math.round(result.rps)} req/s`, comparison: `bare Fastify route p99 ${bareFigures.p99} ms, ${Math.round(bareFigures.rps)} req/s`, target: 'p99 < 15 ms', met: result.p99 < 15 });
  }
} finally {
  await atrium.stop();
  await bare.stop();
  await scratch.drop();
}
