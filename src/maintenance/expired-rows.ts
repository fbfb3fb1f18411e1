import { sql, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import { rowsOf } from '../db/rows.js';
import type { Job } from '../jobs/runner.js';

const DAY = 86_400_000;
const BATCH = 5_000;

/**
 * How long a dead row is kept after its end: one-time links are kept a week so that a late click is
 * told "used or expired" (410) rather than "unknown"; codes a day; a delegated sign-in's used state once it could no longer be presented; an ended lock or attempt window is the same as no row,
 * and so, after a month, is a count of failures that no longer grows.
 * The audit log keeps a year, and a webhook delivery that ended (sent or failed) 30 days with its attempts: without
 * an end, failed sign-ins of made-up names and every event sent would grow them for ever.
 */
const RETENTION: { table: string; ended: (cutoff: string) => SQL }[] = [
  { table: 'realm_user_links', ended: (cutoff) => sql`expires_at < ${cutoff}::timestamptz - interval '7 days'` },
  { table: 'member_invitations', ended: (cutoff) => sql`expires_at < ${cutoff}::timestamptz - interval '7 days'` },
  { table: 'impersonation_links', ended: (cutoff) => sql`expires_at < ${cutoff}::timestamptz - interval '7 days'` },
  { table: 'authorization_codes', ended: (cutoff) => sql`expires_at < ${cutoff}::timestamptz - interval '1 day'` },
  { table: 'oauth_client_tokens', ended: (cutoff) => sql`expires_at < ${cutoff}::timestamptz - interval '1 day'` },
  { table: 'used_delegation_states', ended: (cutoff) => sql`expires_at < ${cutoff}::timestamptz` },
  { table: 'otp_codes', ended: (cutoff) => sql`expires_at < ${cutoff}::timestamptz - interval '1 day'` },
  // A count without a window or a lock (failures below a sign-in's max, of a made-up name too) never ends by itself:
  // it goes once it has not grown for 30 days, or each made-up name tried would stay for ever.
  { table: 'attempt_counters', ended: (cutoff) => sql`(locked_until <= ${cutoff}::timestamptz or window_ends_at <= ${cutoff}::timestamptz
    or (locked_until is null and window_ends_at is null and updated_at < ${cutoff}::timestamptz - interval '30 days'))` },
  // Temporary segments (apply_filters) are hidden once expired; the rows go at the next run.
  { table: 'segments', ended: (cutoff) => sql`temporary and expires_at <= ${cutoff}::timestamptz` },
  { table: 'audit_logs', ended: (cutoff) => sql`"at" < ${cutoff}::timestamptz - interval '365 days'` },
  { table: 'queue_tasks', ended: (cutoff) => sql`failed_at < ${cutoff}::timestamptz - interval '7 days'` },
  // A form token is good for a day from its issue (before its use): past that a replay is refused as an old token anyway.
  { table: 'form_token_uses', ended: (cutoff) => sql`used_at < ${cutoff}::timestamptz - interval '2 days'` },
  { table: 'webhook_deliveries', ended: (cutoff) => sql`status <> 'pending' and coalesce(last_attempt_at, created_at) < ${cutoff}::timestamptz - interval '30 days'` },
];

/** Deletes the rows past their retention, a batch at a time so that no statement holds many locks for long. */
export async function removeExpiredRows(ctx: Context): Promise<Record<string, number>> {
  const now = ctx.clock.now().toISOString();
  const removed: Record<string, number> = {};
  for (const { table, ended } of RETENTION) {
    removed[table] = 0;
    for (;;) {
      const [{ count }] = rowsOf<{ count: number }>(await ctx.db.execute(sql`with removed as (
        delete from ${sql.identifier(table)} where ctid in (select ctid from ${sql.identifier(table)} where ${ended(now)} limit ${BATCH})
        returning 1) select count(*)::integer as count from removed`));
      removed[table] += count;
      if (count < BATCH) break;
    }
  }
  return removed;
}

export const expiredRowsJob: Job = { name: 'expired-rows', everyMs: DAY / 24, leaseMs: 10 * 60_000, run: removeExpiredRows };
