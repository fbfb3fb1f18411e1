import { ilike, or, type AnyColumn, type SQL } from 'drizzle-orm';

const escaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%text%` for ILIKE, with the user's own % and _ taken literally. */
export function containing(text: string): string {
  return `%${escaped(text)}%`;
}

/** `text%` for ILIKE, with the user's own % and _ taken literally. */
export function startingWith(text: string): string {
  return `${escaped(text)}%`;
}

/**
 * A list's `query`: the text (trimmed) contained in any of `columns`, case ignored, its % and _ taken
 * literally; no condition when it is missing or blank.
 */
export function textSearch(query: string | undefined, columns: (AnyColumn | SQL)[]): SQL | undefined {
  const text = query?.trim();
  if (!text) return undefined;
  const pattern = containing(text);
  return or(...columns.map((column) => ilike(column, pattern)));
}
