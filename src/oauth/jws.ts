import { sign } from 'node:crypto';
import type { SigningKey } from './signing-keys.js';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A signed JWT (RFC 7519) in compact form: `claims` with `iat` and `exp` (`lifetime` seconds later),
 * signed by the realm's key with node:crypto at once (RS256, or ES256 with its raw r||s signature, RFC 7518 3.4).
 * jose signs through WebCrypto, whose per-call job and argument checks cost more than the RSA signature itself.
 */
export function signJwt(key: SigningKey, typ: string, claims: Record<string, unknown>, at: { now: Date; lifetime: number }): string {
  const iat = Math.floor(at.now.getTime() / 1000);
  const input = `${part({ alg: key.alg, kid: key.kid, typ })}.${part({ ...claims, iat, exp: iat + at.lifetime })}`;
  const signature = sign('sha256', Buffer.from(input), key.alg === 'ES256' ? { key: key.privateKey, dsaEncoding: 'ieee-p1363' } : key.privateKey);
  return `${input}.${signature.toString('base64url')}`;
}
