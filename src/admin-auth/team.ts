import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { TeamMemberCreate, TeamMemberModel } from './schema.js';
import { orderOf } from '../db/sorting.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { textSearch } from '../db/like.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { uniqueViolation } from '../db/unique.js';
import { FieldErrors, invalidField, lastOwner, notFound } from '../errors/index.js';
import { hashPassword, passwordWeakness } from '../security/passwords.js';
import { OWNER_ROLE } from './built-in-roles.js';
import { targetExists, type RoleTargets } from './role-targets.js';
import type { ActingContext, Grant } from './principal.js';
import { assertMayActOn, assertMayGrant } from './privileges.js';
import { accessTokens, adminSessions, admins, roleAssignments, roles } from '../tables/admin-auth.js';

export type Admin = typeof admins.$inferSelect;

export type TeamMemberBody = Static<typeof TeamMemberModel>;
export type TeamMemberInput = Static<typeof TeamMemberCreate>;
type RoleRef = TeamMemberBody['roles'][number];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isEmail = (text: string) => EMAIL.test(text);

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

function nameParts(input: TeamMemberInput): { first?: string; last?: string } {
  if (input.first_name !== undefined || input.last_name !== undefined || input.name === undefined) {
    return { first: input.first_name?.trim(), last: input.last_name?.trim() };
  }
  const [first, ...rest] = input.name.trim().split(/\s+/);
  return { first: first ?? '', last: rest.join(' ') };
}

async function rolesOf(db: Db, adminIds: number[]): Promise<Map<number, RoleRef[]>> {
  const map = new Map<number, RoleRef[]>();
  if (!adminIds.length) return map;
  const rows = await db.select({ adminId: roleAssignments.adminId, key: roles.key, target: roleAssignments.target })
    .from(roleAssignments).innerJoin(roles, eq(roles.id, roleAssignments.roleId))
    .where(inArray(roleAssignments.adminId, adminIds)).orderBy(asc(roleAssignments.id));
  for (const row of rows) {
    const list = map.get(row.adminId) ?? [];
    list.push({ key: row.key, target: row.target });
    map.set(row.adminId, list);
  }
  return map;
}

export function teamMemberBody(admin: Admin, roleRefs: RoleRef[]): TeamMemberBody {
  return {
    id: admin.id,
    email: admin.email,
    name: [admin.firstName, admin.lastName].filter(Boolean).join(' '),
    first_name: admin.firstName,
    last_name: admin.lastName,
    active: admin.active,
    roles: roleRefs,
    created_at: admin.createdAt.toISOString(),
    updated_at: admin.updatedAt.toISOString(),
  };
}

export const TEAM_SORTABLE = { id: admins.id, email: admins.email, first_name: admins.firstName, last_name: admins.lastName, created_at: admins.createdAt, updated_at: admins.updatedAt };

export async function listTeamMembers(ctx: ActingContext, page: Page, query: { query?: string; sort_by?: string; order?: string } = {}) {
  ctx.actor.assertHolds('team.read');
  const where = textSearch(query.query, [admins.email, admins.firstName, admins.lastName, sql`${admins.firstName} || ' ' || ${admins.lastName}`]);
  const rows = await ctx.db.select({ admin: admins, total: totalCount }).from(admins).where(where)
    .orderBy(orderOf(TEAM_SORTABLE, query, admins.updatedAt, 'desc'), desc(admins.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, admins, where);
  const roleMap = await rolesOf(ctx.db, rows.map((r) => r.admin.id));
  return { items: rows.map(({ admin }) => teamMemberBody(admin, roleMap.get(admin.id) ?? [])), total };
}

export async function findAdmin(ctx: Context, id: number): Promise<Admin> {
  const [admin] = await ctx.db.select().from(admins).where(eq(admins.id, id));
  if (!admin) throw notFound('Team member');
  return admin;
}

/** The member as answered, without asking for a permission: for one's own session, and after a change. */
export async function teamMemberById(ctx: Context, id: number): Promise<TeamMemberBody> {
  const admin = await findAdmin(ctx, id);
  return teamMemberBody(admin, (await rolesOf(ctx.db, [id])).get(id) ?? []);
}

export async function getTeamMember(ctx: ActingContext, id: number): Promise<TeamMemberBody> {
  ctx.actor.assertHolds('team.read');
  return teamMemberById(ctx, id);
}

export interface ResolvedRole {
  roleId: number;
  target: string | null;
  grant: Grant;
}

/** Checks each role reference and resolves it to a role; problems are added to `errors`. */
export async function resolveRoles(ctx: Context, targets: RoleTargets, refs: TeamMemberInput['roles'], errors: FieldErrors): Promise<ResolvedRole[]> {
  const resolved: ResolvedRole[] = [];
  for (const [i, ref] of (refs ?? []).entries()) {
    const [role] = await ctx.db.select().from(roles).where(eq(roles.key, ref.key));
    const target = ref.target?.trim() || null;
    if (!role) {
      errors.add(`roles.${i}.key`, `is not a known role: ${ref.key}`);
    } else if (role.context === 'account' && target) {
      errors.add(`roles.${i}.target`, 'must be empty for an account role');
    } else if ((role.context === 'realm' || role.context === 'space') && !target) {
      errors.add(`roles.${i}.target`, `must name the ${role.context} the role applies to`);
    } else if (target && !(await targetExists(ctx, targets, role.context, target))) {
      errors.add(`roles.${i}.target`, `is not a known ${role.context}: ${target}`);
    } else if (!resolved.some((r) => r.roleId === role.id && r.target === target)) {
      resolved.push({ roleId: role.id, target, grant: { key: role.key, context: role.context, target, permissions: role.permissions } });
    }
  }
  return resolved;
}

/** The grants a member holds now, to decide who may act on it (or whether it may review a realm's submissions). */
export async function grantsOf(db: Db, adminId: number): Promise<Grant[]> {
  return db.select({ key: roles.key, context: roles.context, target: roleAssignments.target, permissions: roles.permissions })
    .from(roleAssignments).innerJoin(roles, eq(roles.id, roleAssignments.roleId)).where(eq(roleAssignments.adminId, adminId));
}

/** The member, provided the actor may act on it (change, deactivate, remove, mint or revoke its tokens). */
export async function findMemberToActOn(ctx: ActingContext, id: number): Promise<Admin> {
  const admin = await findAdmin(ctx, id);
  assertMayActOn(ctx.actor, await grantsOf(ctx.db, id));
  return admin;
}

/**
 * findMemberToActOn inside the transaction `tx` that writes the member, after its other locks: the row
 * stays locked FOR UPDATE until it ends, so the decision and the write see the member as it is then
 * (its roles change only under the same lock), and a member deleted meanwhile is a 404.
 */
export async function lockMemberToActOn(ctx: ActingContext, tx: Db, id: number): Promise<Admin> {
  const [admin] = await tx.select().from(admins).where(eq(admins.id, id)).for('update');
  if (!admin) throw notFound('Team member');
  assertMayActOn(ctx.actor, await grantsOf(tx, id));
  return admin;
}

async function checkIdentity(ctx: Context, input: TeamMemberInput, errors: FieldErrors, selfId?: number): Promise<string | undefined> {
  if (input.email === undefined) return undefined;
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email)) {
    errors.add('email', 'is invalid');
    return email;
  }
  const [taken] = await ctx.db.select({ id: admins.id }).from(admins).where(eq(admins.email, email));
  if (taken && taken.id !== selfId) errors.add('email', 'has already been taken');
  return email;
}

export function checkPassword(password: string | undefined, errors: FieldErrors, required: boolean): void {
  if (password === undefined || password === '') {
    if (required) errors.add('password', "can't be blank");
    return;
  }
  const weakness = passwordWeakness(password);
  if (weakness) errors.add('password', weakness);
}

export const emailTaken = () => invalidField('email', 'has already been taken');

export async function createTeamMember(ctx: ActingContext, input: TeamMemberInput, targets: RoleTargets = {}): Promise<TeamMemberBody> {
  const errors = new FieldErrors();
  if (input.email === undefined || !input.email.trim()) errors.add('email', "can't be blank");
  const email = await checkIdentity(ctx, input, errors);
  checkPassword(input.password, errors, true);
  const assignments = await resolveRoles(ctx, targets, input.roles, errors);
  errors.throwIfAny();
  assertMayGrant(ctx.actor, assignments.map((a) => a.grant));
  const { first, last } = nameParts(input);
  const passwordHash = await hashPassword(input.password!);
  const now = ctx.clock.now();
  const id = await ctx.db.transaction(async (tx) => {
    const [admin] = await tx.insert(admins).values({
      email: email!, firstName: first ?? '', lastName: last ?? '', passwordHash, active: input.active ?? true, createdAt: now, updatedAt: now,
    }).onConflictDoNothing({ target: admins.email }).returning({ id: admins.id });
    if (!admin) throw emailTaken();
    if (assignments.length) {
      await tx.insert(roleAssignments).values(assignments.map((a) => ({ roleId: a.roleId, target: a.target, adminId: admin.id, createdAt: now })));
    }
    return admin.id;
  });
  ctx.caches.changed('access', 'roles');
  return teamMemberById(ctx, id);
}

/**
 * PUT is partial: attributes left out keep their value; `roles`, when given, replaces the assignments.
 * Only the columns sent are written, to the row locked after the owners' lock: a concurrent PUT never
 * writes back a stale `active` or password.
 */
export async function updateTeamMember(ctx: ActingContext, id: number, input: TeamMemberInput, targets: RoleTargets = {}): Promise<TeamMemberBody> {
  await findMemberToActOn(ctx, id);
  const errors = new FieldErrors();
  if (input.email !== undefined && !input.email.trim()) errors.add('email', "can't be blank");
  const email = await checkIdentity(ctx, input, errors, id);
  checkPassword(input.password, errors, false);
  const assignments = input.roles === undefined ? undefined : await resolveRoles(ctx, targets, input.roles, errors);
  errors.throwIfAny();
  if (assignments) assertMayGrant(ctx.actor, assignments.map((a) => a.grant));
  const { first, last } = nameParts(input);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await lockOwners(tx);
    await lockMemberToActOn(ctx, tx, id);
    const [updated] = await tx.update(admins).set({
      email, firstName: first, lastName: last, passwordHash, active: input.active, updatedAt: now,
    }).where(eq(admins.id, id)).returning({ active: admins.active }).catch((err) => {
      throw uniqueViolation(err) !== null ? emailTaken() : err;
    });
    if (assignments) {
      await tx.delete(roleAssignments).where(eq(roleAssignments.adminId, id));
      if (assignments.length) {
        await tx.insert(roleAssignments).values(assignments.map((a) => ({ roleId: a.roleId, target: a.target, adminId: id, createdAt: now })));
      }
    }
    await assertOwnerRemains(tx);
    // Deactivating a member ends their sessions and their tokens at once.
    if (!updated.active) await endAccess(tx, id);
  });
  ctx.caches.changed('access', `admin:${id}`, 'roles');
  return teamMemberById(ctx, id);
}

export async function deleteTeamMember(ctx: ActingContext, id: number): Promise<void> {
  await findMemberToActOn(ctx, id);
  await ctx.db.transaction(async (tx) => {
    await lockOwners(tx);
    await lockMemberToActOn(ctx, tx, id);
    await tx.delete(admins).where(eq(admins.id, id));
    await assertOwnerRemains(tx);
  });
  ctx.caches.changed('access', `admin:${id}`, 'roles');
}

/**
 * Serializes every change that could take the last owner away: the owner role's row is locked for
 * the rest of the transaction, so two concurrent deactivations of the last two owners cannot both
 * see the other one still active.
 */
async function lockOwners(db: Db): Promise<void> {
  await db.select({ id: roles.id }).from(roles).where(eq(roles.key, OWNER_ROLE)).for('update');
}

/** The account must keep one active owner, or nobody could administer it any more. */
async function assertOwnerRemains(db: Db): Promise<void> {
  const [{ total }] = await db.select({ total: count() }).from(roleAssignments)
    .innerJoin(roles, eq(roles.id, roleAssignments.roleId)).innerJoin(admins, eq(admins.id, roleAssignments.adminId))
    .where(and(eq(roles.key, OWNER_ROLE), eq(admins.active, true)));
  if (total === 0) throw lastOwner();
}

export async function endAccess(db: Db, adminId: number): Promise<void> {
  await db.delete(adminSessions).where(eq(adminSessions.adminId, adminId));
  await db.delete(accessTokens).where(eq(accessTokens.adminId, adminId));
}
