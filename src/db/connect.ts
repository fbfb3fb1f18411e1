import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { requestScopedDb } from './handle.js';
import { DatabaseUnavailable } from './errors.js';

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
  /**
   * Sends a NOTIFY on `channel` in a statement of its own, heard by `listen` in every process on the database (this
   * one included). Never from inside a write transaction: PostgreSQL holds a database-wide lock from a notifying
   * transaction's pre-commit to its end, so writers that notify commit one at a time.
   */
  notify(channel: string, payload: string): void;
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
  if (options.url) return openPostgres(options.url, options.poolSize ?? 10);
  // Loaded only without DATABASE_URL: PGlite and its driver are memory a server on PostgreSQL need not hold.
  const { openEmbedded } = await import('./embedded.js');
  return openEmbedded(options.dataDir);
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
  const notify = (channel: string, payload: string) => {
    pool.query('select pg_notify($1, $2)', [channel, payload]).catch(() => {});
  };
  return {
    db,
    kind: 'postgres',
    broadcast: (message) => notify(BROADCAST_CHANNEL, message),
    notify,
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

function safeLocation(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}
