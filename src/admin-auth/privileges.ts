import { forbidden } from '../errors/index.js';
import { OWNER_ROLE } from './built-in-roles.js';
import type { AdminPrincipal, Grant } from './principal.js';
import { permittedIn, type Permission } from './permissions.js';

/**
 * The privilege rules of the administration, each once (DESIGN.md, "Privileges"): a member grants
 * only what it holds itself, only an owner grants the owner role, and nobody acts on a member who
 * holds something it lacks. A grant's reach is its target, or everywhere for an account role.
 */

const reach = (grant: Pick<Grant, 'context' | 'target'>) => (grant.context === 'account' ? null : grant.target);

/** The actor holds the permission wherever `target` says: on that target, or everywhere when null. */
const holdsWhere = (actor: AdminPrincipal, permission: Permission, target: string | null): boolean =>
  (target === null ? actor.holdsEverywhere(permission) : actor.holdsOn(permission, target));

/** The permissions of `grant` that `actor` does not hold where the grant reaches. */
function lacking(actor: AdminPrincipal, grant: Grant): string[] {
  return grant.permissions.filter((p) => permittedIn(grant.context, p) && !holdsWhere(actor, p, reach(grant)));
}

/** The actor may give these roles: it holds every permission they carry, where they reach. */
export function assertMayGrant(actor: AdminPrincipal, grants: Grant[]): void {
  for (const grant of grants) {
    if (grant.key === OWNER_ROLE && !actor.isOwner) throw forbidden(`Only an owner can grant ${OWNER_ROLE}`);
    const missing = lacking(actor, grant);
    if (missing.length) throw forbidden(`You cannot grant ${grant.key}: it carries permissions you do not hold (${missing.join(', ')})`);
  }
}

/**
 * The actor may change, deactivate or remove the member holding `grants`, or mint and revoke its
 * tokens: the member holds nothing the actor lacks, and an owner is acted on by owners only.
 */
export function assertMayActOn(actor: AdminPrincipal, grants: Grant[]): void {
  if (grants.some((g) => g.key === OWNER_ROLE) && !actor.isOwner) throw forbidden('Only an owner can act on an owner');
  const missing = [...new Set(grants.flatMap((grant) => lacking(actor, grant)))];
  if (missing.length) throw forbidden(`This member holds permissions you do not hold (${missing.join(', ')})`);
}

/** The actor may define or change a role carrying these permissions (it reaches everyone who holds the role). */
export function assertMayDefineRole(actor: AdminPrincipal, permissions: string[]): void {
  // A name no role can carry is held nowhere (the role's own validation names it).
  const missing = permissions.filter((p) => !actor.holdsEverywhere(p as Permission));
  if (missing.length) throw forbidden(`You cannot give a role permissions you do not hold (${missing.join(', ')})`);
}
