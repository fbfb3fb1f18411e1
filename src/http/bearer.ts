import type { FastifyRequest } from 'fastify';

/** The token of an `Authorization: Bearer <token>` header; undefined without one or with another scheme. */
export function bearerOf(request: FastifyRequest): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
}
