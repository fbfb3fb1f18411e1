/**
 * What the published OpenAPI documents add to the routes' schemas, and leave out of them, so that they
 * lint clean with Redocly's recommended rules (test/foundation/openapi-lint.test.ts).
 */

/**
 * An operation's name for generated clients, from its summary: "List team members" → `listTeamMembers`.
 * Stable while the summary is, and unique in a document since summaries are (the lint checks both).
 */
export function operationIdOf(summary: string): string {
  const words = summary.replace(/['’]/g, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((word, i) => (i ? word[0].toUpperCase() + word.slice(1) : word.toLowerCase())).join('');
}

/** A copy without the validator's own keywords (`finite`, http/finite.ts), which no other tool knows. */
export function withoutOwnKeywords<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutOwnKeywords) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'finite' && typeof inner === 'boolean') continue;
    copy[key] = withoutOwnKeywords(inner);
  }
  return copy as T;
}
