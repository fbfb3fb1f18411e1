import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { acquireDataLock } from './data-lock.js';
import { embeddedAssets } from './embedded-assets.js';
import { requestScopedDb } from './handle.js';
import { DatabaseUnavailable } from './errors.js';
import { copySeedCluster, loadSeedArchive } from './seed.js';

export type Db = PgDatabase<PgQueryResultHKT>;

/** How the connections are used; null where the embedded database cannot tell. */
export interface PoolStats {
  max: number;
  total: number;
  idle: number | null;
  /** Queries waiting for a connection. */
  waiting: number | null;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Answers when the database answers; throws otherwise. */
  ping(): Promise<void>;
  /** Runs fn while holding a database-wide lock, so that several servers starting at once take turns. */
  exclusive<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /** Tells every other server process on this database something (PostgreSQL NOTIFY); no one to tell on the embedded one. */
  broadcast(message: string): void;
  /** Hears what other server processes broadcast. */
  subscribe(listener: (message: string) => void): Promise<void>;
  /**
   * Hears a NOTIFY channel of the database itself (a trigger's pg_notify, sent when its transaction
   * commits), from this process and every other: what wakes the work queue's workers (queue/signal.ts).
   */
  listen(channel: string, listener: (payload: string) => void): Promise<void>;
  /** PostgreSQL's pool; the embedded database is one connection in the process, whose queue it does not show. */
  pool(): PoolStats;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://... selects PostgreSQL; unset selects the embedded database. */
  url?: string;
  /** Folder of the embedded database; null keeps it in memory (tests). */
  dataDir: string | null;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options.poolSize ?? 10) : openEmbedded(options.dataDir);
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const database = postgresDatabase(url, poolSize);
  try {
    await database.ping();
  } catch (err) {
    await database.close().catch(() => {});
    const where = safeLocation(url);
    throw new DatabaseUnavailable(`cannot reach the database at ${where}: ${(err as Error).message}`);
  }
  return database;
}

/** A PostgreSQL pool as the server uses it, connecting on first use (openDatabase checks the server is there first). */
export function postgresDatabase(url: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server must not take the process down with it.
  pool.on('error', () => {});
  const db = requestScopedDb(drizzlePg(pool) as unknown as Db);
  const channels = new Map<string, Set<(payload: string) => void>>();
  let listening: Promise<pg.Client> | null = null;
  let closed = false;
  // One connection of the process LISTENs on every channel asked for. Lost with its server (a restart),
  // it is made again every second until it takes, so that this process keeps hearing the others;
  // caches' short lives and the workers' slow polls cover the gap.
  const connectListener = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    client.on('notification', (n) => {
      for (const heard of channels.get(n.channel) ?? []) heard(n.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of channels.keys()) await client.query(`listen ${channel}`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    client.once('end', () => {
      listening = null;
      relistenLater();
    });
    return client;
  };
  const relistenLater = () => {
    if (!closed) setTimeout(relisten, RELISTEN_MS).unref();
  };
  const relisten = () => {
    if (closed || listening) return;
    listening = connectListener();
    listening.catch(() => { listening = null; relistenLater(); });
  };
  const listen = async (channel: string, heard: (payload: string) => void): Promise<void> => {
    const known = channels.get(channel);
    if (known) {
      known.add(heard);
      return;
    }
    channels.set(channel, new Set([heard]));
    if (listening) {
      await (await listening).query(`listen ${channel}`);
      return;
    }
    listening = connectListener();
    listening.catch(() => { listening = null; });
    await listening;
  };
  return {
    db,
    kind: 'postgres',
    broadcast: (message) => {
      pool.query('select pg_notify($1, $2)', [BROADCAST_CHANNEL, message]).catch(() => {});
    },
    subscribe: (listener) => listen(BROADCAST_CHANNEL, listener),
    listen: (channel, listener) => listen(channel, listener),
    ping: async () => { await pool.query('select 1'); },
    pool: () => ({ max: poolSize, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    exclusive: async (key, fn) => {
      const lockHolder = await pool.connect();
      try {
        await lockHolder.query('select pg_advisory_lock($1)', [key]);
        return await fn();
      } finally {
        await lockHolder.query('select pg_advisory_unlock($1)', [key]).catch(() => {});
        lockHolder.release();
      }
    },
    close: async () => {
      closed = true;
      await (await listening?.catch(() => null))?.end().catch(() => {});
      await pool.end();
    },
  };
}

const BROADCAST_CHANNEL = 'atrium_broadcast';
const RELISTEN_MS = 1000;

/**
 * PostgreSQL's memory inside PGlite, sized for one process's workload rather than a server's: its
 * default 128 MB of shared buffers, mostly touched once the catalog and a few tables are read, was two
 * thirds of an embedded server's memory at rest (issue 30 item 5).
 */
const EMBEDDED_SETTINGS = {
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'work_mem=4MB', '-c', 'maintenance_work_mem=16MB'],
};

async function openEmbedded(dataDir: string | null): Promise<Database> {
  let release = () => {};
  let client: PGlite;
  if (dataDir === null) {
    client = await PGlite.create({ loadDataDir: await loadSeedArchive(), ...await embeddedAssets(), ...EMBEDDED_SETTINGS });
  } else {
    fs.mkdirSync(dataDir, { recursive: true });
    release = acquireDataLock(dataDir);
    const folder = path.join(dataDir, 'db');
    try {
      if (!fs.existsSync(path.join(folder, 'PG_VERSION'))) await copySeedCluster(folder);
      client = await PGlite.create({ dataDir: folder, ...await embeddedAssets(), ...EMBEDDED_SETTINGS });
    } catch (err) {
      release();
      throw new DatabaseUnavailable(`cannot open the embedded database in ${folder}: ${(err as Error).message}`);
    }
  }
  return embeddedDatabase(client, async () => {
    try {
      await client.close();
    } finally {
      release();
    }
  });
}

/**
 * The embedded database over an open PGlite client; `end` runs at close, once this handle's listeners are
 * removed (the tests hand one client to file after file, emptied between them).
 */
export function embeddedDatabase(client: PGlite, end: () => Promise<void>): Database {
  const db = requestScopedDb(drizzlePglite(client) as unknown as Db);
  const unlistens: (() => Promise<void>)[] = [];
  let open = true;
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      if (!open) throw new DatabaseUnavailable('the embedded database is closed');
      await client.exec('select 1');
    },
    pool: () => ({ max: 1, total: 1, idle: null, waiting: null }),
    exclusive: (_key, fn) => fn(),
    // One process holds the embedded database: there is no one else to tell.
    broadcast: () => {},
    subscribe: async () => {},
    listen: async (channel, listener) => { unlistens.push(await client.listen(channel, listener)); },
    close: async () => {
      open = false;
      try {
        for (const unlisten of unlistens.splice(0)) await unlisten().catch(() => {});
      } finally {
        await end();
      }
    },
  };
}

function safeLocation(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}
