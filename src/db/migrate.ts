import { fileURLToPath } from 'node:url';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { Database } from './connect.js';

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));
const MIGRATION_LOCK = 727_001;

export async function applyMigrations(database: Database): Promise<void> {
  const migrate = database.kind === 'pglite' ? migratePglite : migratePg;
  await database.exclusive(MIGRATION_LOCK, () => migrate(database.db as never, { migrationsFolder }));
}
