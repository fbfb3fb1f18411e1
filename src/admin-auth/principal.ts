import type { Context } from '../context.js';
import { forbidden } from '../errors/index.js';
import { OWNER_ROLE } from './built-in-roles.js';
import { ALL_PERMISSIONS, permittedIn, type Permission } from './permissions.js';

export interface Grant {
  key: string;
  context: string;
  /** The realm or space uid the role applies to; null applies everywhere the context reaches. */
  target: string | null;
  permissions: string[];
}

export interface TargetedPermissions {
  context: string;
  target: string;
  permissions: string[];
}

export interface EffectivePermissions {
  everywhere: string[];
  targets: TargetedPermissions[];
}

/** An account role applies everywhere, and so does a role given without a target. */
const reachesEverywhere = (grant: Grant): boolean => grant.context === 'account' || grant.target === null;

/** The team member behind a request, with the roles it acts with. */
export class AdminPrincipal {
  /** Each grant with only the permissions its role's context allows (a stored role could carry more). */
  readonly grants: Grant[];

  constructor(
    readonly adminId: number,
    grants: Grant[],
    /** The admin session row, when the request came with the session cookie. */
    readonly sessionId: number | null = null,
    /** The API access application of the bearer token the request came with. */
    readonly applicationId: number | null = null,
  ) {
    this.grants = grants.map((g) => ({ ...g, permissions: g.permissions.filter((p) => permittedIn(g.context, p)) }));
  }

  /** Who acts when the installation itself does (a first start creating the owner). */
  static system(): AdminPrincipal {
    return new AdminPrincipal(0, [{ key: OWNER_ROLE, context: 'account', target: null, permissions: [...ALL_PERMISSIONS] }]);
  }

  /*
   * Where a permission holds, each question by its own name (a missing target means nothing):
   * an account role, or a role without a target, holds everywhere; a realm, space or site role holds
   * on its target only.
   */

  /** The member holds the permission on this realm, space or site: everywhere, or by a role on that target. */
  holdsOn(permission: Permission, target: string): boolean {
    return this.grants.some((grant) => grant.permissions.includes(permission) && (reachesEverywhere(grant) || grant.target === target));
  }

  /** The member holds the permission everywhere: by an account role, or a role without a target. */
  holdsEverywhere(permission: Permission): boolean {
    return this.grants.some((grant) => grant.permissions.includes(permission) && reachesEverywhere(grant));
  }

  /**
   * Some role of the member carries the permission, wherever it reaches: enough for a list across
   * realms, which the operation then narrows with `targetsOf`.
   */
  holdsSomewhere(permission: Permission): boolean {
    return this.grants.some((grant) => grant.permissions.includes(permission));
  }

  /**
   * Refuses, with the admin guard's 403, unless the member holds the permission on the target, or (no
   * target: a list the operation then narrows with `targetsOf`) somewhere. The guard asks this first;
   * an admin operation asks it again for itself (`ctx.actor.assertHolds(...)`).
   */
  assertHolds(permission: Permission, target?: string): void {
    if (!(target === undefined ? this.holdsSomewhere(permission) : this.holdsOn(permission, target))) throw forbidden();
  }

  /**
   * What the member may do, for a client to show only what it can: the permissions held everywhere
   * (account roles, and roles without a target), then those held on one realm, space or site.
   */
  effectivePermissions(): EffectivePermissions {
    const everywhere = new Set(this.grants.filter(reachesEverywhere).flatMap((g) => g.permissions));
    const targeted = new Map<string, TargetedPermissions>();
    for (const grant of this.grants) {
      if (grant.context === 'account' || grant.target === null) continue;
      const key = JSON.stringify([grant.context, grant.target]);
      const entry = targeted.get(key) ?? { context: grant.context, target: grant.target, permissions: [] };
      entry.permissions = [...new Set([...entry.permissions, ...grant.permissions.filter((p) => !everywhere.has(p))])];
      targeted.set(key, entry);
    }
    return { everywhere: [...everywhere].sort(), targets: [...targeted.values()].filter((t) => t.permissions.length).map((t) => ({ ...t, permissions: t.permissions.sort() })) };
  }

  get isOwner(): boolean {
    return this.grants.some((grant) => grant.key === OWNER_ROLE);
  }

  /**
   * Where a permission reaches: null when everywhere (an account role, or a role without a target),
   * otherwise the targets of the roles that carry it (empty when none does).
   */
  targetsOf(permission: Permission): string[] | null {
    const grants = this.grants.filter((grant) => grant.permissions.includes(permission));
    if (grants.some(reachesEverywhere)) return null;
    return [...new Set(grants.map((grant) => grant.target!))];
  }
}

/** What an admin operation is given: the context, and who acts (Directus's `accountability`). */
export interface ActingContext extends Context {
  actor: AdminPrincipal;
}

export function actingAs(ctx: Context, actor: AdminPrincipal): ActingContext {
  return { ...ctx, actor };
}
