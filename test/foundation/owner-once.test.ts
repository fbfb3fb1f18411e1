import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureOwner } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { applyMigrations } from '../../src/db/migrate.js';
import { createContext, createLogger } from '../../src/server.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { TEST_SECRETS_KEY } from '../helpers/harness.js';

describe('the owner of an empty database', () => {
  it('is created once when several servers start at the same moment (each with its own connections)', async () => {
    const database = await freshDatabaseUrl();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-owner-'));
    const config = loadConfig({
      ATRIUM_ADMIN_EMAIL: 'owner@once.test', ATRIUM_ADMIN_PASSWORD: 'a long owner password', LOG_LEVEL: 'silent', DATA_DIR: dataDir,
      ...(database.url ? { DATABASE_URL: database.url, SECRETS_KEY: TEST_SECRETS_KEY } : {}),
    });
    // The embedded database is one connection of one process: its "servers" share it.
    const servers = database.url ? 4 : 1;
    const opened = await Promise.all(Array.from({ length: servers }, () => openDatabase({ url: config.databaseUrl, dataDir: database.url ? null : path.join(dataDir, 'db'), poolSize: 3 })));
    try {
      await applyMigrations(opened[0]);
      const contexts = opened.map((one) => createContext(config, one, createLogger(config)));
      const owners = await Promise.all([...contexts, ...contexts].map((ctx) => ensureOwner(ctx)));
      expect(owners.filter((owner) => owner.created)).toHaveLength(1);
      expect(new Set(owners.map((owner) => owner.admin.id)).size).toBe(1);
      expect(owners.every((owner) => owner.admin.email === 'owner@once.test')).toBe(true);
    } finally {
      await Promise.all(opened.map((one) => one.close()));
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
