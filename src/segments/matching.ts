import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { invalidField } from '../errors/index.js';
import { fieldsOf } from '../realms/custom-fields.js';
import { realmUsers } from '../tables/realms.js';
import { segmentCondition } from './compile.js';
import { parseFilters } from './filters.js';
import { segments } from '../tables/segments.js';

export { segmentCondition } from './compile.js';

/**
 * The users of a realm that any of these segments selects (their union), as one condition over
 * `realm_users`, read with the realm's custom fields as they are now. Segments of another realm and
 * unknown ids select nobody; no segment at all selects nobody.
 */
export async function segmentsCondition(ctx: Context, realmId: number, segmentIds: readonly number[]): Promise<SQL> {
  if (!segmentIds.length) return sql`false`;
  const rows = await ctx.db.select({ filters: segments.filters }).from(segments)
    .where(and(eq(segments.realmId, realmId), inArray(segments.id, [...segmentIds])));
  if (!rows.length) return sql`false`;
  const fields = await fieldsOf(ctx, realmId);
  const now = ctx.clock.now();
  const trees = rows.map((row) => segmentCondition(realmId, parseFilters(row.filters, fields, 'stored'), now));
  return sql`(${sql.join(trees, sql` or `)})`;
}

/**
 * The uuids of the lasting segments of a realm that select this user, as they select users now: one
 * query tests every segment's condition on the user's row (after the segments and the realm's custom
 * fields are read).
 */
export async function segmentsOfUser(ctx: Context, realmId: number, userId: number): Promise<string[]> {
  const rows = await ctx.db.select({ uuid: segments.uuid, filters: segments.filters }).from(segments)
    .where(and(eq(segments.realmId, realmId), eq(segments.temporary, false)));
  if (!rows.length) return [];
  const fields = await fieldsOf(ctx, realmId);
  const now = ctx.clock.now();
  const tests = rows.map((row) => sql`case when ${segmentCondition(realmId, parseFilters(row.filters, fields, 'stored'), now)} then ${row.uuid}::text end`);
  const [found] = await ctx.db.select({ uuids: sql<string[]>`array_remove(array[${sql.join(tests, sql`, `)}], null)` })
    .from(realmUsers).where(eq(realmUsers.id, userId));
  return found?.uuids ?? [];
}

/** How long one count may take; past it the count is refused rather than holding a connection. */
export const COUNT_TIMEOUT_MS = 15_000;

/** Runs a read of the users a condition selects within the count's time limit; past it, a 422 on `filters`. */
export async function withinCountTimeout<T>(ctx: Context, read: (db: Db) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = ${COUNT_TIMEOUT_MS}`));
      return read(tx);
    });
  } catch (err) {
    if (isQueryCanceled(err)) throw invalidField('filters', `take too long to count (over ${COUNT_TIMEOUT_MS / 1000} s): simplify them`);
    throw err;
  }
}

/** How many users of the realm a condition selects. */
export function countMatching(ctx: Context, condition: SQL): Promise<number> {
  return withinCountTimeout(ctx, async (db) => {
    const [{ n }] = await db.select({ n: sql<number>`count(*)::integer` }).from(realmUsers).where(condition);
    return n;
  });
}

/** SQLSTATE 57014, a statement canceled by its timeout, whether or not the driver's error wraps it. */
function isQueryCanceled(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '57014') return true;
  }
  return false;
}
