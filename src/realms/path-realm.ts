import type { preHandlerAsyncHookHandler } from 'fastify';
import type { Context } from '../context.js';
import { requireRealm, type Realm } from './realms.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The realm an admin route's path names (`:realm_uid`), loaded once before the handler by
     * `resolvePathRealm`. Set on those routes only.
     */
    realm: Realm;
  }
}

/**
 * The admin catalog's hook that loads the realm of a path naming `:realm_uid` (404 `Realm` when there is
 * none). It runs as a preHandler: after the credential guard (401, then 403 on the route's permission for
 * that realm, come first), after validation (400, 422), and inside the audit log's transaction of a write,
 * where the handlers used to load it.
 */
export function resolvePathRealm(ctx: Context): preHandlerAsyncHookHandler {
  return async function pathRealm(request) {
    const uid = (request.params as Record<string, unknown> | undefined)?.realm_uid;
    if (typeof uid !== 'string') return;
    request.realm = await requireRealm(ctx, uid);
  };
}
