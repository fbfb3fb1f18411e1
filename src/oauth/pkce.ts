import { createHash } from 'node:crypto';
import { safeEqual } from '../security/secrets.js';

/** RFC 7636 4.1/4.2: 43 to 128 characters of the unreserved set. */
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

export const wellFormedPkceValue = (value: string) => PKCE_VALUE.test(value);

export function pkceMethods(plainAllowed: boolean): string[] {
  return plainAllowed ? ['S256', 'plain'] : ['S256'];
}

/** RFC 7636 4.2: the S256 challenge of a verifier. */
export const s256Challenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** Whether the verifier matches the challenge stored with the code; compared in constant time. */
export function verifierMatches(verifier: string, challenge: string, method: string): boolean {
  if (!wellFormedPkceValue(verifier)) return false;
  const derived = method === 'plain' ? verifier : s256Challenge(verifier);
  return safeEqual(derived, challenge);
}
