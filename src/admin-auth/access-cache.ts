import { TtlCache } from '../ttl-cache.js';
import type { AdminPrincipal } from './principal.js';
import type { RoleBody } from './roles.js';

/**
 * What every admin request reads: the principal behind a bearer token, and the roles catalogue.
 * Both are kept two seconds, so a busy client costs one lookup per two seconds instead of one per
 * request (Directus caches permissions the same way). Any change to members, roles, assignments,
 * tokens, applications or realm uids in this process calls `accessChanged()` and empties both at
 * once; another server process sees such a change within the two seconds.
 */
export const ACCESS_CACHE_MS = 2000;

export const principals = new TtlCache<AdminPrincipal>(ACCESS_CACHE_MS, 10_000);

export const rolePages = new TtlCache<{ items: RoleBody[]; total: number }>(ACCESS_CACHE_MS, 1_000);

export function accessChanged(): void {
  principals.clear();
  rolePages.clear();
}
