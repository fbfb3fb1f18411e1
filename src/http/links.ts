const FORBIDDEN_IN_URL = /[\s\\\u0000-\u001f\u007f]/;

export interface LinkRule {
  /** Longest address accepted. */
  max: number;
  /** Schemes an absolute address may have, in lower case, without the colon. */
  schemes: readonly string[];
}

/**
 * Why an address given by an admin for end users' browsers is refused, or null: an absolute address of
 * one of the rule's schemes with a host, or a path starting with one "/".
 */
export function linkProblem(url: string, rule: LinkRule): string | null {
  if (url.length > rule.max) return `is too long (maximum is ${rule.max} characters)`;
  if (FORBIDDEN_IN_URL.test(url)) return 'may not contain blanks, control characters or backslashes';
  // "//host/..." is a path in form only: a browser follows it to another host.
  if (url.startsWith('/') && !url.startsWith('//')) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1].toLowerCase();
  if (scheme && rule.schemes.includes(scheme) && URL.canParse(url) && new URL(url).hostname) return null;
  return `must be an absolute ${rule.schemes.join(' or ')} address, or a path starting with "/"`;
}
