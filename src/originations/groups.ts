import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { textSearch } from '../db/like.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { orderOf, type ListParams } from '../db/sorting.js';
import { uniqueViolation } from '../db/unique.js';
import { FieldErrors, invalidField, notFound } from '../errors/index.js';
import type { Realm } from '../realms/realms.js';
import { admins } from '../tables/admin-auth.js';
import type { GroupChanges, GroupModel } from './schema.js';
import { adminName } from '../admin-auth/member-name.js';
import { reviewersAmong } from './reviewers.js';
import { reviewerGroupMembers, reviewerGroups } from '../tables/originations.js';

export type Group = typeof reviewerGroups.$inferSelect;
export type GroupBody = Static<typeof GroupModel>;

async function membersOf(db: Db, groupIds: number[]) {
  if (!groupIds.length) return [];
  return db.select({ groupId: reviewerGroupMembers.groupId, admin: admins }).from(reviewerGroupMembers)
    .innerJoin(admins, eq(admins.id, reviewerGroupMembers.adminId))
    .where(inArray(reviewerGroupMembers.groupId, groupIds)).orderBy(asc(admins.id));
}

function groupBody(group: Group, members: Awaited<ReturnType<typeof membersOf>>): GroupBody {
  return {
    id: group.id,
    name: group.name,
    members: members.filter((m) => m.groupId === group.id).map(({ admin }) => ({ id: admin.id, name: adminName(admin), email: admin.email })),
    created_at: group.createdAt.toISOString(),
    updated_at: group.updatedAt.toISOString(),
  };
}

/** The realm's group with this id; 404 otherwise. */
export async function findGroup(db: Db, realm: Realm, id: number, lock?: 'update'): Promise<Group> {
  const query = db.select().from(reviewerGroups).where(and(eq(reviewerGroups.id, id), eq(reviewerGroups.realmId, realm.id)));
  const [group] = await (lock ? query.for(lock) : query);
  if (!group) throw notFound('Group');
  return group;
}

/** Whether the admin is a member of the group. */
export async function isMember(db: Db, groupId: number, adminId: number): Promise<boolean> {
  const [row] = await db.select({ id: reviewerGroupMembers.adminId }).from(reviewerGroupMembers)
    .where(and(eq(reviewerGroupMembers.groupId, groupId), eq(reviewerGroupMembers.adminId, adminId)));
  return row !== undefined;
}

export async function getGroup(ctx: ActingContext, realm: Realm, id: number): Promise<GroupBody> {
  ctx.actor.assertHolds('realm.originations.read', realm.uid);
  return groupById(ctx, realm, id);
}

/** The realm's group as the admin API shows it, or a 404 (no permission asked here). */
async function groupById(ctx: Context, realm: Realm, id: number): Promise<GroupBody> {
  const group = await findGroup(ctx.db, realm, id);
  return groupBody(group, await membersOf(ctx.db, [id]));
}

export const GROUP_SORTABLE = {
  id: reviewerGroups.id, name: reviewerGroups.name, created_at: reviewerGroups.createdAt, updated_at: reviewerGroups.updatedAt,
};

export async function listGroups(ctx: ActingContext, realm: Realm, page: Page, query: ListParams) {
  ctx.actor.assertHolds('realm.originations.read', realm.uid);
  const where = and(eq(reviewerGroups.realmId, realm.id), textSearch(query.query, [reviewerGroups.name]));
  const rows = await ctx.db.select({ group: reviewerGroups, total: totalCount }).from(reviewerGroups).where(where)
    .orderBy(orderOf(GROUP_SORTABLE, query, reviewerGroups.name, 'asc'), desc(reviewerGroups.id)).limit(page.perPage).offset(page.offset);
  const members = await membersOf(ctx.db, rows.map((r) => r.group.id));
  return { items: rows.map((r) => groupBody(r.group, members)), total: await totalOf(rows, page, ctx.db, reviewerGroups, where) };
}

async function checkInput(ctx: Context, realm: Realm, input: Static<typeof GroupChanges>): Promise<number[] | undefined> {
  const errors = new FieldErrors();
  if (input.name !== undefined && !input.name.trim()) errors.add('name', "can't be blank");
  const ids = input.member_ids && [...new Set(input.member_ids)];
  if (ids) {
    const reviewers = await reviewersAmong(ctx.db, realm, ids);
    const others = ids.filter((id) => !reviewers.has(id));
    if (others.length) errors.add('member_ids', `must be active team members who may review this realm's submissions (not ${others.join(', ')})`);
  }
  errors.throwIfAny();
  return ids;
}

const nameTaken = (err: unknown) => {
  if (uniqueViolation(err) !== 'reviewer_groups_name_key') throw err;
  throw invalidField('name', 'has already been taken');
};

async function setMembers(tx: Db, groupId: number, ids: number[] | undefined): Promise<void> {
  if (!ids) return;
  await tx.delete(reviewerGroupMembers).where(eq(reviewerGroupMembers.groupId, groupId));
  if (ids.length) await tx.insert(reviewerGroupMembers).values(ids.map((adminId) => ({ groupId, adminId })));
}

export async function createGroup(ctx: ActingContext, realm: Realm, input: Static<typeof GroupChanges> & { name: string }): Promise<GroupBody> {
  ctx.actor.assertHolds('realm.originations.manage', realm.uid);
  const ids = await checkInput(ctx, realm, input);
  const now = ctx.clock.now();
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.insert(reviewerGroups).values({ realmId: realm.id, name: input.name.trim(), createdAt: now, updatedAt: now })
      .returning({ id: reviewerGroups.id });
    await setMembers(tx, row.id, ids);
    return row.id;
  }).catch(nameTaken);
  return groupById(ctx, realm, id);
}

/** PUT is partial; `member_ids`, when given, replaces the members. */
export async function updateGroup(ctx: ActingContext, realm: Realm, id: number, input: Static<typeof GroupChanges>): Promise<GroupBody> {
  ctx.actor.assertHolds('realm.originations.manage', realm.uid);
  await findGroup(ctx.db, realm, id);
  const ids = await checkInput(ctx, realm, input);
  await ctx.db.transaction(async (tx) => {
    // Concurrent changes of the members replace them one after the other.
    await findGroup(tx, realm, id, 'update');
    await tx.update(reviewerGroups).set({ name: input.name?.trim(), updatedAt: ctx.clock.now() }).where(eq(reviewerGroups.id, id));
    await setMembers(tx, id, ids);
  }).catch(nameTaken);
  return groupById(ctx, realm, id);
}

/** Submissions assigned to the group become unassigned, or stay with the admin picked from it. */
export async function deleteGroup(ctx: ActingContext, realm: Realm, id: number): Promise<void> {
  ctx.actor.assertHolds('realm.originations.manage', realm.uid);
  await findGroup(ctx.db, realm, id);
  await ctx.db.delete(reviewerGroups).where(eq(reviewerGroups.id, id));
}
