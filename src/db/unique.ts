/**
 * The name of the unique index a failed write ran into, or null when the error is something else.
 * Both drivers report PostgreSQL's code 23505; drizzle wraps the driver's error in `cause`.
 */
export function uniqueViolation(err: unknown): string | null {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return e.constraint ?? '';
  }
  return null;
}
