// The admin console (issue 15), on PostgreSQL with a realm of 10,000 users:
// 1. the build: wall time and peak RSS of `vite build` (targets < 60 s, < 1 GiB);
// 2. what it ships: the first screen's JavaScript and CSS in brotli (target <= 250 KB) and the largest route chunk
//    (target <= 200 KB), next to Directus 18's 2.2 MiB gzip before its first screen (measured from its npm package);
// 3. Chromium, fresh profile each run, median of 5 at CPU 1x and 4x (DevTools throttling): wire bytes from the cold
//    load of the sign-in page, and time from pressing "Sign in" to the users list showing its first page (target < 1.5 s at 4x), and whether the users screen's
//    API calls start together (no request waterfall); next to a server-rendered HTML table of the same users
//    (a bare Fastify route querying the same database) loaded in the same browser;
// 4. typing in an entry of 60 fields at 4x: the slowest keystroke interaction (INP; target < 100 ms).
import { spawn } from 'node:child_process';
import fs, { existsSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { adminApi, scratchPostgres, startServer, verdict } from './lib.js';

const USERS = Number(process.env.BENCH_USERS ?? 10_000);
/** The console's page size: the HTML table shows the same users. */
const ROWS = 20;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const EMAIL = 'bench@atrium.test';
const PASSWORD = 'a bench password that is long';
const DIRECTUS_18_FIRST_LOAD_KIB = 2.2 * 1024;
const ASSETS = new URL('../dist/admin/assets/', import.meta.url);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** `vite build` of the console in a process of its own: seconds and peak RSS (VmHWM, read until it exits). */
async function measureBuild() {
  const started = performance.now();
  const child = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], { cwd: new URL('../packages/console/', import.meta.url), stdio: 'ignore' });
  let peakKb = 0;
  const sample = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
    } catch { /* exited */ }
  }, 20);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearInterval(sample);
  if (code !== 0) throw new Error(`vite build exited with ${code}`);
  return { seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024 };
}

/** Brotli sizes: the files index.html loads (entry, its static imports, CSS), and the largest lazy chunk. */
function measureChunks() {
  const html = fs.readFileSync(new URL('../index.html', ASSETS), 'utf8');
  const first = [...html.matchAll(/(?:src|href)="\/admin\/assets\/([^"]+)"/g)].map((m) => m[1]);
  const size = (name) => fs.statSync(new URL(`${name}.br`, ASSETS)).size;
  const firstBytes = first.reduce((sum, name) => sum + size(name), 0);
  const lazy = fs.readdirSync(ASSETS).filter((name) => name.endsWith('.js') && !first.includes(name));
  const largest = lazy.map((name) => ({ name, bytes: size(name) })).sort((a, b) => b.bytes - a.bytes)[0];
  return { first, firstBytes, largest };
}

async function findChromium() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const { default: packaged } = await import('@sparticuz/chromium');
  return packaged.executablePath();
}

/** A fresh profile with DevTools CPU throttling and a tally of the bytes that crossed the wire. */
async function freshPage(browser, base, cpu) {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  const wire = { bytes: 0, api: [] };
  const starts = new Map();
  cdp.on('Network.requestWillBeSent', (event) => starts.set(event.requestId, { url: event.request.url, start: event.timestamp }));
  cdp.on('Network.loadingFinished', (event) => {
    wire.bytes += event.encodedDataLength;
    const request = starts.get(event.requestId);
    if (request?.url.includes('/api/admin/') && !request.url.endsWith('/session')) wire.api.push({ ...request, end: event.timestamp });
  });
  return { context, page, wire };
}

/** Sign-in to the users list: seconds, wire bytes, and whether an API call of the screen waited for another to end. */
async function consoleRun(browser, base, usersPath, cpu) {
  const { context, page, wire } = await freshPage(browser, base, cpu);
  await page.goto(`/admin/sign-in?redirect=${encodeURIComponent(`/admin${usersPath}`)}`);
  await page.locator('input[type=email]').fill(EMAIL);
  await page.locator('input[type=password]').fill(PASSWORD);
  // Bytes count from the cold load of the sign-in page (the whole app); time and API calls from pressing the button.
  wire.api.length = 0;
  const started = performance.now();
  await page.locator('form button[type=submit]').click();
  await page.locator('main table tbody tr').nth(ROWS - 1).waitFor({ timeout: 30_000 });
  const seconds = (performance.now() - started) / 1000;
  const firstEnd = Math.min(...wire.api.map((call) => call.end));
  const waterfall = wire.api.some((call) => call.start > firstEnd);
  const total = wire.bytes;
  await context.close();
  return { seconds, bytes: total, waterfall, calls: wire.api.length };
}

async function htmlTableRun(browser, base, cpu) {
  const { context, page, wire } = await freshPage(browser, base, cpu);
  const started = performance.now();
  await page.goto('/users');
  await page.locator('table tbody tr').nth(ROWS - 1).waitFor();
  const seconds = (performance.now() - started) / 1000;
  await context.close();
  return { seconds, bytes: wire.bytes };
}

/** The same users (the console's first page, newest first) as an HTML table rendered by a bare Fastify route. */
async function startHtmlTable(databaseUrl, realmId) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const app = Fastify();
  const escape = (text) => String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  app.get('/users', async (_request, reply) => {
    const { rows } = await pool.query('select id, email, first_name, last_name, created_at from realm_users where realm_id = $1 order by updated_at desc, id desc limit $2', [realmId, ROWS]);
    const body = rows.map((u) => `<tr><td>${u.id}</td><td>${escape(u.email)}</td><td>${escape(u.first_name)}</td><td>${escape(u.last_name)}</td><td>${u.created_at.toISOString()}</td></tr>`).join('');
    return reply.type('text/html').send(`<!doctype html><html lang="en"><title>Users</title><table><thead><tr><th>id</th><th>email</th><th>first name</th><th>last name</th><th>created</th></tr></thead><tbody>${body}</tbody></table></html>`);
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: async () => { await app.close(); await pool.end(); } };
}

/** The slowest keyboard interaction while typing 20 characters into a field of a 60-field entry (Event Timing API). */
async function typingInp(browser, base, entryPath) {
  const { context, page } = await freshPage(browser, base, 1);
  await page.goto('/admin/sign-in');
  await page.locator('input[type=email]').fill(EMAIL);
  await page.locator('input[type=password]').fill(PASSWORD);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/admin/sign-in'));
  await page.goto(`/admin${entryPath}`);
  const field = page.getByRole('textbox', { name: 'field_31', exact: true });
  await field.waitFor({ timeout: 30_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.evaluate(() => {
    window.__inp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.interactionId) window.__inp = Math.max(window.__inp, entry.duration);
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  });
  await field.click();
  await page.keyboard.type('typing into a long entry', { delay: 60 });
  await page.waitForTimeout(500);
  const inp = await page.evaluate(() => window.__inp);
  await context.close();
  return inp;
}

const build = await measureBuild();
const chunks = measureChunks();
console.log('Console build and bundle:');
verdict('console build (vite build)', { figure: `${build.seconds.toFixed(1)} s`, comparison: `peak RSS ${build.peakMb.toFixed(0)} MB`, target: '< 60 s', met: build.seconds < 60 });
verdict('console build peak RSS', { figure: `${build.peakMb.toFixed(0)} MB`, comparison: `in ${build.seconds.toFixed(1)} s`, target: '< 1 GiB', met: build.peakMb < 1024 });
verdict('console first screen (brotli)', { figure: kb(chunks.firstBytes), comparison: `Directus 18 loads ${DIRECTUS_18_FIRST_LOAD_KIB.toFixed(0)} KiB gzip before its first screen: ${((chunks.firstBytes / 1024 / DIRECTUS_18_FIRST_LOAD_KIB) * 100).toFixed(0)}%`, target: '≤ 250 KB', met: chunks.firstBytes <= 250 * 1024 });
verdict('console largest route chunk (brotli)', { figure: `${kb(chunks.largest.bytes)} (${chunks.largest.name})`, comparison: `the first screen ${kb(chunks.firstBytes)}`, target: '≤ 200 KB', met: chunks.largest.bytes <= 200 * 1024 });

const scratch = await scratchPostgres();
if (!scratch) throw new Error('PostgreSQL is not reachable: set DATABASE_URL');
const atrium = await startServer('atrium', { DATABASE_URL: scratch.url, ATRIUM_ADMIN_EMAIL: EMAIL, ATRIUM_ADMIN_PASSWORD: PASSWORD });
const db = new pg.Client({ connectionString: scratch.url });
let table;
let browser;
try {
  const admin = adminApi(atrium);
  await admin('POST', '/realms', { uid: 'bench', name: 'Bench' });
  await db.connect();
  const { rows: [realm] } = await db.query("select id from realms where uid = 'bench'");
  await db.query(`insert into realm_users (realm_id, email, first_name, last_name, created_at, updated_at)
    select $1, 'user' || g || '@example.com', 'User', 'Number ' || g, now() - make_interval(secs => g), now() - make_interval(secs => g)
    from generate_series(1, ${USERS}) g`, [realm.id]);
  await db.query('vacuum analyze realm_users');
  table = await startHtmlTable(scratch.url, realm.id);
  browser = await chromium.launch({
    executablePath: await findChromium(), headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const usersPath = process.env.BENCH_USERS_PATH ?? '/realms/bench/users';

  console.log(`\nSign-in to the users list of a realm of ${USERS.toLocaleString('en')} users, fresh profile, median of ${RUNS}:`);
  for (const cpu of [1, 4]) {
    const runs = [];
    const tables = [];
    for (let i = 0; i < RUNS; i++) {
      runs.push(await consoleRun(browser, atrium.url, usersPath, cpu));
      tables.push(await htmlTableRun(browser, table.url, cpu));
    }
    const seconds = median(runs.map((r) => r.seconds));
    const bytes = median(runs.map((r) => r.bytes));
    const waterfalls = runs.filter((r) => r.waterfall).length;
    const html = `server-rendered HTML table of the same ${ROWS} users ${median(tables.map((r) => r.seconds)).toFixed(2)} s, ${kb(median(tables.map((r) => r.bytes)))}`;
    if (cpu === 4) verdict('console: sign-in to the users list at CPU 4x', { figure: `${seconds.toFixed(2)} s, ${kb(bytes)} on the wire`, comparison: html, target: '< 1.5 s', met: seconds < 1.5 });
    else console.log(`  CPU 1x: console ${seconds.toFixed(2)} s, ${kb(bytes)} on the wire; ${html}`);
    verdict(`console: the users screen's API calls at CPU ${cpu}x`, { figure: `${runs[0].calls} calls, a waterfall in ${waterfalls} of ${RUNS} runs`, comparison: 'calls that start after another ended', target: 'none', met: waterfalls === 0 });
  }

  if (process.env.BENCH_ENTRY_PATH !== 'skip') {
    await admin('POST', '/content/spaces', { uid: 'bench', name: 'Bench', default_locale: 'en', locales: ['en'] });
    const fields = Array.from({ length: 60 }, (_, i) => ({ name: `field_${i + 1}`, type: 'text', required: false, localized: false }));
    await admin('POST', '/content/spaces/bench/types', { uid: 'long', name: 'Long', fields });
    const entry = await admin('POST', '/content/spaces/bench/types/long/entries', { name: 'A long entry', fields: Object.fromEntries(fields.map((f) => [f.name, 'text'])) });
    const entryPath = (process.env.BENCH_ENTRY_PATH ?? '/content/bench/types/long/entries/$uuid').replace('$uuid', String(entry.meta.uuid));
    const inp = await typingInp(browser, atrium.url, entryPath);
    verdict('console: typing in an entry of 60 fields at CPU 4x', { figure: `slowest interaction ${inp.toFixed(0)} ms`, comparison: '20 keystrokes, Event Timing API', target: 'INP < 100 ms', met: inp < 100 });
  }
} finally {
  await browser?.close();
  await table?.close();
  await db.end().catch(() => {});
  await atrium.stop();
  await scratch.drop();
}
