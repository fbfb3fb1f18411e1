import { createHmac } from 'node:crypto';
import type { Context } from '../../context.js';
import { define } from '../../errors/index.js';
import type { Customer } from '../../realms/credential.js';
import { secretsKey } from '../../security/secrets-key.js';
import { segmentsOfUser } from '../../segments/matching.js';
import type { Reader } from './sql.js';

/**
 * The delivery token: a JWT (HS256) a signed-in realm user gets from the customers API, which the
 * content API reads to show that user's private entries. It carries the realm uid and the uuids of the
 * segments the user matched when it was made, and lives an hour. Its key is derived from the secrets
 * key (SECRETS_KEY, or DATA_DIR/secrets.key with the embedded database) by HMAC with a label of its
 * own, so every process on the database signs and checks alike and no other use of that key can
 * produce one.
 */
export const DELIVERY_TOKEN_LIFETIME_SECONDS = 3600;
const AUDIENCE = 'atrium-content-delivery';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_TOKEN = 16_384;

const keys = new WeakMap<Buffer, Uint8Array>();

function signingKey(ctx: Context): Uint8Array {
  const secret = secretsKey(ctx.config);
  let key = keys.get(secret);
  if (!key) keys.set(secret, key = createHmac('sha256', secret).update('atrium content delivery token').digest());
  return key;
}

export async function issueDeliveryToken(ctx: Context, customer: Customer): Promise<{ token: string; expires_at: string }> {
  const segments = await segmentsOfUser(ctx, customer.realm.id, customer.user.id);
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  const expires = now + DELIVERY_TOKEN_LIFETIME_SECONDS;
  const { SignJWT } = await import('jose');
  const token = await new SignJWT({ realm: customer.realm.uid, segments })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(customer.user.uuid)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(expires)
    .sign(signingKey(ctx));
  return { token, expires_at: new Date(expires * 1000).toISOString() };
}

/** 401 for a token that is not one of ours or has expired: the client asks the customers API for a new one. */
export const deliveryTokenInvalid = define('ATR_DELIVERY_TOKEN_INVALID', 'unauthenticated', 'The delivery token is not valid or has expired', {
  body: { error: { delivery_token: ['The delivery token is not valid or has expired'] } }, catalogs: ['content'],
});

/** The reader a request's token names: no token reads public entries only; a bad one is refused. */
export async function readerOf(ctx: Context, token: string | undefined): Promise<Reader> {
  if (token === undefined || token === '') return { segments: [] };
  if (token.length > MAX_TOKEN) throw deliveryTokenInvalid();
  try {
    const { jwtVerify } = await import('jose');
    const { payload } = await jwtVerify(token, signingKey(ctx), {
      algorithms: ['HS256'], audience: AUDIENCE, currentDate: ctx.clock.now(), requiredClaims: ['exp', 'sub'],
    });
    const segments = payload.segments;
    if (!Array.isArray(segments) || !segments.every((s) => typeof s === 'string' && UUID.test(s))) throw deliveryTokenInvalid();
    return { segments: segments as string[] };
  } catch {
    throw deliveryTokenInvalid();
  }
}
