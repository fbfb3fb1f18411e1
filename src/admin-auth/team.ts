import { and, asc, count, desc, eq, ilike, inArray, or } from 'drizzle-orm';
import { orderOf } from '../db/sorting.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { containing } from '../db/like.js';
import { totalCount, totalOf } from '../db/paging.js';
import { uniqueViolation } from '../db/unique.js';
import { AppError, FieldErrors, notFound } from '../http/errors.js';
import type { Page } from '../http/pagination.js';
import { hashPassword, passwordWeakness } from '../security/passwords.js';
import { OWNER_ROLE } from './built-in-roles.js';
import { targetExists } from './targets.js';
import { accessChanged } from './access-cache.js';
import { accessTokens, adminSessions, admins, roleAssignments, roles } from './tables.js';

export type Admin = typeof admins.$inferSelect;

export interface RoleRef {
  key: string;
  target: string | null;
}

export interface TeamMemberBody {
  id: number;
  email: string;
  name: string;
  first_name: string;
  last_name: string;
  active: boolean;
  roles: RoleRef[];
  created_at: string;
  updated_at: string;
}

export interface TeamMemberInput {
  email?: string;
  first_name?: string;
  last_name?: string;
  name?: string;
  password?: string;
  active?: boolean;
  roles?: { key: string; target?: string | null }[];
}

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

const SORTABLE = { id: admins.id, email: admins.email, first_name: admins.firstName, last_name: admins.lastName, created_at: admins.createdAt, updated_at: admins.updatedAt };

export async function listTeamMembers(ctx: Context, page: Page, query: { query?: string; sort_by?: string; order?: string } = {}) {
  const text = query.query ? containing(query.query) : undefined;
  const where = text ? or(ilike(admins.email, text), ilike(admins.firstName, text), ilike(admins.lastName, text)) : undefined;
  const rows = await ctx.db.select({ admin: admins, total: totalCount }).from(admins).where(where)
    .orderBy(orderOf(SORTABLE, query, admins.updatedAt, 'desc'), desc(admins.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, admins, where);
  const roleMap = await rolesOf(ctx.db, rows.map((r) => r.admin.id));
  return { items: rows.map(({ admin }) => teamMemberBody(admin, roleMap.get(admin.id) ?? [])), total };
}

export async function findAdmin(ctx: Context, id: number): Promise<Admin> {
  const [admin] = await ctx.db.select().from(admins).where(eq(admins.id, id));
  if (!admin) throw notFound('Team member');
  return admin;
}

export async function getTeamMember(ctx: Context, id: number): Promise<TeamMemberBody> {
  const admin = await findAdmin(ctx, id);
  return teamMemberBody(admin, (await rolesOf(ctx.db, [id])).get(id) ?? []);
}

/** Checks each role reference and resolves it to a role id; problems are added to `errors`. */
async function resolveRoles(ctx: Context, refs: TeamMemberInput['roles'], errors: FieldErrors) {
  const resolved: { roleId: number; target: string | null }[] = [];
  for (const [i, ref] of (refs ?? []).entries()) {
    const [role] = await ctx.db.select().from(roles).where(eq(roles.key, ref.key));
    const target = ref.target?.trim() || null;
    if (!role) {
      errors.add(`roles.${i}.key`, `is not a known role: ${ref.key}`);
    } else if (role.context === 'account' && target) {
      errors.add(`roles.${i}.target`, 'must be empty for an account role');
    } else if ((role.context === 'realm' || role.context === 'space') && !target) {
      errors.add(`roles.${i}.target`, `must name the ${role.context} the role applies to`);
    } else if (target && !(await targetExists(ctx, role.context, target))) {
      errors.add(`roles.${i}.target`, `is not a known ${role.context}: ${target}`);
    } else if (!resolved.some((r) => r.roleId === role.id && r.target === target)) {
      resolved.push({ roleId: role.id, target });
    }
  }
  return resolved;
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

function checkPassword(password: string | undefined, errors: FieldErrors, required: boolean): void {
  if (password === undefined || password === '') {
    if (required) errors.add('password', "can't be blank");
    return;
  }
  const weakness = passwordWeakness(password);
  if (weakness) errors.add('password', weakness);
}

const emailTaken = () => new AppError(422, ['Email has already been taken'], [{ field: 'email', messages: ['has already been taken'] }]);

export async function createTeamMember(ctx: Context, input: TeamMemberInput): Promise<TeamMemberBody> {
  const errors = new FieldErrors();
  if (input.email === undefined || !input.email.trim()) errors.add('email', "can't be blank");
  const email = await checkIdentity(ctx, input, errors);
  checkPassword(input.password, errors, true);
  const assignments = await resolveRoles(ctx, input.roles, errors);
  errors.throwIfAny();
  const { first, last } = nameParts(input);
  const passwordHash = await hashPassword(input.password!);
  const now = ctx.clock.now();
  const id = await ctx.db.transaction(async (tx) => {
    const [admin] = await tx.insert(admins).values({
      email: email!, firstName: first ?? '', lastName: last ?? '', passwordHash, active: input.active ?? true, createdAt: now, updatedAt: now,
    }).onConflictDoNothing({ target: admins.email }).returning({ id: admins.id });
    if (!admin) throw emailTaken();
    if (assignments.length) {
      await tx.insert(roleAssignments).values(assignments.map((a) => ({ ...a, adminId: admin.id, createdAt: now })));
    }
    return admin.id;
  });
  accessChanged(ctx);
  return getTeamMember(ctx, id);
}

/** PUT is partial: attributes left out keep their value; `roles`, when given, replaces the assignments. */
export async function updateTeamMember(ctx: Context, id: number, input: TeamMemberInput): Promise<TeamMemberBody> {
  const admin = await findAdmin(ctx, id);
  const errors = new FieldErrors();
  if (input.email !== undefined && !input.email.trim()) errors.add('email', "can't be blank");
  const email = await checkIdentity(ctx, input, errors, id);
  checkPassword(input.password, errors, false);
  const assignments = input.roles === undefined ? undefined : await resolveRoles(ctx, input.roles, errors);
  errors.throwIfAny();
  const { first, last } = nameParts(input);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const [updated] = await tx.update(admins).set({
      email: email ?? admin.email,
      firstName: first ?? admin.firstName,
      lastName: last ?? admin.lastName,
      passwordHash: passwordHash ?? admin.passwordHash,
      active: input.active ?? admin.active,
      updatedAt: now,
    }).where(eq(admins.id, id)).returning({ active: admins.active }).catch((err) => {
      throw uniqueViolation(err) !== null ? emailTaken() : err;
    });
    if (assignments) {
      await tx.delete(roleAssignments).where(eq(roleAssignments.adminId, id));
      if (assignments.length) await tx.insert(roleAssignments).values(assignments.map((a) => ({ ...a, adminId: id, createdAt: now })));
    }
    await assertOwnerRemains(tx as unknown as Db);
    // Deactivating a member ends their sessions and their tokens at once.
    if (!updated.active) await endAccess(tx as unknown as Db, id);
  });
  accessChanged(ctx);
  return getTeamMember(ctx, id);
}

export async function deleteTeamMember(ctx: Context, id: number): Promise<void> {
  await findAdmin(ctx, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(admins).where(eq(admins.id, id));
    await assertOwnerRemains(tx as unknown as Db);
  });
  accessChanged(ctx);
}

/** The account must keep one active owner, or nobody could administer it any more. */
async function assertOwnerRemains(db: Db): Promise<void> {
  const [{ total }] = await db.select({ total: count() }).from(roleAssignments)
    .innerJoin(roles, eq(roles.id, roleAssignments.roleId)).innerJoin(admins, eq(admins.id, roleAssignments.adminId))
    .where(and(eq(roles.key, OWNER_ROLE), eq(admins.active, true)));
  if (total === 0) throw new AppError(422, ['The account must keep at least one active member with the account_owner role']);
}

export async function endAccess(db: Db, adminId: number): Promise<void> {
  await db.delete(adminSessions).where(eq(adminSessions.adminId, adminId));
  await db.delete(accessTokens).where(eq(accessTokens.adminId, adminId));
}
