import path from 'node:path';
import pino from 'pino';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { systemClock, type Clock } from './clock.js';
import { withListenAddress, type Config } from './config.js';
import type { Context } from './context.js';
import { openDatabase, type Database } from './db/connect.js';
import { applyMigrations } from './db/migrate.js';
import { ensureOwner, issueOwnerToken } from './bootstrap.js';
import { Caches } from './caches.js';
import { localDiskStorage } from './storage/local-disk.js';
import { s3Storage } from './storage/s3.js';
import { createMailer } from './mail/mail.js';
import { requireSecretsKey } from './security/secrets-key.js';
import { jobWorker, type Job } from './jobs/runner.js';
import { startWorker, type RunningWorker } from './queue/loops.js';
import { WorkSignal } from './queue/signal.js';
import { taskWorker, type TaskQueue } from './queue/tasks.js';
import { DEFAULT_MODULES } from './modules.js';
import type { AtriumModule } from './shared/atrium-module.js';

export function createLogger(config: Config, destination?: pino.DestinationStream): FastifyBaseLogger {
  return pino({ level: config.logLevel }, destination) as unknown as FastifyBaseLogger;
}

/**
 * Where the server's log goes: readable lines (pino-pretty, loaded only then) when stdout is a terminal,
 * JSON lines otherwise (a log collector, a file, a pipe).
 */
async function logDestination(out: NodeJS.WritableStream): Promise<pino.DestinationStream | undefined> {
  if (!(out as { isTTY?: boolean }).isTTY) return undefined;
  const { default: pretty } = await import('pino-pretty');
  return pretty({ sync: true, destination: out, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' });
}

/** Opens the configured database and applies the migrations. */
export async function openMigrated(config: Config): Promise<Database> {
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.databaseUrl ? null : config.dataDir,
    poolSize: config.databasePoolSize,
  });
  try {
    await applyMigrations(database);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

export function createContext(config: Config, database: Database, log: FastifyBaseLogger, clock: Clock = systemClock): Context {
  const starting = startingContext(config, log, clock);
  starting.attach(database);
  return starting.ctx;
}

/**
 * A context whose database arrives later: a starting server builds its routes (which only capture
 * the context) while the database opens. Reading the database before `attach` is a bug, and throws.
 */
export function startingContext(config: Config, log: FastifyBaseLogger, clock: Clock = systemClock): { ctx: Context; attach(database: Database): void } {
  let open: { database: Database; caches: Caches } | null = null;
  const opened = () => {
    if (!open) throw new Error('the database is not open yet');
    return open;
  };
  const ctx: Context = {
    config, log, clock,
    storage: config.storage ? s3Storage(config.storage) : localDiskStorage(path.join(config.dataDir, 'uploads')),
    mail: createMailer(config, log),
    renderMail: DEFAULT_MODULES.find((m) => m.mailRenderer)?.mailRenderer,
    get db() { return opened().database.db; },
    get database() { return opened().database; },
    get caches() { return opened().caches; },
  };
  return { ctx, attach: (database) => { open = { database, caches: new Caches(database) }; } };
}

/** The periodic work every serving process offers to do; each run is claimed by one process. */
export const jobsOf = (modules: readonly AtriumModule[]): readonly Job[] => modules.flatMap((m) => m.jobs ?? []);
/** The kinds of queued task (queue/tasks.ts). */
export const taskQueuesOf = (modules: readonly AtriumModule[]): readonly TaskQueue<unknown>[] => modules.flatMap((m) => m.taskQueues ?? []);
export const JOBS = jobsOf(DEFAULT_MODULES);
export const TASK_QUEUES = taskQueuesOf(DEFAULT_MODULES);

/**
 * Every worker of a serving process on the one queue loop (queue/loops.ts), woken by the database's
 * notices: periodic jobs, the modules' own (campaign sending, webhook deliveries) and queued tasks (mail).
 * `stop` waits for the work under way: a mail being sent is finished, not cut.
 */
export async function startWorkers(ctx: Context, modules: readonly AtriumModule[] = DEFAULT_MODULES): Promise<RunningWorker> {
  const signal = await WorkSignal.follow(ctx.database);
  const own = modules.flatMap((m) => m.workers?.(ctx) ?? []);
  const workers = [jobWorker(ctx, jobsOf(modules)), ...own, taskWorker(ctx, taskQueuesOf(modules))];
  const running = workers.map((worker) => startWorker(signal, worker, () => ctx.clock.now()));
  return {
    stop: async () => {
      await Promise.all(running.map((worker) => worker.stop()));
      for (const worker of own) worker.close?.();
    },
  };
}

export const CATALOG_PAGES = ['/api/admin/docs', '/api/content/docs', '/api/profile/docs', '/api/customers/docs'];

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/**
 * Makes sure the account and its owner exist; on the first start, the lines showing the owner's
 * credentials once (none afterwards).
 */
export async function createOwner(ctx: Context): Promise<string[]> {
  const owner = await ensureOwner(ctx);
  if (!owner.created) return [];
  const credentials = await issueOwnerToken(ctx, owner);
  return [
    'First start: the account and its owner were created. These are shown once:',
    `  owner email:     ${credentials.admin.email}`,
    `  owner password:  ${credentials.password ?? '(ATRIUM_ADMIN_PASSWORD)'}`,
    `  admin API token: ${credentials.token.token}`,
  ];
}

/** `atrium serve`: migrate, make sure an owner exists, then listen until SIGTERM or SIGINT. */
export async function serve(config: Config, env: Record<string, string | undefined>, out: NodeJS.WritableStream = process.stdout): Promise<RunningServer> {
  requireSecretsKey(config);
  const log = createLogger(config, await logDestination(out));
  // The database opens (a file copy and a WebAssembly compile, mostly off the main thread) while
  // the HTTP modules load and the routes compile.
  const starting = startingContext(config, log);
  let ctx = starting.ctx;
  const opening = openMigrated(config);
  opening.catch(() => {});
  const { buildApp } = await import('./app.js');
  const app = await buildApp(ctx, { logger: log });
  await app.ready();
  const database = await opening.catch(async (err) => {
    await app.close();
    throw err;
  });
  starting.attach(database);
  await ctx.caches.follow();
  const firstStart = await createOwner(ctx);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await database.close();
    throw new Error(`cannot listen on ${config.host}:${config.port}: ${(err as Error).message}`);
  }
  const address = app.server.address();
  const listening = withListenAddress(config, env, { port: typeof address === 'object' && address ? address.port : config.port });
  ctx = Object.assign(ctx, { config: listening });
  const lines = [`Atrium is serving on ${listening.baseUrl} (${database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`];
  lines.push(`Admin console: ${listening.baseUrl}/admin/`);
  lines.push(...firstStart);
  lines.push('Reference pages:', ...CATALOG_PAGES.map((page) => `  ${listening.baseUrl}${page}`));
  out.write(`${lines.join('\n')}\n`);
  const workers = await startWorkers(ctx);

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      await app.close();
      await workers.stop();
      ctx.mail.close();
      await database.close();
    })();
    return closing;
  };
  return { app, url: listening.baseUrl, close };
}
