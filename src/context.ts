import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database, Db } from './db/connect.js';
import type { Caches } from './caches.js';
import type { Mailer } from './mail/mail.js';
import type { MailRenderer } from './mail/queue.js';
import type { Storage } from './storage/storage.js';

/** What every operation is given: the database, the clock, the configuration, a logger, the caches, the file storage and outgoing mail. */
export interface Context {
  /** The database; during an admin write, the handle itself answers with the request's transaction (db/handle.ts). */
  db: Db;
  database: Database;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
  caches: Caches;
  storage: Storage;
  mail: Mailer;
  /** Writes the queued mails that name a template (a module's `mailRenderer`: email-templates'). */
  renderMail?: MailRenderer;
}

/** Runs `work` in one transaction (a savepoint inside an open one), given a context whose `db` is it. */
export function inTransaction<T>(ctx: Context, work: (tx: Context) => Promise<T>): Promise<T> {
  return ctx.db.transaction((txn) => work({ ...ctx, db: txn }));
}
