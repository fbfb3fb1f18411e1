import { sql } from 'drizzle-orm';
import { timestamp } from 'drizzle-orm/pg-core';

/** Every stored moment is a timestamptz read back as a Date; values come from the injected clock. */
export const moment = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const timestamps = {
  createdAt: moment('created_at').notNull().defaultNow(),
  updatedAt: moment('updated_at').notNull().defaultNow(),
};

/** A moment as a timestamptz parameter of raw SQL. */
export const sqlMoment = (date: Date) => sql`${date.toISOString()}::timestamptz`;
/** A prepared statement's moment, given as an ISO string under `name` when it is executed. */
export const momentPlaceholder = (name: string) => sql`${sql.placeholder(name)}::timestamptz`;
