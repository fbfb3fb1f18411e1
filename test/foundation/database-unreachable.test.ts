import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { postgresDatabase, type Database } from '../../src/db/connect.js';
import { createContext, createLogger } from '../../src/server.js';
import { freePort } from '../helpers/server.js';
import { TEST_SECRETS_KEY } from '../helpers/harness.js';

// A server whose PostgreSQL is gone (nothing listens at its address): what a restart looks like to a client.
describe('a database that cannot be reached', () => {
  let app: FastifyInstance;
  let database: Database;
  beforeAll(async () => {
    const url = `postgres://postgres@127.0.0.1:${await freePort()}/atrium`;
    const config = loadConfig({ DATABASE_URL: url, SECRETS_KEY: TEST_SECRETS_KEY, LOG_LEVEL: 'silent' });
    // A pool that has not connected yet: the server lost its database after starting.
    database = postgresDatabase(url, 1);
    const ctx = createContext(config, database, createLogger(config));
    app = await buildApp(ctx);
    await app.ready();
  });
  afterAll(async () => { await app?.close(); await database?.close(); });

  it('answers 503 with Retry-After, not 500, on the admin, customers and content APIs; /healthz says 503', async () => {
    for (const url of ['/api/admin/realms', '/api/customers/realms/bank/me', '/api/content/spaces/news/types/article/entries']) {
      const res = await app.inject({ method: 'GET', url, headers: { authorization: 'Bearer a-token-that-must-be-looked-up' } });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      const code = url.startsWith('/api/admin') ? { code: 'ATR_DATABASE_UNREACHABLE' } : {};
      expect(res.json()).toEqual({ errors: ['The database cannot be reached right now: try again in a few seconds'], ...code });
      expect(res.headers['atrium-error-code']).toBe('ATR_DATABASE_UNREACHABLE');
    }
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(503);
  });

  it('documents the 503 on every operation', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/admin/docs/openapi.json' })).json();
    const operations = Object.values(document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>).flatMap((item) => Object.values(item));
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.filter((operation) => !operation.responses['503'])).toEqual([]);
  });
});
