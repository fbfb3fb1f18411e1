import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import { rowsOf } from '../db/rows.js';
import { invalidField } from '../errors/index.js';
import { segmentsCondition } from '../segments/matching.js';
import { segments } from '../tables/segments.js';
import { campaignSegments } from '../tables/messaging.js';

export interface SegmentRef {
  id: number;
  name: string;
}

/** The text of a campaign's or delivery's `segment_list`: the names joined by ", ", or "--" when none. */
export const segmentListOf = (refs: SegmentRef[]) => (refs.length ? refs.map((s) => s.name).join(', ') : '--');

/**
 * The saved segments of this realm with these ids, in the order given; 422 when one is unknown,
 * temporary or of another realm (the answer does not tell which: none is "a segment of this realm").
 */
export async function segmentsOfRealm(ctx: Context, realmId: number, ids: number[]): Promise<SegmentRef[]> {
  if (!ids.length) return [];
  const rows = await ctx.db.select({ id: segments.id, name: segments.name }).from(segments)
    .where(and(eq(segments.realmId, realmId), eq(segments.temporary, false), inArray(segments.id, ids)));
  if (rows.length !== ids.length) throw invalidField('segment_ids', 'must name saved segments of the campaign\'s realm');
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)!);
}

/** The segments of each campaign, in their order. */
export async function segmentRefsOf(ctx: Context, campaignIds: number[]): Promise<Map<number, SegmentRef[]>> {
  const refs = new Map<number, SegmentRef[]>();
  if (!campaignIds.length) return refs;
  const rows = await ctx.db.select({ campaignId: campaignSegments.campaignId, id: segments.id, name: segments.name })
    .from(campaignSegments).innerJoin(segments, eq(segments.id, campaignSegments.segmentId))
    .where(inArray(campaignSegments.campaignId, campaignIds)).orderBy(asc(campaignSegments.position));
  for (const row of rows) {
    const list = refs.get(row.campaignId) ?? [];
    list.push({ id: row.id, name: row.name });
    refs.set(row.campaignId, list);
  }
  return refs;
}

/**
 * Who a delivery goes to, as a condition over `realm_users`: active users of the realm who have not
 * unsubscribed and, when segments are given, whom at least one of them selects (as the segments
 * read when the batch is written).
 */
export async function recipientCondition(ctx: Context, realmId: number, segmentIds: number[] | null): Promise<SQL> {
  const audience = sql`realm_users.realm_id = ${realmId} and realm_users.active
    and not exists (select 1 from messaging_unsubscribes x where x.user_id = realm_users.id)`;
  return segmentIds === null ? audience : sql`${audience} and ${await segmentsCondition(ctx, realmId, segmentIds)}`;
}

/**
 * How many users a delivery of the campaign made now would go to: what its `reach` would be if
 * nobody joined, left or unsubscribed before it starts.
 */
export async function countRecipients(ctx: Context, realmId: number, segmentIds: number[] | null): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await ctx.db.execute(sql`select count(*)::int as n from realm_users
    where ${await recipientCondition(ctx, realmId, segmentIds)}`));
  return row.n;
}
