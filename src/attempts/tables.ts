import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { moment } from '../db/columns.js';

/**
 * Failed attempts at a secret, per limit (`scope`) and per subject (a user, or an identifier nobody
 * has, so that unknown names are counted like known ones). See `limit.ts`.
 */
export const attemptCounters = pgTable('attempt_counters', {
  scope: text('scope').notNull(),
  subject: text('subject').notNull(),
  failures: integer('failures').notNull(),
  lockedUntil: moment('locked_until'),
  /** When the count started: a limit with a window (`windowMs`) starts it again that long after. */
  windowStartedAt: moment('window_started_at'),
  updatedAt: moment('updated_at').notNull(),
}, (t) => [primaryKey({ columns: [t.scope, t.subject] })]);
