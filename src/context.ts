import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database, Db } from './db/connect.js';
import type { Caches } from './caches.js';
import type { Mailer } from './mail/mail.js';
import type { Storage } from './storage/storage.js';

/** What every operation is given: the database, the clock, the configuration, a logger, the caches, the file storage and outgoing mail. */
export interface Context {
  db: Db;
  database: Database;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
  caches: Caches;
  storage: Storage;
  mail: Mailer;
}
