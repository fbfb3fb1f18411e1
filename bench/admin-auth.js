// GET /api/admin/roles with a bearer token, on the embedded database and on PostgreSQL, against a bare
// Fastify route in the same run. Target: at least 50% of the bare route on PostgreSQL.
// On PostgreSQL the same request is also measured with /metrics enabled (METRICS_TOKEN, scraped every
// second as Prometheus would, only faster), in rounds alternating with a server without metrics on the
// same database, a new pair of servers each round. Target: within 10% of the figure without them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, row, scratchPostgres, startServer, verdict } from './lib.js';
import { Registry } from 'prom-client';
import { requestDurations } from '../dist/metrics/http.js';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
const connections = 50;
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

const bare = await startServer('bare');
const reference = await load(bare.url, { duration, connections });
await bare.stop();
row('bare Fastify route GET /', reference);

async function measure(label, env) {
  const atrium = await startServer('atrium', env);
  const headers = { authorization: `Bearer ${atrium.token}` };
  await load(`${atrium.url}/api/admin/roles`, { headers, duration: 1, connections }); // warm-up
  row(label, await load(`${atrium.url}/api/admin/roles`, { headers, duration, connections }), reference);
  await atrium.stop();
}

/** Sums of alternating rounds, so that the machine's load drifting weighs on both sides alike. */
function add(total, figures) {
  return {
    rps: (total?.rps ?? 0) + figures.rps / rounds,
    p50: Math.max(total?.p50 ?? 0, figures.p50),
    p99: Math.max(total?.p99 ?? 0, figures.p99),
    non2xx: (total?.non2xx ?? 0) + figures.non2xx,
  };
}

async function withAndWithoutMetrics(url) {
  // The first server makes the owner and its token; the later ones, on the same database, accept it.
  const first = await startServer('atrium', { DATABASE_URL: url, DATABASE_POOL_SIZE: '20' });
  const headers = { authorization: `Bearer ${first.token}` };
  await first.stop();
  let off;
  let on;
  let scrapes = 0;
  const pairs = [];
  let round = {};
  let plain;
  let metered;
  const measureOff = async () => {
    round.off = await load(`${plain.url}/api/admin/roles`, { headers, duration, connections });
    off = add(off, round.off);
  };
  const measureOn = async () => {
    const scraping = setInterval(() => {
      fetch(`${metered.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
        .then((res) => { if (res.status === 200) scrapes++; return res.arrayBuffer(); }).catch(() => {});
    }, 1000);
    round.on = await load(`${metered.url}/api/admin/roles`, { headers, duration, connections });
    on = add(on, round.on);
    clearInterval(scraping);
  };
  // Each round has a pair of new processes: one process can run a fifth faster than another of the same build for
  // its whole life, which a single pair would have counted as the cost of metrics. Off then on, then on then off:
  // neither side always runs right after the other.
  for (let i = 0; i < rounds; i++) {
    round = {};
    [plain, metered] = await Promise.all([
      startServer('atrium', { DATABASE_URL: url, DATABASE_POOL_SIZE: '20' }),
      startServer('atrium', { DATABASE_URL: url, DATABASE_POOL_SIZE: '20', METRICS_TOKEN }),
    ]);
    for (const server of [plain, metered]) await load(`${server.url}/api/admin/roles`, { headers, duration: 1, connections }); // warm-up
    for (const side of i % 2 ? [measureOn, measureOff] : [measureOff, measureOn]) await side();
    pairs.push(round.on.rps / round.off.rps);
    await Promise.all([plain.stop(), metered.stop()]);
  }
  row('GET /api/admin/roles, PostgreSQL', off, reference);
  // Issue 30 item 3: an admin list at ≥ 50% of the bare route.
  verdict('admin list (GET /api/admin/roles, PostgreSQL) at 50 connections', {
    figure: `${Math.round(off.rps)} req/s`, comparison: `${Math.round((off.rps / reference.rps) * 100)}% of the bare route's ${Math.round(reference.rps)} req/s`,
    target: '≥ 50% of the bare route', met: !off.non2xx && off.rps >= 0.5 * reference.rps,
  });
  row('  the same with /metrics enabled', on, reference);
  const percent = (r) => `${Math.round(r * 100)}%`;
  const median = [...pairs].sort((a, b) => a - b)[Math.floor(pairs.length / 2)];
  console.log(`  with metrics: ${percent(on.rps / off.rps)} of the figure without them over ${rounds} alternating rounds of ${duration} s`
    + ` (per round ${pairs.map(percent).join(', ')}; median ${percent(median)}), ${scrapes} scrapes; target ≥ 90%`);
  verdict('admin requests with metrics on', { figure: `${Math.round(on.rps)} req/s`, comparison: `${percent(on.rps / off.rps)} of ${Math.round(off.rps)} req/s without metrics`, target: '≥ 90%', met: on.rps / off.rps >= 0.9 });
}

/** What /metrics adds to a request, measured alone in this process: the onResponse hook's one observe. */
function observeCost() {
  const observe = requestDurations(new Registry());
  const request = { routeOptions: { url: '/api/admin/roles' }, method: 'GET' };
  const reply = { statusCode: 200, elapsedTime: 1.5 };
  const done = () => {};
  const costs = [];
  for (let r = 0; r < 5; r++) {
    const calls = 500_000;
    const started = performance.now();
    for (let i = 0; i < calls; i++) observe(request, reply, done);
    costs.push(((performance.now() - started) * 1e6) / calls);
  }
  costs.sort((a, b) => a - b);
  console.log(`  the request histogram's observe alone: ${Math.round(costs[2])} ns per request (median of 5 rounds of 500,000 calls)`);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-'));
await measure('GET /api/admin/roles, embedded database', { DATA_DIR: dataDir, DATABASE_URL: '' });
fs.rmSync(dataDir, { recursive: true, force: true });

const database = await scratchPostgres();
if (database) {
  await withAndWithoutMetrics(database.url);
  observeCost();
  await database.drop();
} else {
  console.log('PostgreSQL not reachable at DATABASE_URL or 127.0.0.1:5432: skipped (with it, the cost of /metrics is measured too)');
}
