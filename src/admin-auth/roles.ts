import { and, asc, desc, eq, ilike, or, sql } from 'drizzle-orm';
import { sortKeyOf } from '../db/sorting.js';
import type { Context } from '../context.js';
import { AppError, FieldErrors, notFound } from '../http/errors.js';
import type { Page } from '../http/pagination.js';
import { containing } from '../db/like.js';
import { totalCount, totalOf } from '../db/paging.js';
import { prepared } from '../db/prepared.js';
import type { Db } from '../db/connect.js';
import { BUILT_IN_ROLES, OWNER_ROLE, ROLE_CONTEXTS, builtInRole } from './built-in-roles.js';
import { isPermission } from './permissions.js';
import { accessChanged } from './access-cache.js';
import { roles } from './tables.js';

export type Role = typeof roles.$inferSelect;

export interface RoleBody {
  id: number;
  key: string;
  name: string;
  context: string;
  read_only: boolean;
  restorable: boolean;
  users_count: number;
  permissions: string[];
  created_at: string;
  updated_at: string;
}

const isReadOnly = (role: Role) => role.key === OWNER_ROLE;

export function roleBody(role: Role, usersCount: number): RoleBody {
  return {
    id: role.id,
    key: role.key,
    name: role.name,
    context: role.context,
    read_only: isReadOnly(role),
    restorable: role.builtIn && !isReadOnly(role),
    users_count: usersCount,
    permissions: role.permissions,
    created_at: role.createdAt.toISOString(),
    updated_at: role.updatedAt.toISOString(),
  };
}

/** Creates the built-in roles that are missing; an edited built-in role keeps its edits. */
export async function ensureBuiltInRoles(ctx: Context): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.insert(roles).values(BUILT_IN_ROLES.map((role) => ({
    key: role.key, name: role.name, context: role.context, builtIn: true, permissions: role.permissions, createdAt: now, updatedAt: now,
  }))).onConflictDoNothing({ target: roles.key });
  accessChanged(ctx);
}

// Spelled out: inside select fields Drizzle renders columns unqualified, which the subquery would misread.
const usersCount = sql<number>`(select count(*)::int from role_assignments ra where ra.role_id = "roles"."id")`;

const SORTABLE = { id: roles.id, key: roles.key, name: roles.name, context: roles.context, created_at: roles.createdAt, updated_at: roles.updatedAt };
type SortKey = keyof typeof SORTABLE;

export interface RoleListQuery {
  query?: string;
  sort_by?: string;
  order?: string;
}

const pattern = sql.placeholder('pattern');
const matching = sql`(${pattern}::text is null or ${roles.name} ilike ${pattern} or ${roles.key} ilike ${pattern})`;

// One prepared statement per order: the list is read on every visit of the roles page.
const rolesPage = (db: Db, sortKey: SortKey, descending: boolean) => prepared(db, `roles_page_${sortKey}_${descending ? 'desc' : 'asc'}`,
  (d, name) => d.select({ role: roles, usersCount, total: totalCount }).from(roles).where(matching)
    .orderBy((descending ? desc : asc)(SORTABLE[sortKey]), asc(roles.id))
    .limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).prepare(name));

export async function listRoles(ctx: Context, page: Page, query: RoleListQuery = {}): Promise<{ items: RoleBody[]; total: number }> {
  const sortKey = sortKeyOf(SORTABLE, query.sort_by, 'id');
  const descending = query.order?.toLowerCase() === 'desc';
  const text = query.query ? containing(query.query) : null;
  const now = ctx.clock.now();
  const rolePages = ctx.caches.of<{ items: RoleBody[]; total: number }>('access');
  const cacheKey = `roles:${JSON.stringify([sortKey, descending, text, page.perPage, page.offset])}`;
  const cached = rolePages.get(cacheKey, now);
  if (cached) return cached;
  const rows = await rolesPage(ctx.db, sortKey, descending)
    .execute({ pattern: text, limit: page.perPage, offset: page.offset });
  const total = await totalOf(rows, page, ctx.db, roles, text ? or(ilike(roles.name, text), ilike(roles.key, text)) : undefined);
  const result = { items: rows.map((r) => roleBody(r.role, r.usersCount)), total };
  rolePages.set(cacheKey, result, now);
  return result;
}

export async function getRole(ctx: Context, id: number): Promise<RoleBody> {
  const [row] = await ctx.db.select({ role: roles, usersCount }).from(roles).where(eq(roles.id, id));
  if (!row) throw notFound('Role');
  return roleBody(row.role, row.usersCount);
}

export async function findRoleByKey(ctx: Context, key: string): Promise<Role | undefined> {
  const [role] = await ctx.db.select().from(roles).where(eq(roles.key, key));
  return role;
}

export interface RoleInput {
  key?: string;
  name?: string;
  context?: string;
  permissions?: string[];
}

function checkPermissions(errors: FieldErrors, permissions: string[] | undefined): void {
  const unknown = permissions?.filter((p) => !isPermission(p)) ?? [];
  if (unknown.length) errors.add('permissions', `has unknown permissions: ${unknown.join(', ')}`);
}

export async function createRole(ctx: Context, input: RoleInput): Promise<RoleBody> {
  const errors = new FieldErrors();
  const name = input.name?.trim() ?? '';
  const key = input.key?.trim() || name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
  if (!name) errors.add('name', "can't be blank");
  if (!key) errors.add('key', "can't be blank");
  else if (!/^[a-z][a-z0-9_]{1,62}$/.test(key)) errors.add('key', 'must be lowercase letters, digits and underscores');
  else if (await findRoleByKey(ctx, key)) errors.add('key', 'has already been taken');
  if (!ROLE_CONTEXTS.includes(input.context as never)) errors.add('context', `must be one of ${ROLE_CONTEXTS.join(', ')}`);
  checkPermissions(errors, input.permissions);
  errors.throwIfAny();
  const now = ctx.clock.now();
  const [role] = await ctx.db.insert(roles).values({
    key, name, context: input.context!, builtIn: false, permissions: [...new Set(input.permissions ?? [])], createdAt: now, updatedAt: now,
  }).onConflictDoNothing({ target: roles.key }).returning();
  if (!role) throw new AppError(422, ['Key has already been taken'], [{ field: 'key', messages: ['has already been taken'] }]);
  accessChanged(ctx);
  return roleBody(role, 0);
}

async function editableRole(ctx: Context, id: number): Promise<Role> {
  const [role] = await ctx.db.select().from(roles).where(eq(roles.id, id));
  if (!role) throw notFound('Role');
  if (isReadOnly(role)) throw new AppError(422, [`The role ${role.key} cannot be changed`]);
  return role;
}

/** Name and permissions can change; a role's key and context are fixed, since assignments depend on them. */
export async function updateRole(ctx: Context, id: number, input: RoleInput): Promise<RoleBody> {
  const role = await editableRole(ctx, id);
  const errors = new FieldErrors();
  if (input.name !== undefined && !input.name.trim()) errors.add('name', "can't be blank");
  if (input.key !== undefined && input.key !== role.key) errors.add('key', 'cannot be changed');
  if (input.context !== undefined && input.context !== role.context) errors.add('context', 'cannot be changed');
  checkPermissions(errors, input.permissions);
  errors.throwIfAny();
  await ctx.db.update(roles).set({
    name: input.name?.trim() ?? role.name,
    permissions: input.permissions ? [...new Set(input.permissions)] : role.permissions,
    updatedAt: ctx.clock.now(),
  }).where(eq(roles.id, id));
  accessChanged(ctx);
  return getRole(ctx, id);
}

export async function deleteRole(ctx: Context, id: number): Promise<void> {
  const role = await editableRole(ctx, id);
  if (role.builtIn) throw new AppError(422, [`The built-in role ${role.key} cannot be deleted; restore it instead`]);
  await ctx.db.delete(roles).where(and(eq(roles.id, id), eq(roles.builtIn, false)));
  accessChanged(ctx);
}

export async function restoreRole(ctx: Context, id: number): Promise<RoleBody> {
  const role = await editableRole(ctx, id);
  const defaults = builtInRole(role.key);
  if (!role.builtIn || !defaults) throw new AppError(422, [`The role ${role.key} is not a built-in role`]);
  await ctx.db.update(roles).set({ name: defaults.name, permissions: defaults.permissions, updatedAt: ctx.clock.now() })
    .where(eq(roles.id, id));
  accessChanged(ctx);
  return getRole(ctx, id);
}
