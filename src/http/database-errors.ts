import { DrizzleQueryError } from 'drizzle-orm';

/** SQLSTATEs of a server shutting down or starting (class 57P) and of a broken connection (class 08). */
const UNREACHABLE_STATES = /^(57P0[123]|08...)$/;
const UNREACHABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

/**
 * A database that cannot be reached (down, restarting, the connection cut), rather than a query that
 * failed: the request may well succeed again shortly, so it is a 503, not a 500.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  const cause = error instanceof DrizzleQueryError ? error.cause : error;
  const e = cause as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (UNREACHABLE_STATES.test(code) || UNREACHABLE_ERRNOS.has(code)) return true;
  return typeof e?.message === 'string' && /^(Connection terminated|timeout exceeded when trying to connect)/.test(e.message);
}

/** A database error (pg's or PGlite's): a SQLSTATE code and a severity. */
function isDatabaseError(error: unknown): error is Record<string, unknown> {
  const e = error as Record<string, unknown> | null;
  return typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === 'string';
}

/**
 * What may be logged of an unexpected error. A failed query's message lists the statement's
 * parameters (password and secret hashes among them) and a database error's message and detail
 * quote the values refused: of those only the SQLSTATE code, the constraint, table and column and
 * the query text are kept.
 */
export function loggableError(error: unknown): unknown {
  const failedQuery = error instanceof DrizzleQueryError ? error : undefined;
  const cause = failedQuery ? failedQuery.cause : error;
  if (!failedQuery && !isDatabaseError(cause)) return error;
  const db = isDatabaseError(cause) ? cause : {};
  return {
    type: 'DatabaseError', code: db.code, constraint: db.constraint, table: db.table, column: db.column, query: failedQuery?.query,
  };
}
