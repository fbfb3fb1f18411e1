import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServe, type RunningCli } from '../test/helpers/cli.js';
import { freshDatabaseUrl } from '../test/helpers/database.js';
import { TEST_SECRETS_KEY } from '../test/helpers/harness.js';
import { countStatements, type StatementCounter } from './statement-counter.js';

const REST_MS = 30_000;
/** What the start-up leaves running for a moment (the first job runs, the workers' first rounds). */
const SETTLE_MS = 5_000;

describe('one instance at rest', () => {
  let counter: StatementCounter;
  let server: RunningCli;
  let drop = async () => {};
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-idle-'));
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await counter?.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(`sends at most 30 statements to PostgreSQL in ${REST_MS / 1000} s with no request and no work queued`, async () => {
    const database = await freshDatabaseUrl();
    drop = database.drop;
    if (!database.url) throw new Error('the scale tests run on PostgreSQL: set DATABASE_URL');
    counter = await countStatements(database.url);
    server = await startServe({
      DATA_DIR: dataDir, DATABASE_URL: counter.url, SECRETS_KEY: TEST_SECRETS_KEY,
      ATRIUM_ADMIN_EMAIL: 'owner@idle.test', ATRIUM_ADMIN_PASSWORD: 'a long idle owner password',
    });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    // The proxy sees the start-up's statements (migrations, the owner): it counts what the instance sends.
    expect(counter.count()).toBeGreaterThan(30);
    counter.reset();
    await new Promise((resolve) => setTimeout(resolve, REST_MS));
    const statements = counter.count();
    console.log(`statements at rest in ${REST_MS / 1000} s: ${statements}`);
    expect(statements).toBeLessThanOrEqual(30);
  }, 120_000);
});
