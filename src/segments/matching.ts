import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import { fieldsOf } from '../realms/custom-fields.js';
import { realmUsers } from '../realms/tables.js';
import { segmentCondition } from './compile.js';
import { parseFilters } from './filters.js';
import { segments } from './tables.js';

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

/** How many users of the realm a condition selects. */
export async function countMatching(ctx: Context, condition: SQL): Promise<number> {
  const [{ n }] = await ctx.db.select({ n: sql<number>`count(*)::integer` }).from(realmUsers).where(condition);
  return n;
}
