import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { RoleInput as RoleInputSchema, RoleModel } from './schema.js';
import { sortKeyOf } from '../db/sorting.js';
import type { Context } from '../context.js';
import { builtInRoleKept, FieldErrors, invalidField, notBuiltInRole, notFound, roleReadOnly } from '../errors/index.js';
import { containing, textSearch } from '../db/like.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { prepared } from '../db/prepared.js';
import type { Db } from '../db/connect.js';
import { BUILT_IN_ROLES, OWNER_ROLE, builtInRole } from './built-in-roles.js';
import { isPermission, permittedIn, ROLE_CONTEXTS } from './permissions.js';
import type { ActingContext } from './principal.js';
import { assertMayDefineRole } from './privileges.js';
import { roles } from '../tables/admin-auth.js';

export type Role = typeof roles.$inferSelect;

export type RoleBody = Static<typeof RoleModel>;

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
  ctx.caches.changed('access');
}

// Spelled out: inside select fields Drizzle renders columns unqualified, which the subquery would misread.
const usersCount = sql<number>`(select count(*)::int from role_assignments ra where ra.role_id = "roles"."id")`;

export const ROLE_SORTABLE = { id: roles.id, key: roles.key, name: roles.name, context: roles.context, created_at: roles.createdAt, updated_at: roles.updatedAt };
type SortKey = keyof typeof ROLE_SORTABLE;

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
    .orderBy((descending ? desc : asc)(ROLE_SORTABLE[sortKey]), asc(roles.id))
    .limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).prepare(name));

export async function listRoles(ctx: ActingContext, page: Page, query: RoleListQuery = {}): Promise<{ items: RoleBody[]; total: number }> {
  ctx.actor.assertHolds('roles.read');
  const sortKey = sortKeyOf(ROLE_SORTABLE, query.sort_by, 'id');
  const descending = query.order?.toLowerCase() === 'desc';
  const text = query.query?.trim() ? containing(query.query.trim()) : null;
  const cacheKey = `roles:${JSON.stringify([sortKey, descending, text, page.perPage, page.offset])}`;
  return ctx.caches.of<{ items: RoleBody[]; total: number }>('access').getOrLoad(cacheKey, ctx.clock.now(), async () => {
    const rows = await rolesPage(ctx.db, sortKey, descending)
      .execute({ pattern: text, limit: page.perPage, offset: page.offset });
    const total = await totalOf(rows, page, ctx.db, roles, textSearch(query.query, [roles.name, roles.key]));
    return { items: rows.map((r) => roleBody(r.role, r.usersCount)), total };
  }, () => ['roles']);
}

/** The role as answered, without asking for a permission (the operations that changed it answer with it). */
async function roleById(ctx: Context, id: number): Promise<RoleBody> {
  const [row] = await ctx.db.select({ role: roles, usersCount }).from(roles).where(eq(roles.id, id));
  if (!row) throw notFound('Role');
  return roleBody(row.role, row.usersCount);
}

export async function getRole(ctx: ActingContext, id: number): Promise<RoleBody> {
  ctx.actor.assertHolds('roles.read');
  return roleById(ctx, id);
}

export async function findRoleByKey(ctx: Context, key: string): Promise<Role | undefined> {
  const [role] = await ctx.db.select().from(roles).where(eq(roles.key, key));
  return role;
}

export type RoleInput = Static<typeof RoleInputSchema>;

/** Known permissions, each of the role's own context (a realm role carries no account-wide power). */
function checkPermissions(errors: FieldErrors, context: string | undefined, permissions: string[] | undefined): void {
  const unknown = permissions?.filter((p) => !isPermission(p)) ?? [];
  if (unknown.length) errors.add('permissions', `has unknown permissions: ${unknown.join(', ')}`);
  if (context === undefined) return;
  const foreign = permissions?.filter((p) => isPermission(p) && !permittedIn(context, p)) ?? [];
  if (foreign.length) errors.add('permissions', `has permissions a ${context} role cannot carry: ${foreign.join(', ')}`);
}

export async function createRole(ctx: ActingContext, input: RoleInput): Promise<RoleBody> {
  const errors = new FieldErrors();
  const name = input.name?.trim() ?? '';
  const key = input.key?.trim() || name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
  if (!name) errors.add('name', "can't be blank");
  if (!key) errors.add('key', "can't be blank");
  else if (!/^[a-z][a-z0-9_]{1,62}$/.test(key)) errors.add('key', 'must be lowercase letters, digits and underscores');
  else if (await findRoleByKey(ctx, key)) errors.add('key', 'has already been taken');
  const context = ROLE_CONTEXTS.find((c) => c === input.context);
  if (!context) errors.add('context', `must be one of ${ROLE_CONTEXTS.join(', ')}`);
  checkPermissions(errors, context, input.permissions);
  errors.throwIfAny();
  assertMayDefineRole(ctx.actor, input.permissions ?? []);
  const now = ctx.clock.now();
  const [role] = await ctx.db.insert(roles).values({
    key, name, context: input.context!, builtIn: false, permissions: [...new Set(input.permissions ?? [])], createdAt: now, updatedAt: now,
  }).onConflictDoNothing({ target: roles.key }).returning();
  if (!role) throw invalidField('key', 'has already been taken');
  // A role's permissions are in every principal that holds it.
  ctx.caches.changed('access');
  return roleBody(role, 0);
}

/**
 * A role the actor may change: not the owner role, and carrying nothing the actor lacks. Read in the
 * transaction `db` that writes it, locked FOR UPDATE to its end: the decision and the write see the
 * role as it is then.
 */
async function editableRole(ctx: ActingContext, db: Db, id: number): Promise<Role> {
  const [role] = await db.select().from(roles).where(eq(roles.id, id)).for('update');
  if (!role) throw notFound('Role');
  if (isReadOnly(role)) throw roleReadOnly(role.key);
  assertMayDefineRole(ctx.actor, role.permissions);
  return role;
}

/**
 * Name and permissions can change; a role's key and context are fixed, since assignments depend on them.
 * Only what was sent is written, so a concurrent rename never brings back permissions just removed.
 */
export async function updateRole(ctx: ActingContext, id: number, input: RoleInput): Promise<RoleBody> {
  await ctx.db.transaction(async (tx) => {
    const role = await editableRole(ctx, tx, id);
    const errors = new FieldErrors();
    if (input.name !== undefined && !input.name.trim()) errors.add('name', "can't be blank");
    if (input.key !== undefined && input.key !== role.key) errors.add('key', 'cannot be changed');
    if (input.context !== undefined && input.context !== role.context) errors.add('context', 'cannot be changed');
    checkPermissions(errors, role.context, input.permissions);
    errors.throwIfAny();
    assertMayDefineRole(ctx.actor, input.permissions ?? []);
    await tx.update(roles).set({
      name: input.name?.trim(),
      permissions: input.permissions && [...new Set(input.permissions)],
      updatedAt: ctx.clock.now(),
    }).where(eq(roles.id, id));
  });
  // A role's permissions are in every principal that holds it.
  ctx.caches.changed('access');
  return roleById(ctx, id);
}

export async function deleteRole(ctx: ActingContext, id: number): Promise<void> {
  await ctx.db.transaction(async (txn) => {
    const role = await editableRole(ctx, txn, id);
    if (role.builtIn) throw builtInRoleKept(role.key);
    await txn.delete(roles).where(and(eq(roles.id, id), eq(roles.builtIn, false)));
  });
  // A role's permissions are in every principal that holds it.
  ctx.caches.changed('access');
}

export async function restoreRole(ctx: ActingContext, id: number): Promise<RoleBody> {
  await ctx.db.transaction(async (txn) => {
    const role = await editableRole(ctx, txn, id);
    const defaults = builtInRole(role.key);
    if (!role.builtIn || !defaults) throw notBuiltInRole(role.key);
    assertMayDefineRole(ctx.actor, defaults.permissions);
    await txn.update(roles).set({ name: defaults.name, permissions: defaults.permissions, updatedAt: ctx.clock.now() })
      .where(eq(roles.id, id));
  });
  // A role's permissions are in every principal that holds it.
  ctx.caches.changed('access');
  return roleById(ctx, id);
}
