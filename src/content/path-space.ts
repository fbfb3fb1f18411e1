import type { Context } from '../context.js';
import { onPathParameter } from '../http/path-parameter.js';
import { requireSpace, type Space } from './spaces.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The content space an admin route's path names (`:space_uid`), loaded by `resolvePathSpace`; set on those routes only. */
    space: Space;
  }
}

/** The admin catalog's hook that loads the space of a path naming `:space_uid` (404 `Space`), as realms/path-realm.ts does realms. */
export const resolvePathSpace = (ctx: Context) => onPathParameter('space_uid', async (request, uid) => {
  request.space = await requireSpace(ctx, uid);
});
