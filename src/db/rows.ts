/** The rows of a raw `db.execute`, which both drivers (pg and PGlite) answer with a `rows` array. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
