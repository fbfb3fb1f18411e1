// GET /healthz against a bare Fastify route, the cold start of `npm start` on an empty data folder, and the memory a
// started server holds at rest (RSS when /healthz first answers, before any other request) on each database.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, row, scratchPostgres, startServer, verdict } from './lib.js';

const duration = Number(process.env.BENCH_SECONDS ?? 5);
// The cold start is the embedded database's first start, whatever database the other benchmarks are run on.
const { DATABASE_URL: _postgres, ...withoutDatabaseUrl } = process.env;

async function coldStart() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-cold-'));
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: new URL('..', import.meta.url), env: { ...withoutDatabaseUrl, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'], detached: true,
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /serving on (\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}`)));
  });
  const res = await fetch(`${url}/healthz`);
  const elapsed = performance.now() - started;
  if (res.status !== 200) throw new Error(`healthz answered ${res.status}`);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
  const size = folderSize(dataDir);
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { elapsed, size };
}

// The server's last files (postmaster.pid) may go while the folder is read: npm's exit can come before its child's.
function folderSize(dir) {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile()).reduce((sum, e) => {
      const stat = fs.statSync(path.join(e.parentPath, e.name), { throwIfNoEntry: false });
      return { bytes: sum.bytes + (stat?.size ?? 0), disk: sum.disk + (stat?.blocks ?? 0) * 512 };
    }, { bytes: 0, disk: 0 });
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** RSS of a server started as npm start starts it, once /healthz first answers. */
async function restingRss(env) {
  const atrium = await startServer('atrium', env);
  try {
    const res = await fetch(`${atrium.url}/healthz`);
    if (res.status !== 200) throw new Error(`healthz answered ${res.status}`);
    return rssOf(atrium.pid);
  } finally {
    await atrium.stop();
  }
}

const bare = await startServer('bare');
const bareRss = rssOf(bare.pid);
const bareFigures = await load(bare.url, { duration });
await bare.stop();
row('bare Fastify route GET /', bareFigures);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-'));
const atrium = await startServer('atrium', { DATA_DIR: dataDir, DATABASE_URL: '' });
row('GET /healthz (embedded database)', await load(`${atrium.url}/healthz`, { duration }), bareFigures);
await atrium.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

const cold = await coldStart();
console.log(`cold start of npm start on an empty data folder: ${(cold.elapsed / 1000).toFixed(2)} s (target < 1.5 s, issue 30)`);
console.log(`empty data folder of the embedded database: ${(cold.size.disk / 1e6).toFixed(1)} MB on disk, files of ${(cold.size.bytes / 1e6).toFixed(1)} MB (its WAL segment has holes; target < 60 MB)`);
verdict('cold start of npm start on an empty data folder', { figure: `${(cold.elapsed / 1000).toFixed(2)} s`, comparison: 'no peer measured: an absolute target', target: '< 1.5 s', met: cold.elapsed < 1500 });
verdict('empty data folder of the embedded database', { figure: `${(cold.size.disk / 1e6).toFixed(1)} MB on disk (files of ${(cold.size.bytes / 1e6).toFixed(1)} MB)`, comparison: 'no peer measured: an absolute target', target: '< 60 MB', met: cold.size.disk < 60e6 });

const restDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-rest-'));
const embeddedRss = await restingRss({ DATA_DIR: restDir, DATABASE_URL: '' });
fs.rmSync(restDir, { recursive: true, force: true });
console.log(`RSS at rest, embedded database: ${embeddedRss.toFixed(0)} MB (a bare Fastify process: ${bareRss.toFixed(0)} MB; target ≤ 200 MB)`);
verdict('RSS once started, embedded database', { figure: `${embeddedRss.toFixed(0)} MB`, comparison: `bare Fastify process ${bareRss.toFixed(0)} MB`, target: '≤ 200 MB', met: embeddedRss <= 200 });
const scratch = await scratchPostgres();
if (scratch) {
  const postgresRss = await restingRss({ DATABASE_URL: scratch.url }).finally(() => scratch.drop());
  console.log(`RSS at rest, PostgreSQL: ${postgresRss.toFixed(0)} MB (a bare Fastify process: ${bareRss.toFixed(0)} MB; target ≤ 110 MB)`);
  verdict('RSS once started, PostgreSQL', { figure: `${postgresRss.toFixed(0)} MB`, comparison: `bare Fastify process ${bareRss.toFixed(0)} MB`, target: '≤ 110 MB', met: postgresRss <= 110 });
}
