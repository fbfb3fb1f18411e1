import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random secret of 256 bits, URL-safe. Shown once; only its hash is stored. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Random secrets are looked up by this hash in one indexed query; a slow hash is for passwords only. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
