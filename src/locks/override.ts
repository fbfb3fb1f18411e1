import type { FastifyRequest } from 'fastify';

/**
 * The header an API script sends to write an item under someone else's edit lock, taking the lock over
 * (needs the permission to take it over): `Atrium-Lock-Override: take-over`.
 */
export const LOCK_OVERRIDE_HEADER = 'atrium-lock-override';

export const OVERRIDE_DESCRIPTION = 'While another member holds the item\'s edit lock (GET /locks) the write is 409 `ATR_LOCKED` naming them; '
  + `a role that may take the lock over sends \`Atrium-Lock-Override: take-over\` to write anyway, and holds the lock from then on. `
  + 'The writer\'s own lock is renewed.';

export function lockOverrideOf(request: FastifyRequest): boolean {
  const value = request.headers[LOCK_OVERRIDE_HEADER];
  return typeof value === 'string' && value.trim().toLowerCase() === 'take-over';
}
