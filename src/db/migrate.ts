import { fileURLToPath } from 'node:url';
import type { Database } from './connect.js';

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));
const MIGRATION_LOCK = 727_001;
const ATTEMPTS = 3;

/**
 * A pool connection not made within its timeout. A starting server compiles its routes while the
 * database opens: on a loaded machine that compile can hold the event loop past the pool's connection
 * timeout, and the connection made meanwhile is then given up although the database is fine.
 */
// pg-pool's message when no connection came in time, and pg's own when the connection it was making timed out.
const CONNECT_TIMEOUTS = ['timeout exceeded when trying to connect', 'timeout expired', 'Connection terminated due to connection timeout'];

function connectTimedOut(error: unknown): boolean {
  for (let e = error as { message?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.message === 'string' && CONNECT_TIMEOUTS.some((text) => (e!.message as string).startsWith(text))) return true;
  }
  return false;
}

export async function applyMigrations(database: Database): Promise<void> {
  const { migrate } = database.kind === 'pglite' ? await import('drizzle-orm/pglite/migrator') : await import('drizzle-orm/node-postgres/migrator');
  for (let attempt = 1; ; attempt++) {
    try {
      await database.exclusive(MIGRATION_LOCK, () => migrate(database.db as never, { migrationsFolder }));
      return;
    } catch (err) {
      if (attempt >= ATTEMPTS || !connectTimedOut(err)) throw err;
    }
  }
}
