import type { Permission } from '../admin-auth/permissions.js';
import type { Context } from '../context.js';

/**
 * A kind of item an editor locks while editing it (a content entry, a site's layout or page), given
 * by the feature that owns it (`lockables` in its module.ts): the permissions that reach its locks,
 * and how to find the site or space an item belongs to.
 */
export interface Lockable {
  /** Sees the item's locks (GET /locks). */
  read: Permission;
  /** Takes a lock on the item; its writes are what the lock guards. */
  write: Permission;
  /** Takes another member's live lock over, or releases it. */
  takeOver: Permission;
  /**
   * The item by the id a client sent: its id as locks store it (a uuid in lower case, say) and the uid
   * of the site or space it belongs to (the target of the permissions); null when there is no such item.
   */
  find(ctx: Context, id: string): Promise<{ id: string; scope: string } | null>;
}

/** Lockable kinds by `resource_type`. */
export type Lockables = Record<string, Lockable>;

/** The lockable kinds of every module, in one map. */
export function lockablesOf(modules: readonly { lockables?: Lockables }[]): Lockables {
  return Object.assign(Object.create(null) as Lockables, ...modules.map((m) => m.lockables ?? {}));
}

export const lockableOf = (lockables: Lockables, type: string): Lockable | undefined =>
  (Object.hasOwn(lockables, type) ? lockables[type] : undefined);
