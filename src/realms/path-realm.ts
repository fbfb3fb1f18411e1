import type { Context } from '../context.js';
import { onPathParameter } from '../http/path-parameter.js';
import { requireRealm, type Realm } from './realms.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The realm an admin route's path names (`:realm_uid`), loaded by `resolvePathRealm`; set on those routes only. */
    realm: Realm;
  }
}

/**
 * The admin catalog's hook that loads the realm of a path naming `:realm_uid` (404 `Realm` when there is
 * none). It runs as a preHandler: after the credential guard (401, then 403 on the route's permission for
 * that realm, come first), after validation (400, 422), and inside the audit log's transaction of a write,
 * where the handlers used to load it.
 */
export const resolvePathRealm = (ctx: Context) => onPathParameter('realm_uid', async (request, uid) => {
  request.realm = await requireRealm(ctx, uid);
});
