import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/connect.js';
import { AdminPrincipal } from '../admin-auth/principal.js';
import { admins } from '../tables/admin-auth.js';
import { grantsOf } from '../admin-auth/team.js';
import type { Realm } from '../realms/realms.js';

export type Admin = typeof admins.$inferSelect;

/**
 * Of these team members, the ids of those who may review the realm's submissions: active, and
 * holding `realm.originations.review` on the realm (or everywhere). Only they join a reviewer group
 * or are assigned a submission.
 */
export async function reviewersAmong(db: Db, realm: Realm, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const active = await db.select({ id: admins.id }).from(admins).where(and(inArray(admins.id, ids), eq(admins.active, true)));
  const reviewers = new Set<number>();
  for (const { id } of active) {
    if (new AdminPrincipal(id, await grantsOf(db, id)).holdsOn('realm.originations.review', realm.uid)) reviewers.add(id);
  }
  return reviewers;
}
