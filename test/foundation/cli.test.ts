import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI_BIN, runCli, startServe } from '../helpers/cli.js';
import { freshDatabaseUrl, usingPostgres } from '../helpers/database.js';
import { TEST_SECRETS_KEY } from '../helpers/harness.js';

const folders: string[] = [];
const drops: (() => Promise<void>)[] = [];

/** Each test gets an empty store: a new data folder, and a new PostgreSQL database when DATABASE_URL is set. */
async function emptyStore(): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-cli-'));
  folders.push(dataDir);
  const database = await freshDatabaseUrl();
  drops.push(database.drop);
  return { DATA_DIR: dataDir, ...(database.url ? { DATABASE_URL: database.url, SECRETS_KEY: TEST_SECRETS_KEY } : {}) };
}

afterAll(async () => {
  for (const drop of drops) await drop();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/**
 * Sends a request's headers and half its body; once the server has the request (it answers
 * `100 Continue`), signals it; once it has stopped taking new connections, sends the rest.
 * Resolves with the answer's status and whether the connection had ended before the answer did.
 */
function inFlightDuringSigterm(base: string, signal: () => void): Promise<{ status: number; ended: boolean }> {
  const url = new URL('/api/admin/session', base);
  const body = JSON.stringify({ email: 'nobody@example.com', password: 'not the password' });
  return new Promise((resolve, reject) => {
    let ended = false;
    const request = http.request(url, {
      method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length, expect: '100-continue' },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, ended }));
    });
    request.on('error', reject);
    request.on('continue', () => {
      request.write(body.slice(0, 10));
      signal();
      untilRefused(url).then(() => request.end(body.slice(10)), reject);
    });
    request.on('close', () => { ended = true; });
    request.flushHeaders();
  });
}

/** Resolves once nothing accepts connections at the address any more (within 10 s). */
async function untilRefused(url: URL): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname);
      socket.once('connect', () => { socket.destroy(); resolve(false); });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
  }
  throw new Error(`${url.host} still takes connections 10 s after SIGTERM`);
}

async function json(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

// Each of these starts real `atrium serve` processes (two, across a restart): tens of seconds on a loaded 2-core machine.
describe('atrium command line', () => {
  let store: Record<string, string>;
  beforeEach(async () => { store = await emptyStore(); });

  it('prints its usage with --help', async () => {
    const result = await runCli(['--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/atrium <command>/);
    expect(result.stdout).toMatch(/bootstrap --json/);
  });

  it('stops with one clear line on a bad PORT, a malformed DATABASE_URL, an unreachable database, or a missing or bad SECRETS_KEY', async () => {
    // Five processes that each stop at once: started together.
    const { SECRETS_KEY: _key, ...withoutKey } = store;
    const [badPort, malformed, unreachable, keyless, shortKey] = await Promise.all([
      runCli(['serve'], { ...store, PORT: 'eighty' }),
      runCli(['migrate'], { ...store, DATABASE_URL: 'mysql:/nowhere' }),
      runCli(['migrate'], { ...store, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/atrium' }),
      runCli(['serve'], { ...withoutKey, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/atrium' }),
      runCli(['migrate'], { ...store, SECRETS_KEY: 'c2hvcnQ=' }),
    ]);
    expect(badPort.code).not.toBe(0);
    expect(badPort.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^atrium: PORT must be a whole number/)]);
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^atrium: DATABASE_URL must look like/)]);
    expect(unreachable.code).not.toBe(0);
    expect(unreachable.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^atrium: cannot reach the database at 127\.0\.0\.1:1/)]);
    expect(keyless.code).not.toBe(0);
    expect(keyless.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^atrium: SECRETS_KEY must be set with DATABASE_URL/)]);
    expect(shortKey.code).not.toBe(0);
    expect(shortKey.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^atrium: SECRETS_KEY must be 32 random bytes in base64/)]);
  });

  it('bootstraps an empty store, and the credentials it prints work after a restart on the same data', async () => {
    const first = await runCli(['bootstrap', '--json'], store);
    expect(first.code).toBe(0);
    const printed = JSON.parse(first.stdout);
    expect(printed).toEqual({
      admin: { id: expect.any(Number), email: 'owner@example.com' },
      password: expect.any(String),
      application: { id: expect.any(Number), uid: expect.any(String), secret: expect.any(String) },
      access_token: expect.any(String),
    });

    const again = JSON.parse((await runCli(['bootstrap', '--json'], store)).stdout);
    expect(again.password).toBeUndefined();
    expect(again.admin).toEqual(printed.admin);
    expect(again.access_token).not.toBe(printed.access_token);

    const server = await startServe(store);
    try {
      expect(server.stdout()).not.toContain('shown once');
      const me = await json(`${server.url}/api/admin/session`, { headers: { authorization: `Bearer ${printed.access_token}` } });
      expect(me.status).toBe(200);
      expect(me.body.admin.email).toBe('owner@example.com');
      expect(me.body.admin.roles).toEqual([{ key: 'account_owner', target: null }]);
      const signIn = await json(`${server.url}/api/admin/session`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@example.com', password: printed.password }),
      });
      expect(signIn.status).toBe(200);
      expect(signIn.headers.get('set-cookie')).toMatch(/atrium_admin=.*HttpOnly/i);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 90_000);

  it('prints the owner credentials on the first start only, keeps data across a restart and a kill -9', async () => {
    const first = await startServe(store);
    const output = first.stdout();
    expect(output).toMatch(/shown once/);
    const token = /admin API token: (\S+)/.exec(output)![1];
    const password = /owner password:\s+(\S+)/.exec(output)![1];
    for (const page of ['/api/admin/docs', '/api/content/docs', '/api/profile/docs', '/api/customers/docs']) {
      expect(output).toContain(`${first.url}${page}`);
    }
    // The console's address comes first, right under the serving line.
    expect(output.split('\n')[1]).toBe(`Admin console: ${first.url}/admin/`);
    const created = await json(`${first.url}/api/admin/team_members`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'kept@example.com', password: 'a long enough secret', name: 'Kept Member' }),
    });
    expect(created.status).toBe(201);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startServe(store);
    try {
      expect(second.stdout()).not.toMatch(/shown once/);
      const kept = await json(`${second.url}/api/admin/team_members/${created.body.id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(kept.status).toBe(200);
      expect(kept.body).toMatchObject({ email: 'kept@example.com', first_name: 'Kept', last_name: 'Member' });
      const signIn = await fetch(`${second.url}/api/admin/session`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@example.com', password }),
      });
      expect(signIn.status).toBe(200);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  }, 90_000);

  it('loads neither locale data nor the fetch implementation until a request needs them: nothing at start uses Intl or fetch\'s globals', async () => {
    // The first Intl formatter or collation maps about 6 MB of the node binary's ICU data into the process, and the first
    // use of fetch, Response and the like loads undici (3 MB): both count in the RSS at rest.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-intl-'));
    folders.push(folder);
    const used = path.join(folder, 'used.txt');
    const watch = path.join(folder, 'watch.cjs');
    fs.writeFileSync(watch, `const fs = require('node:fs');
const note = (what) => fs.appendFileSync(${JSON.stringify(used)}, what + ' ' + new Error().stack.split('\\n')[3].trim() + '\\n');
for (const name of ['DateTimeFormat', 'Collator', 'NumberFormat', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'Segmenter', 'DisplayNames']) {
  Intl[name] = new Proxy(Intl[name], { construct: (target, args) => { note('Intl.' + name); return new target(...args); } });
}
for (const [proto, name] of [[String.prototype, 'localeCompare'], [Number.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleString'],
  [Date.prototype, 'toLocaleDateString'], [Date.prototype, 'toLocaleTimeString'], [Array.prototype, 'toLocaleString']]) {
  const original = proto[name];
  proto[name] = function (...args) { note(name); return original.apply(this, args); };
}
for (const name of ['fetch', 'Response', 'Request', 'Headers', 'FormData', 'WebSocket']) {
  const lazy = Object.getOwnPropertyDescriptor(globalThis, name);
  if (lazy?.get) Object.defineProperty(globalThis, name, { ...lazy, get() { note(name); return lazy.get.call(this); } });
}
`);
    const server = await startServe({ ...store, NODE_OPTIONS: `--require ${watch}` });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(fs.existsSync(used) ? fs.readFileSync(used, 'utf8').trim().split('\n') : []).toEqual([]);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 60_000);

  it('drains on SIGTERM and releases the data folder', async () => {
    const server = await startServe(store);
    if (!usingPostgres()) {
      const busy = await runCli(['bootstrap', '--json'], store);
      expect(busy.code).not.toBe(0);
      expect(busy.stderr).toMatch(/in use by process/);
    }
    // A request still arriving when SIGTERM comes is answered before the process ends.
    const { status, ended } = await inFlightDuringSigterm(server.url, () => server.child.kill('SIGTERM'));
    expect(status).toBe(401);
    expect(ended).toBe(false);
    expect(await server.exited).toBe(0);
    const after = await runCli(['bootstrap', '--json'], store);
    expect(after.code).toBe(0);
  }, 90_000);

  it('writes its log as readable lines in a terminal, and as JSON lines elsewhere', async () => {
    // `script` gives the process a terminal (util-linux, on every Debian).
    const child = spawn('script', ['-qfec', `${process.execPath} ${CLI_BIN} serve`, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...store, PORT: '0', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    try {
      await expect.poll(() => output, { timeout: 30_000, interval: 100 }).toContain('/api/customers/docs');
      expect(output).toMatch(/^\[\d\d:\d\d:\d\d\] \S*INFO\S*: \S*Server listening at http:\/\/127\.0\.0\.1:\d+/m);
      expect(output).not.toContain('"level"');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('close', resolve));
    }
    const piped = await startServe({ ...store, LOG_LEVEL: 'info' });
    try {
      // The log is written asynchronously: the line may follow the lines printed at start.
      const listening = () => piped.stdout().split('\n').find((line) => line.includes('Server listening at') && line.endsWith('}'));
      await expect.poll(listening, { timeout: 10_000, interval: 50 }).toBeDefined();
      expect(JSON.parse(listening()!)).toMatchObject({ level: 30, msg: expect.stringMatching(/^Server listening at http:/) });
    } finally {
      piped.child.kill('SIGTERM');
      await piped.exited;
    }
  }, 90_000);

  it('applies migrations with `atrium migrate`', async () => {
    const result = await runCli(['migrate'], store);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Migrations applied/);
  });
});
