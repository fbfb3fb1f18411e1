// Forms on PostgreSQL (issue 28's targets):
// 1. public form responses per second through the content catalog, with the honeypot and the single-use token
//    checked (each request a token of its own, signed here with the server's SECRETS_KEY), the per-address limit
//    and the minimum fill time set aside, next to a bare Fastify route inserting one row (target ≥ 40%);
// 2. the same with the per-address limit on (a limit no request reaches) and with the minimum fill time on;
// 3. the CSV export of 100,000 responses (written with SQL) in < 10 s with the server's RSS < 200 MB.
// BENCH_SECONDS sets each load's seconds (5).
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { adminApi, row, scratchPostgres, START_FLAGS, startServer, verdict } from './lib.js';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const EXPORTED = 100_000;
const SECRETS_KEY = Buffer.alloc(32, 3).toString('base64');

const scratch = await scratchPostgres();
if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
const env = { DATABASE_URL: scratch.url, DATABASE_POOL_SIZE: process.env.BENCH_POOL ?? '10', SECRETS_KEY };
const key = createHmac('sha256', Buffer.from(SECRETS_KEY, 'base64')).update('atrium form tokens').digest();
/** A form token as the server issues one (src/forms/tokens.ts), `ageMs` old. */
const token = (formId, ageMs) => {
  const body = `${formId}.0.${Date.now() - ageMs}.${randomBytes(16).toString('base64url')}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
};

/** Responses per second at 50 connections, each request with a token of its own. */
async function answers(url, formId, ageMs) {
  let n = 0;
  const result = await autocannon({
    url, connections: 50, duration, method: 'POST', headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ token: token(formId, ageMs), answers: { email: `r${n++}@example.com`, note: 'A benchmark response' } }) }) }],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

let atrium;
let bare;
const db = new pg.Client({ connectionString: scratch.url });
try {
  // BENCH_CPU_PROF=<folder>: the server writes a V8 CPU profile there when it stops (node --cpu-prof).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  atrium = await startServer('atrium', env, [...START_FLAGS, ...profile]);
  bare = await startServer('bare', { BARE_DATABASE_URL: scratch.url });
  const admin = adminApi(atrium);
  const fields = [{ name: 'email', type: 'email', required: true, labels: { en: 'Email' } }, { name: 'note', type: 'long_text', labels: { en: 'Note' } }];
  const make = (uid, spam) => admin('POST', '/forms', { uid, name: uid, fields, spam });
  await make('plain', { min_fill_seconds: 0, rate_limit_per_hour: 0 });
  await make('limited', { min_fill_seconds: 0, rate_limit_per_hour: 100_000 });
  await make('timed', { min_fill_seconds: 3, rate_limit_per_hour: 0 });
  await db.connect();
  const ids = Object.fromEntries((await db.query('select uid, id from forms')).rows.map((r) => [r.uid, r.id]));
  const url = (uid) => `${atrium.url}/api/content/forms/${uid}/responses`;

  await answers(url('plain'), ids.plain, 0);
  const bareRow = await autocannon({ url: `${bare.url}/row`, connections: 50, duration, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'r@example.com', note: 'A benchmark response' }) });
  const bareFigures = { rps: bareRow.requests.average, p50: bareRow.latency.p50, p99: bareRow.latency.p99, non2xx: bareRow.non2xx };
  const plain = await answers(url('plain'), ids.plain, 0);
  const limited = await answers(url('limited'), ids.limited, 0);
  const timed = await answers(url('timed'), ids.timed, 10_000);
  console.log(`\n50 connections, ${duration} s each:`);
  row('bare Fastify route inserting one row', bareFigures);
  row('form responses (honeypot, token)', plain, bareFigures);
  row('… with the per-address limit', limited, bareFigures);
  row('… with the minimum fill time', timed, bareFigures);
  const { rows: [spam] } = await db.query("select count(*)::int as n from form_responses where status = 'spam'");
  verdict('public form responses at 50 connections (honeypot and token checked)', {
    figure: `${Math.round(plain.rps)} req/s, p99 ${plain.p99} ms`,
    comparison: `${Math.round((plain.rps / bareFigures.rps) * 100)}% of a bare route inserting one row (${Math.round(bareFigures.rps)} req/s); ${spam.n} caught as spam`,
    target: '≥ 40% of the bare route', met: plain.rps / bareFigures.rps >= 0.4 && !plain.non2xx,
  });

  await db.query(`insert into form_responses (form_id, status, answers, files, email, locale, submitted_at)
    select $1, 'received', jsonb_build_object('email', 'x' || g || '@example.com', 'note', '=formula ' || g), '{}'::jsonb, 'x' || g || '@example.com', 'en', now()
    from generate_series(1, ${EXPORTED}) g`, [ids.timed]);
  const before = rssOf(atrium.pid);
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, rssOf(atrium.pid)); }, 20);
  const started = performance.now();
  const res = await fetch(`${atrium.url}/api/admin/forms/timed/responses.csv`, { headers: { authorization: `Bearer ${atrium.token}` } });
  let lines = 0;
  for await (const chunk of res.body) lines += Buffer.from(chunk).toString('latin1').split('\r\n').length - 1;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  verdict(`CSV export of ${EXPORTED.toLocaleString('en')} responses`, {
    figure: `${seconds.toFixed(2)} s, server RSS peak ${Math.round(peak)} MB (${Math.round(before)} MB before)`, comparison: `${lines - 1} data lines`,
    target: '< 10 s and RSS < 200 MB', met: seconds < 10 && peak < 200 && lines - 1 >= EXPORTED,
  });
} finally {
  await db.end().catch(() => {});
  if (bare) await bare.stop();
  if (atrium) await atrium.stop();
  await scratch.drop();
}
