import type { RouteOptions } from 'fastify';

/** Path parameters that name what a targeted role (a realm's, a space's, a site's) must match. */
const TARGET_PARAMETERS = ['realm_uid', 'space_uid', 'site_uid'];

/**
 * Checks, as each admin route is registered, that it says who may call it: `config.access` (a
 * permission, `signed-in` or `public`, hidden routes included), and, where its path names a realm or
 * a space and a permission is needed, which parameter the permission's target is (`config.target`).
 * A route that does not fails the server's start, so no route is ever served unguarded by omission.
 */
export function requireAccessRule(route: RouteOptions): void {
  const name = `${[route.method].flat().join(',')} ${route.url}`;
  const access = route.config?.access;
  if (!access) throw new Error(`${name} declares no access rule (config.access: a permission, 'signed-in' or 'public')`);
  if (access === 'public' || access === 'signed-in') return;
  const named = TARGET_PARAMETERS.find((parameter) => route.url.includes(`:${parameter}`));
  if (named && !route.config?.target) throw new Error(`${name} names :${named} but declares no target for ${access} (config.target)`);
}
