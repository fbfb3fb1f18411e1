import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';

/**
 * A preHandler that runs `load` with the value of a path parameter, for a route whose path names it, and
 * does nothing elsewhere: a feature loads what its parameter names once for every handler (the admin
 * catalog's `:realm_uid` and `:space_uid`, through the modules' `adminPreHandlers`).
 */
export function onPathParameter(name: string, load: (request: FastifyRequest, value: string) => Promise<void>): preHandlerAsyncHookHandler {
  return async function pathParameter(request) {
    const value = (request.params as Record<string, unknown> | undefined)?.[name];
    if (typeof value === 'string') await load(request, value);
  };
}
