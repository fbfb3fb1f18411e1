import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { Context } from '../context.js';
import { AVATAR_FILE, AVATAR_URL_PREFIX, avatarsDir } from '../realms/avatar-files.js';
import { AVATAR_TYPES } from '../realms/avatars.js';

/**
 * Serves users' avatars. Their names are random UUIDs, so an address is known only to whoever was
 * shown it; the content was checked to be the image type its extension names, and is served as such.
 */
export function uploadRoutes(ctx: Context): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { name: string } }>(`${AVATAR_URL_PREFIX}:name`, { schema: { hide: true } }, async (request, reply) => {
      const { name } = request.params;
      if (!AVATAR_FILE.test(name)) return reply.code(404).send({ errors: ['Not found'] });
      const file = path.join(avatarsDir(ctx), name);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat?.isFile()) return reply.code(404).send({ errors: ['Not found'] });
      return reply
        .header('content-type', AVATAR_TYPES[path.extname(name).slice(1)])
        .header('content-length', stat.size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(fs.createReadStream(file));
    });
  };
}
