import type { TestProject } from 'vitest/node';
import { findChromium } from './helpers/chromium.js';
import { dropRunCopies, makeTemplateDatabase } from './helpers/database.js';

/**
 * Once per run: finds (and if need be unpacks) Chromium, so that parallel workers never unpack it at the same
 * time; on PostgreSQL, migrates a template database that each test file's database copies instead of migrating, and
 * at the end drops the copies the workers made ahead for a next file that never came.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  project.provide('chromiumPath', await findChromium());
  const template = await makeTemplateDatabase(async (url) => {
    const { openDatabase } = await import('../src/db/connect.js');
    const { applyMigrations } = await import('../src/db/migrate.js');
    const database = await openDatabase({ url, dataDir: null, poolSize: 2 });
    try {
      await applyMigrations(database);
    } finally {
      await database.close();
    }
  });
  project.provide('templateDatabase', template?.name);
  return async () => {
    if (!template) return;
    await dropRunCopies(template.name);
    await template.drop();
  };
}
