import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../test/helpers/cli.js';
import { freePort } from '../test/helpers/server.js';
import { freshDatabaseUrl } from '../test/helpers/database.js';
import { TEST_SECRETS_KEY } from '../test/helpers/harness.js';
import { startS3, type S3Server } from '../test/helpers/s3.js';
import { startSmtp, type SmtpListener } from '../test/helpers/smtp.js';

export { until } from '../test/helpers/until.js';
import { startProxy, type Proxy } from './proxy.js';

const BIN = fileURLToPath(new URL('../bin/atrium.js', import.meta.url));
export const OWNER = { email: 'owner@scale.test', password: 'a long scale owner password' };

/** One `atrium serve` process on its own port. */
export interface Instance {
  name: string;
  port: number;
  url: string;
  /** Everything it printed, both streams. */
  output(): string;
  running(): boolean;
  /** The process id of the running process (message_deliveries.worker names it). */
  pid(): number | undefined;
  start(): Promise<void>;
  /** Sends the signal and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface Cluster {
  databaseUrl: string;
  instances: Instance[];
  proxy: Proxy;
  smtp: SmtpListener;
  s3: S3Server;
  /** The owner's admin API token (from `atrium bootstrap --json`). */
  token: string;
  /** The owner's team member id. */
  ownerId: number;
  /** Another owner token from `atrium bootstrap --json` (which makes the owner again if it is gone). */
  freshOwnerToken(): Promise<string>;
  /** A request through the proxy (or to `base`), JSON in and out, with the owner's token unless told otherwise. */
  api(method: string, url: string, body?: unknown, options?: { base?: string; token?: string | null; headers?: Record<string, string> }): Promise<{ status: number; json: any; headers: Headers }>;
  close(): Promise<void>;
}


function instance(name: string, port: number, env: NodeJS.ProcessEnv): Instance {
  let child: ChildProcess | null = null;
  let out = '';
  let exited: Promise<void> = Promise.resolve();
  return {
    name, port, url: `http://127.0.0.1:${port}`,
    output: () => out,
    running: () => child !== null && child.exitCode === null && child.signalCode === null,
    pid: () => child?.pid,
    start() {
      const started = out.length;
      child = spawn(process.execPath, ['--max-old-space-size=256', BIN, 'serve'], { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
      const current = child;
      exited = new Promise((resolve) => current.once('exit', () => resolve()));
      return new Promise((resolve, reject) => {
        // With WORKERS=N each worker says it serves: started when all have.
        const workers = Number(env.WORKERS ?? 1);
        const look = (chunk: Buffer) => {
          out += chunk;
          if ((out.slice(started).match(/serving on/g) ?? []).length >= workers) resolve();
        };
        current.stdout!.on('data', look);
        current.stderr!.on('data', (chunk: Buffer) => { out += chunk; });
        current.once('exit', (code, signal) => reject(new Error(`${name} exited (${code ?? signal}) while starting:\n${out.slice(started)}`)));
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** `atrium bootstrap --json` on the cluster's database: the owner (made if missing) and a new access token of it. */
async function bootstrap(env: NodeJS.ProcessEnv): Promise<{ admin: { id: number }; access_token: string }> {
  const result = await runCli(['bootstrap', '--json'], { ...env, PORT: undefined } as Record<string, string | undefined>);
  if (result.code !== 0) throw new Error(`bootstrap failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/**
 * `count` PostgreSQL-backed Atrium processes on one fresh database, started together, behind a round-robin
 * proxy whose address is their BASE_URL; mail to a real SMTP listener, files to an S3-compatible bucket.
 * `extra` adds to their environment (WORKERS=2 makes each a node:cluster primary with two workers).
 */
export async function startCluster(count = 2, extra: Record<string, string> = {}): Promise<Cluster> {
  if (!process.env.DATABASE_URL) process.env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = await freshDatabaseUrl();
  const [smtp, s3] = await Promise.all([startSmtp(), startS3()]);
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const proxy = await startProxy(ports.map((port, i) => ({ name: `atrium-${i + 1}`, port })));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-scale-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', BASE_URL: proxy.url, TRUST_PROXY: '127.0.0.1',
    DATABASE_URL: database.url, SECRETS_KEY: TEST_SECRETS_KEY, SMTP_URL: smtp.url, STORAGE_URL: s3.storageUrl, DATA_DIR: dataDir,
    AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', ATRIUM_ADMIN_EMAIL: OWNER.email, ATRIUM_ADMIN_PASSWORD: OWNER.password,
    LOG_LEVEL: 'warn', WEBHOOKS_ALLOW_PRIVATE: '1', WEBHOOKS_POLL_MS: '200', ...extra,
  };
  const instances = ports.map((port, i) => instance(`atrium-${i + 1}`, port, env));
  const close = async () => {
    await Promise.all(instances.map((one) => one.stop()));
    await proxy.close();
    await smtp.close();
    await s3.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await Promise.all(instances.map((one) => one.start()));
    const owner = await bootstrap(env);
    const token = owner.access_token;
    const api: Cluster['api'] = async (method, url, body, options = {}) => {
      const bearer = options.token === undefined ? token : options.token;
      const res = await fetch(`${options.base ?? proxy.url}${url}`, {
        method, redirect: 'manual',
        headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let json: unknown = text;
      try { json = text ? JSON.parse(text) : null; } catch { /* not JSON: kept as text */ }
      return { status: res.status, json, headers: res.headers };
    };
    const freshOwnerToken = async () => (await bootstrap(env)).access_token;
    return { databaseUrl: database.url!, instances, proxy, smtp, s3, token, ownerId: owner.admin.id, freshOwnerToken, api, close };
  } catch (error) {
    await close();
    throw error;
  }
}

