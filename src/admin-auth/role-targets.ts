import { and, eq, inArray } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import type { RoleContext } from './permissions.js';
import { roleAssignments, roles } from '../tables/admin-auth.js';

/**
 * How the target of a realm or space role is known to exist, per context: given by the features that
 * own realms and spaces when the routes are assembled. A context without a check accepts any
 * well-formed uid.
 */
export type RoleTargets = Partial<Record<RoleContext, (ctx: Context, uid: string) => Promise<boolean>>>;

export async function targetExists(ctx: Context, targets: RoleTargets, context: string, uid: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(uid)) return false;
  const check = Object.hasOwn(targets, context) ? targets[context as RoleContext] : undefined;
  return check ? check(ctx, uid) : true;
}

const rolesOfContext = (db: Db, context: RoleContext) => db.select({ id: roles.id }).from(roles).where(eq(roles.context, context));

/** A renamed target (a realm's new uid): the role assignments that named it follow. */
export async function retarget(db: Db, context: RoleContext, from: string, to: string): Promise<void> {
  await db.update(roleAssignments).set({ target: to })
    .where(and(eq(roleAssignments.target, from), inArray(roleAssignments.roleId, rolesOfContext(db, context))));
}

/** A removed target: the role assignments that named it go, so a later one of the same uid inherits nothing. */
export async function dropTarget(db: Db, context: RoleContext, uid: string): Promise<void> {
  await db.delete(roleAssignments)
    .where(and(eq(roleAssignments.target, uid), inArray(roleAssignments.roleId, rolesOfContext(db, context))));
}
