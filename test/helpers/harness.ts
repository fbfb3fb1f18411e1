import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Context } from '../../src/context.js';
import { openDatabase } from '../../src/db/connect.js';
import { applyMigrations } from '../../src/db/migrate.js';
import { ensureOwner, issueOwnerToken } from '../../src/bootstrap.js';
import { startWorker } from '../../src/queue/loops.js';
import { WorkSignal } from '../../src/queue/signal.js';
import { taskWorker } from '../../src/queue/tasks.js';
import { createContext, createLogger, TASK_QUEUES } from '../../src/server.js';
import type { AtriumModule } from '../../src/shared/atrium-module.js';
import { freshDatabaseUrl, freshEmbeddedDatabase } from './database.js';
import { startSmtp, type SmtpListener } from './smtp.js';

export const OWNER_EMAIL = 'owner@atrium.test';
export const OWNER_PASSWORD = 'correct horse battery staple';
export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

export interface Harness {
  app: FastifyInstance;
  ctx: Context;
  clock: ManualClock;
  config: Config;
  ownerId: number;
  ownerToken: string;
  /** A second server process's worth of application on the same PostgreSQL database, with its own caches' view. */
  peer(): Promise<{ app: FastifyInstance; close(): Promise<void> }>;
  /** A request with the owner's token unless `token` says otherwise (null: no credential). */
  request(options: InjectOptions & { token?: string | null }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * The whole application in-process on a fresh database, with a clock the test moves. Uploaded files go
 * to a temporary DATA_DIR of its own, removed by `close`, unless `env` names one. `modules`: the app's features
 * (src/modules.ts unless given).
 */
export async function startHarness(env: Record<string, string> = {}, modules?: readonly AtriumModule[]): Promise<Harness> {
  const database = await freshDatabaseUrl();
  const ownDataDir = env.DATA_DIR ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-test-'));
  const config = loadConfig({
    ATRIUM_ADMIN_EMAIL: OWNER_EMAIL, ATRIUM_ADMIN_PASSWORD: OWNER_PASSWORD, LOG_LEVEL: 'silent',
    BASE_URL: 'http://atrium.test', ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}), ...env,
    // PostgreSQL needs the secrets key given (several processes share it); the embedded database makes its own file.
    ...(database.url ? { DATABASE_URL: database.url, SECRETS_KEY: TEST_SECRETS_KEY } : {}),
  });
  const db = config.databaseUrl ? await openDatabase({ url: config.databaseUrl, dataDir: null, poolSize: 5 }) : await freshEmbeddedDatabase();
  await applyMigrations(db);
  const clock = new ManualClock(new Date());
  const ctx = createContext(config, db, createLogger(config), clock);
  await ctx.caches.follow();
  const owner = await issueOwnerToken(ctx, await ensureOwner(ctx));
  const app = await buildApp(ctx, { modules });
  await app.ready();
  // Queued mail (one-time codes, links) leaves as on a server; campaigns and webhooks are sent by the tests' drains.
  const mailing = startWorker(await WorkSignal.follow(ctx.database), taskWorker(ctx, TASK_QUEUES), () => clock.now());
  return {
    app, ctx, clock, config,
    ownerId: owner.admin.id,
    ownerToken: owner.token.token!,
    request: ({ token, headers, ...options }) => {
      const bearer = token === undefined ? owner.token.token : token;
      return app.inject({ ...options, headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...headers } });
    },
    peer: async () => {
      const peerDb = await openDatabase({ url: config.databaseUrl, dataDir: null, poolSize: 5 });
      const peerCtx = createContext(config, peerDb, ctx.log, clock);
      await peerCtx.caches.follow();
      const peerApp = await buildApp(peerCtx);
      await peerApp.ready();
      return { app: peerApp, close: async () => { await peerApp.close(); await peerDb.close(); } };
    },
    close: async () => {
      await app.close();
      await mailing.stop();
      ctx.mail.close();
      await db.close();
      await database.drop();
      if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

/** A harness whose mail goes to a real SMTP listener of its own; closing the harness closes the listener too. */
export async function startHarnessWithSmtp(env: Record<string, string> = {}): Promise<{ h: Harness; smtp: SmtpListener }> {
  const smtp = await startSmtp();
  try {
    const h = await startHarness({ SMTP_URL: smtp.url, ...env });
    return { smtp, h: { ...h, close: async () => { await h.close(); await smtp.close(); } } };
  } catch (err) {
    await smtp.close();
    throw err;
  }
}
