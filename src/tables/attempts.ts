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
  /** A limit with a window (`windowMs`): when the count starts again. Null without a window. */
  windowEndsAt: moment('window_ends_at'),
  updatedAt: moment('updated_at').notNull(),
}, (t) => [primaryKey({ columns: [t.scope, t.subject] })]);
