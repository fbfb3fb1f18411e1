import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { S3Location } from './storage/s3.js';

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** Server processes `atrium serve` runs, sharing the port (WORKERS; node:cluster above 1). */
  workers: number;
  dataDir: string;
  /** Where uploaded files are kept: an S3-compatible bucket (STORAGE_URL), or null for DATA_DIR/uploads. */
  storage: S3Location | null;
  smtpUrl: string | undefined;
  mailFrom: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  logLevel: string;
  bodyLimit: number;
  /** Fastify's trustProxy: which peers' X-Forwarded-* headers are believed (host, protocol, client address). */
  trustProxy: boolean | string[];
  /** The AES-256 key sealing stored secrets that must be read back (integration secrets); see security/secrets-key.ts. */
  secretsKey: Buffer | undefined;
  /** How long a campaign message a worker took may stay unreported before it is counted in doubt. */
  sendingLeaseSeconds: number;
  /** Campaign messages a worker takes at once. */
  sendingBatchSize: number;
  /** `GET /metrics`: off (absent, 404), behind this bearer token, or open to anyone. */
  metrics: { enabled: false } | { enabled: true; token: string | null };
  /**
   * Whether the requests the server makes (webhooks, identity providers, logout URLs) may reach private,
   * loopback and link-local addresses (OUTBOUND_ALLOW_PRIVATE=1, or its older name WEBHOOKS_ALLOW_PRIVATE).
   */
  outboundAllowPrivate: boolean;
  /** How often an idle webhook sender looks for deliveries due. */
  webhooksPollMs: number;
  /** Webhook sender loops of this process; 0 leaves the sending to the other instances. */
  webhookSenders: number;
}

/** A configuration value that cannot be used; its message is the one line printed at start. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) address, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an absolute http(s) address, got "${raw}"`);
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

function databaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !['postgres:', 'postgresql:'].includes(url.protocol) || !url.hostname && !url.searchParams.get('host')) {
    throw new ConfigError('DATABASE_URL must look like postgres://user@host:5432/database');
  }
  return raw;
}

/**
 * WORKERS: a whole number, or `auto` for the cores Node may use. Above 1 needs PostgreSQL: the embedded
 * database lives in one process per DATA_DIR.
 */
function workers(env: Env, databaseUrl: string | undefined): number {
  const count = env.WORKERS?.trim() === 'auto' ? os.availableParallelism() : integer(env, 'WORKERS', 1, 1, 256);
  if (count > 1 && !databaseUrl) {
    throw new ConfigError(`WORKERS=${env.WORKERS} needs PostgreSQL (DATABASE_URL): the embedded database is served by one process per DATA_DIR`);
  }
  return count;
}

const STORAGE_URL_SHAPE = 'STORAGE_URL must look like s3://bucket/optional/prefix?endpoint=http://host:port&region=...&force_path_style=1';
const STORAGE_OPTIONS = ['endpoint', 'region', 'force_path_style'];

/** `s3://bucket[/prefix]?endpoint=...&region=...&force_path_style=1`; unset: the local disk. */
function storageLocation(raw: string | undefined): S3Location | null {
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${STORAGE_URL_SHAPE}, got "${raw}"`);
  }
  // Bucket names: 3 to 63 lowercase letters, digits, dots and hyphens.
  if (url.protocol !== 's3:' || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(url.hostname) || url.username || url.password || url.port) {
    throw new ConfigError(`${STORAGE_URL_SHAPE}, got "${raw}"`);
  }
  const unknown = [...url.searchParams.keys()].find((name) => !STORAGE_OPTIONS.includes(name));
  if (unknown) throw new ConfigError(`STORAGE_URL: unknown option "${unknown}" (known: ${STORAGE_OPTIONS.join(', ')})`);
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  const pathStyle = url.searchParams.get('force_path_style') ?? '0';
  if (!['0', '1'].includes(pathStyle)) throw new ConfigError(`STORAGE_URL: force_path_style must be 1 or 0, got "${pathStyle}"`);
  const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  if (prefix !== '' && !/^[A-Za-z0-9][A-Za-z0-9._\/-]*$/.test(prefix)) {
    throw new ConfigError(`STORAGE_URL: the key prefix "${prefix}" may hold only letters, digits, '.', '_', '-' and '/'`);
  }
  return {
    bucket: url.hostname,
    prefix: prefix && `${prefix}/`,
    endpoint: endpoint === undefined ? undefined : httpUrl('STORAGE_URL endpoint', endpoint),
    region: url.searchParams.get('region') || undefined,
    forcePathStyle: pathStyle === '1',
  };
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function proxyAddress(entry: string): boolean {
  if (PROXY_NAMES.includes(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  return prefix === undefined || /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `true`/`false`, or the proxies' addresses and CIDR ranges separated by commas. No hop count: Fastify
 * cannot tell a proxy from a client by a count, and believes no peer's forwarded host with one.
 */
function trustProxy(raw: string | undefined): boolean | string[] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  const entries = value.split(',').map((e) => e.trim());
  if (!entries.every(proxyAddress)) {
    throw new ConfigError(`TRUST_PROXY must be true, false or a comma-separated list of the proxies' addresses or CIDR ranges, got "${raw}"`);
  }
  return entries;
}

/** 32 bytes in base64 (or base64url), as `openssl rand -base64 32` prints them. */
function secretsKey(raw: string | undefined): Buffer | undefined {
  const value = raw?.trim() ?? '';
  if (value === '') return undefined;
  const key = Buffer.from(value, 'base64');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value) || key.length !== 32) {
    throw new ConfigError('SECRETS_KEY must be 32 random bytes in base64 (openssl rand -base64 32)');
  }
  return key;
}

/** METRICS_TOKEN puts `/metrics` behind a bearer token, METRICS_PUBLIC=1 opens it; neither: no such route. */
function metrics(env: Env): Config['metrics'] {
  const token = env.METRICS_TOKEN ?? '';
  const isPublic = flag(env, 'METRICS_PUBLIC');
  if (token !== '' && isPublic) throw new ConfigError('set METRICS_TOKEN or METRICS_PUBLIC=1, not both');
  if (token !== '' && (token.length < 16 || !/^[\x21-\x7e]+$/.test(token))) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 printable characters without spaces (openssl rand -hex 32)');
  }
  if (isPublic) return { enabled: true, token: null };
  return token === '' ? { enabled: false } : { enabled: true, token };
}

function flag(env: Env, name: string): boolean {
  const raw = env[name]?.trim() ?? '';
  if (raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name} must be 1 or 0, got "${env[name]}"`);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\/[^/]+/.test(smtpUrl)) {
    throw new ConfigError(`SMTP_URL must look like smtp://host:port, got "${smtpUrl}"`);
  }
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const database = databaseUrl(env.DATABASE_URL);
  return {
    port,
    host,
    baseUrl: httpUrl('BASE_URL', env.BASE_URL || `http://${hostForUrl}:${port}`),
    databaseUrl: database,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    workers: workers(env, database),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    storage: storageLocation(env.STORAGE_URL),
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'Atrium <no-reply@localhost>',
    adminEmail: env.ATRIUM_ADMIN_EMAIL || undefined,
    adminPassword: env.ATRIUM_ADMIN_PASSWORD || undefined,
    logLevel,
    bodyLimit: integer(env, 'BODY_LIMIT', 1024 * 1024, 1024, 1024 * 1024 * 1024),
    trustProxy: trustProxy(env.TRUST_PROXY),
    secretsKey: secretsKey(env.SECRETS_KEY),
    sendingLeaseSeconds: integer(env, 'SENDING_LEASE_SECONDS', 300, 1, 86_400),
    sendingBatchSize: integer(env, 'SENDING_BATCH_SIZE', 100, 1, 1000),
    metrics: metrics(env),
    outboundAllowPrivate: flag(env, env.OUTBOUND_ALLOW_PRIVATE?.trim() ? 'OUTBOUND_ALLOW_PRIVATE' : 'WEBHOOKS_ALLOW_PRIVATE'),
    webhooksPollMs: integer(env, 'WEBHOOKS_POLL_MS', 1000, 10, 3_600_000),
    webhookSenders: integer(env, 'WEBHOOK_SENDERS', 2, 0, 32),
  };
}

/** With PORT=0 the base address is known only once the server listens. */
export function withListenAddress(config: Config, env: Env, address: { port: number }): Config {
  if (env.BASE_URL) return config;
  const hostForUrl = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { ...config, port: address.port, baseUrl: `http://${hostForUrl}:${address.port}` };
}
