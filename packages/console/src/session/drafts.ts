/**
 * The drafts of forms whose session ended before they were saved, kept in this tab's session storage until the member
 * signs in again and restores or discards them, or signs out. Each is tagged with the member it belongs to.
 */
const PREFIX = 'atrium.draft:';
/** Fields never written to storage: passwords, client secrets, tokens. */
const SECRET = /password|secret|token/i;

interface Kept { member: number; values: unknown }

/** The values without secret fields and without files (which storage cannot hold), at any depth. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (!value || typeof value !== 'object' || value instanceof Blob) return value instanceof Blob ? null : value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !SECRET.test(key)).map(([key, inner]) => [key, withoutSecrets(inner)]));
}

export function keepDraft(key: string, member: number, values: unknown): void {
  try {
    sessionStorage.setItem(PREFIX + key, JSON.stringify({ member, values: withoutSecrets(values) } satisfies Kept));
  } catch {
    // Storage full or disabled: the edit is lost, as it was before drafts.
  }
}

/** The member's kept draft under this key; another member's (or an unreadable one) is removed. */
export function readDraft(key: string, member: number): unknown {
  const raw = sessionStorage.getItem(PREFIX + key);
  if (raw === null) return undefined;
  try {
    const kept = JSON.parse(raw) as Kept;
    if (kept.member === member) return kept.values;
  } catch {
    // Unreadable: removed below.
  }
  dropDraft(key);
  return undefined;
}

export function dropDraft(key: string): void {
  sessionStorage.removeItem(PREFIX + key);
}

/** Signing out forgets every kept draft. */
export function dropAllDrafts(): void {
  for (let index = sessionStorage.length - 1; index >= 0; index -= 1) {
    const key = sessionStorage.key(index);
    if (key?.startsWith(PREFIX)) sessionStorage.removeItem(key);
  }
}
