const escaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%text%` for ILIKE, with the user's own % and _ taken literally. */
export function containing(text: string): string {
  return `%${escaped(text)}%`;
}

/** `text%` for ILIKE, with the user's own % and _ taken literally. */
export function startingWith(text: string): string {
  return `${escaped(text)}%`;
}
