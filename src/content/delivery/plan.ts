import { sql } from 'drizzle-orm';
import type { ActingContext } from '../../admin-auth/principal.js';
import { rowsOf } from '../../db/rows.js';
import type { Space } from '../spaces.js';
import { fieldIndexStates } from '../types/field-indexes.js';
import { deliveryType, listStatement } from './delivery.js';
import { parseListQuery } from './query.js';

/**
 * How the database would answer a delivery list (an anonymous reader's): PostgreSQL's EXPLAIN of its page
 * and of its count, and whether each filterable field's index is built. What an admin reads when a
 * site's list is slow, and what the content benchmark prints. Nothing is run but the planner.
 */
export async function queryPlan(ctx: ActingContext, space: Space, typeUid: string, raw: Record<string, unknown>) {
  ctx.actor.assertHolds('content.read', space.uid);
  const type = await deliveryType(ctx, space.uid, typeUid);
  const query = parseListQuery(raw, type);
  const statement = (variant: 'page' | 'count') => listStatement(ctx, type, query, { segments: [] }, variant);
  const explain = async (statement: { getSQL(): ReturnType<typeof sql> }) =>
    rowsOf<Record<string, string>>(await ctx.db.execute(sql`explain ${statement.getSQL()}`)).map((row) => Object.values(row)[0]);
  return {
    page: await explain(statement('page')),
    count: await explain(statement('count')),
    indexes: await fieldIndexStates(ctx.db, type.typeId, type.fields),
  };
}
