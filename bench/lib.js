import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';

/** The V8 flags `npm start` gives the server (package.json's start script), which Atrium's benchmark server gets too. */
export const START_FLAGS = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  .scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));

/**
 * Starts bench/servers/<name>.js in its own process, so the load generator does not share its core;
 * Atrium with the flags `npm start` gives it unless `execArgv` says otherwise.
 */
export async function startServer(name, env = {}, execArgv = name === 'atrium' ? START_FLAGS : []) {
  // BENCH_CPU_PROFILE=<folder>: Atrium writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = name === 'atrium' && process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [];
  const child = fork(new URL(`./servers/${name}.js`, import.meta.url), [], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [...execArgv, ...profile],
  });
  const info = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`bench server ${name} exited with ${code}`)));
  });
  return { ...info, pid: child.pid, child, stop: () => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); }) };
}

/** Calls the admin API (`path` below /api/admin) of a started Atrium with its owner's token; any answer of 300 or above throws. */
export function adminApi(atrium) {
  return async (method, path, body) => {
    const res = await fetch(`${atrium.url}/api/admin${path}`, {
      method, headers: { authorization: `Bearer ${atrium.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const answer = await res.json();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };
}

/** Requests per second and latency percentiles of one request, on loopback. */
export async function load(url, { headers = {}, method = 'GET', body, connections = 50, duration = 5 } = {}) {
  const result = await autocannon({ url, headers, method, body, connections, duration });
  const non2xx = result.non2xx + result.errors;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx, total: result.requests.total };
}

export function row(label, figures, reference) {
  const ratio = reference ? ` (${Math.round((figures.rps / reference.rps) * 100)}% of the bare route)` : '';
  const errors = figures.non2xx ? `, ${figures.non2xx} non-2xx` : '';
  console.log(`${label.padEnd(44)} ${String(Math.round(figures.rps)).padStart(7)} req/s  p50 ${figures.p50} ms  p99 ${figures.p99} ms${ratio}${errors}`);
}

/** A fresh PostgreSQL database for a benchmark, or null when the server is not reachable. */
export async function scratchPostgres(server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres') {
  const name = `atrium_bench_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: server });
  try {
    await client.connect();
    await client.query(`create database ${name}`);
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Wall time and latencies of one side of a comparison, summed over its rounds. */
export class Tally {
  latencies = [];
  seconds = 0;
  failures = 0;

  figures() {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(1);
    return { rate: sorted.length / this.seconds, p50: at(0.5), p99: at(0.99), failures: this.failures };
  }
}

/** Runs `task(i)` for from <= i < to with `width` requests in flight, adding to `tally`. */
export async function timed(from, to, width, task, tally = new Tally()) {
  let next = from;
  const started = performance.now();
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < to) {
      const i = next++;
      const t = performance.now();
      if (!(await task(i))) tally.failures++;
      tally.latencies.push(performance.now() - t);
    }
  }));
  tally.seconds += (performance.now() - started) / 1000;
  return tally;
}

/**
 * One target of a benchmark: prints the figure, what it was compared with in the same run, the target and whether
 * it was met; under `npm run bench` (no argument) also records it for bench/REPORT.md.
 */
export function verdict(what, { figure, comparison, target, met }) {
  console.log(`→ ${what}: ${figure}; ${comparison} (target ${target}: ${met ? 'met' : 'NOT MET'})`);
  if (process.env.BENCH_REPORT) fs.appendFileSync(process.env.BENCH_REPORT, `${JSON.stringify({ what, figure, comparison, target, met })}\n`);
}
