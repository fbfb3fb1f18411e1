import type { AdminPrincipal } from './principal.js';

/**
 * Resolved bearer tokens, kept for two seconds so that a busy client costs one lookup per token
 * every two seconds instead of one per request. Any change to who may do what in this process
 * (members, roles, assignments, tokens, applications) empties it at once; another server process
 * sees such a change within the two seconds.
 */
const TTL_MS = 2000;
const MAX_ENTRIES = 10_000;
const entries = new Map<string, { principal: AdminPrincipal; until: number }>();

export function cachedPrincipal(tokenHash: string, now: Date): AdminPrincipal | undefined {
  const entry = entries.get(tokenHash);
  if (!entry) return undefined;
  if (entry.until > now.getTime()) return entry.principal;
  entries.delete(tokenHash);
  return undefined;
}

export function rememberPrincipal(tokenHash: string, principal: AdminPrincipal, now: Date): void {
  if (entries.size >= MAX_ENTRIES) entries.clear();
  entries.set(tokenHash, { principal, until: now.getTime() + TTL_MS });
}

export function forgetCredentials(): void {
  entries.clear();
}
