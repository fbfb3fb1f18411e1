import type { FastifyPluginAsync } from 'fastify';
import type { Context } from '../../context.js';
import { routeNotFound } from '../../errors/index.js';
import { PUBLIC_IMMUTABLE, sendStoredObject } from '../../http/stored-object.js';
import { extensionOf, mediaTypeOf } from '../../storage/checks.js';
import { AVATAR_FILE, AVATAR_URL_PREFIX, avatarKey } from '../avatar-files.js';

/**
 * Serves users' avatars. Their names are random UUIDs, so an address is known only to whoever was
 * shown it; the content was checked to be the image type its extension names, and is served as such.
 */
export function avatarFileRoutes(ctx: Context): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { name: string } }>(`${AVATAR_URL_PREFIX}:name`, { schema: { hide: true } }, async (request, reply) => {
      const { name } = request.params;
      const object = AVATAR_FILE.test(name) ? await ctx.storage.get(avatarKey(name)) : null;
      if (!object) throw routeNotFound();
      return sendStoredObject(reply, object, { contentType: mediaTypeOf(extensionOf(name)), cacheControl: PUBLIC_IMMUTABLE });
    });
  };
}
