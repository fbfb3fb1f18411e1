import type { FastifyReply, FastifyRequest } from 'fastify';

/** Every answer, pages, files and errors alike: a browser must not read it as another type than the one declared. */
export function noSniff(_request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  reply.header('x-content-type-options', 'nosniff');
  done();
}

/**
 * API answers are never stored by a browser or proxy unless their route says otherwise. A default
 * rather than a declaration on each route: secrets travel in many answers (access tokens, application
 * and OAuth client secrets, the sign-in's CSRF token) and personal data in most others, and a route
 * added later that forgot its declaration would leak silently; none of them gains from a cache.
 */
export function noStoreByDefault(_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  done(null, payload);
}
