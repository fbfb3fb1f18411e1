import { sql, type AnyColumn } from 'drizzle-orm';
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
/**
 * A stored moment read as the text `Date.prototype.toISOString` makes of it (milliseconds, cut, not rounded, as the
 * driver cuts them), for an answer built as text: no Date per row.
 */
export const isoText = (column: AnyColumn) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
