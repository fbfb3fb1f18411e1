/** The constraint a failed write ran into when PostgreSQL answered `code`; drizzle wraps the driver's error in `cause`. */
function violated(err: unknown, code: string): string | null {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === code) return e.constraint ?? '';
  }
  return null;
}

/** The name of the unique index a failed write ran into (23505, both drivers), or null when the error is something else. */
export const uniqueViolation = (err: unknown): string | null => violated(err, '23505');

/** The name of the foreign key a failed write ran into (23503: the row it names is gone), or null. */
export const foreignKeyViolation = (err: unknown): string | null => violated(err, '23503');
