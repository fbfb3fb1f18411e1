import type { FastifyRequest } from 'fastify';
import { badRequest } from './errors.js';

/** True when a string, or any key or string inside an object or array, holds a NUL character. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, inner]) => key.includes('\u0000') || holdsNul(inner));
  }
  return false;
}

const refusal = () => badRequest('The request contains a NUL character, which no text may hold');

/**
 * PostgreSQL refuses NUL in text and jsonb, so no string holding one may reach a query. Path and
 * query are checked on request, before the catalogs' credential guards read them (root hooks run
 * first); parsed bodies before validation.
 */
export async function refuseNulInUrl(request: FastifyRequest): Promise<void> {
  if (holdsNul(request.params) || holdsNul(request.query)) throw refusal();
}

export async function refuseNulInBody(request: FastifyRequest): Promise<void> {
  if (holdsNul(request.body)) throw refusal();
}
