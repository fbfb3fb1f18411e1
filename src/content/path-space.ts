import type { preHandlerAsyncHookHandler } from 'fastify';
import type { Context } from '../context.js';
import { requireSpace, type Space } from './spaces.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The content space an admin route's path names (`:space_uid`), loaded once before the handler by
     * `resolvePathSpace`. Set on those routes only.
     */
    space: Space;
  }
}

/**
 * The admin catalog's hook that loads the space of a path naming `:space_uid` (404 `Space` when there is
 * none), after the credential guard and validation and inside the audit log's transaction of a write, as
 * the realms' hook does for `:realm_uid` (realms/path-realm.ts).
 */
export function resolvePathSpace(ctx: Context): preHandlerAsyncHookHandler {
  return async function pathSpace(request) {
    const uid = (request.params as Record<string, unknown> | undefined)?.space_uid;
    if (typeof uid !== 'string') return;
    request.space = await requireSpace(ctx, uid);
  };
}
