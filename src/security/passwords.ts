import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key));
  });
}

/** `scrypt$N$r$p$salt$key`, so that the cost can grow without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash that no password matches: compared against when the account is unknown, so timing tells nothing. */
export const UNKNOWN_ACCOUNT_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** Well-known passwords of at least 8 characters from the most common leaked lists; compared in lower case. */
const COMMON = new Set([
  'password', 'password1', 'password12', 'password123', 'password!', 'passw0rd', 'p@ssw0rd', 'p@ssword',
  '12345678', '123456789', '1234567890', '0123456789', '87654321', '987654321', '11223344', '12341234', '12121212', '123123123',
  '1q2w3e4r', '1q2w3e4r5t', 'zaq12wsx', '1qaz2wsx', 'qwertyuiop', 'qwerty123', 'qwerty12', 'asdfghjkl', 'asdfasdf', 'abcd1234',
  'abc12345', 'abcdefgh', 'iloveyou', 'iloveyou1', 'letmein1', 'letmein123', 'admin123', 'administrator', 'welcome1', 'welcome123',
  'sunshine', 'princess', 'football', 'baseball', 'superman', 'starwars', 'trustno1', 'whatever', 'dragon123', 'monkey123',
  'master123', 'computer', 'changeme', 'secret123', 'michelle', 'jennifer', 'charlie1', 'shadow123', 'liverpool', 'chocolate',
]);

/** Why a chosen password is refused, or null when it is acceptable. */
export function passwordWeakness(password: string): string | null {
  if (password.length < 8) return 'is too short (minimum is 8 characters)';
  if (password.length > 200) return 'is too long (maximum is 200 characters)';
  if (COMMON.has(password.toLowerCase()) || /^(.)\1+$/.test(password)) return 'is too common';
  return null;
}

/** A generated password for a first start: readable, 128 bits. */
export function generatePassword(): string {
  return randomBytes(16).toString('base64url');
}
