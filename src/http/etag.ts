import { createHash } from 'node:crypto';

/** A strong ETag of an answer's bytes: their SHA-256. */
export const strongEtag = (body: string) => `"${createHash('sha256').update(body).digest('base64url')}"`;

/** A weak comparison, as If-None-Match asks: `W/"x"` matches `"x"`; `*` matches anything; a list matches by any of its tags. */
export function ifNoneMatchHits(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}
