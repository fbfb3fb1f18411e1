import type { Permission } from './permissions.js';

export interface Grant {
  key: string;
  context: string;
  /** The realm or space uid the role applies to; null applies everywhere the context reaches. */
  target: string | null;
  permissions: string[];
}

/** The team member behind a request, with the roles it acts with. */
export class AdminPrincipal {
  constructor(
    readonly adminId: number,
    readonly email: string,
    readonly grants: Grant[],
    readonly via: 'token' | 'session',
    /** The admin session row, when the request came with the session cookie. */
    readonly sessionId: number | null = null,
  ) {}

  /**
   * Account roles apply everywhere; a realm or space role applies to its target only. Without a
   * target (a list across realms, say), any role that carries the permission is enough.
   */
  can(permission: Permission, target?: string): boolean {
    return this.grants.some((grant) => grant.permissions.includes(permission)
      && (grant.context === 'account' || grant.target === null || target === undefined || grant.target === target));
  }

  /**
   * Where a permission reaches: null when everywhere (an account role, or a role without a target),
   * otherwise the targets of the roles that carry it (empty when none does).
   */
  targetsOf(permission: Permission): string[] | null {
    const grants = this.grants.filter((grant) => grant.permissions.includes(permission));
    if (grants.some((grant) => grant.context === 'account' || grant.target === null)) return null;
    return [...new Set(grants.map((grant) => grant.target!))];
  }
}
