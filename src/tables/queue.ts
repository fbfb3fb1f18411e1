import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { moment } from '../db/columns.js';

/**
 * Work written by one request and done by whichever server process claims it first (queue/tasks.ts):
 * transactional mail today. A row is deleted once its work is done; one that failed for good keeps
 * `failed_at` and its last error for a week (maintenance/expired-rows.ts).
 */
export const queueTasks = pgTable('queue_tasks', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  queue: text('queue').notNull(),
  /** The queue's typed payload; what it holds of secrets is sealed with SECRETS_KEY (mail/queue.ts). */
  payload: jsonb('payload').notNull(),
  runAt: moment('run_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
  leaseUntil: moment('lease_until'),
  lastError: text('last_error'),
  failedAt: moment('failed_at'),
  createdAt: moment('created_at').notNull(),
}, (t) => [
  index('queue_tasks_due').on(t.runAt).where(sql`failed_at is null`),
  // The few tasks a process holds (a report clears the lease or deletes the row).
  index('queue_tasks_leased').on(t.leaseUntil).where(sql`failed_at is null and lease_until is not null`),
]);
