import type { FastifyPluginAsync } from 'fastify';
import type { Context } from '../context.js';

export function healthRoutes(ctx: Context): FastifyPluginAsync {
  return async (app) => {
    app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
      try {
        await ctx.database.ping();
        return { status: 'ok' };
      } catch {
        return reply.code(503).send({ status: 'unavailable' });
      }
    });
  };
}
