import type { Context } from '../context.js';

/**
 * Any change to members, roles, assignments, tokens, applications or realm uids: the cached bearer
 * principals and roles catalogue (`ctx.caches.of('access')`) are dropped here and in every other
 * server process (Directus caches permissions the same way).
 */
export function accessChanged(ctx: Context): void {
  ctx.caches.changed('access');
}
