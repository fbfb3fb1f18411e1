import { pgTable, text } from 'drizzle-orm/pg-core';
import { moment } from '../db/columns.js';

/**
 * When each periodic job runs next, and which process holds it now: a run is claimed by moving
 * `next_run_at` and taking the lease in one statement, so of several processes one runs it.
 */
export const jobSchedules = pgTable('job_schedules', {
  name: text('name').primaryKey(),
  nextRunAt: moment('next_run_at').notNull(),
  leaseUntil: moment('lease_until'),
  lastError: text('last_error'),
});
