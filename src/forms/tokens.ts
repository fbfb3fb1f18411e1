import { createHmac, randomBytes } from 'node:crypto';
import type { Context } from '../context.js';
import { safeEqual } from '../security/secrets.js';
import { secretsKey } from '../security/secrets-key.js';

/** How long a form token stays good: a page left open over a night and sent in the morning is still a person. */
export const TOKEN_LIFETIME_MS = 24 * 3600_000;

const keys = new WeakMap<Context['config'], Buffer>();
/** The tokens' own key, derived from the secrets key once per configuration. */
function keyOf({ config }: Pick<Context, 'config'>): Buffer {
  let key = keys.get(config);
  if (!key) keys.set(config, key = createHmac('sha256', secretsKey(config)).update('atrium form tokens').digest());
  return key;
}
const sign = (ctx: Pick<Context, 'config'>, body: string) => createHmac('sha256', keyOf(ctx)).update(body).digest('base64url');

/**
 * A single-use form token: the form, who it was issued to (a realm user, or 0), when, and a random nonce,
 * HMAC-signed. Its issue time gives the minimum fill time; its nonce, recorded at use, makes a second use a replay.
 */
export function issueFormToken(ctx: Pick<Context, 'config' | 'clock'>, formId: number, userId: number | null): string {
  const body = `${formId}.${userId ?? 0}.${ctx.clock.now().getTime()}.${randomBytes(16).toString('base64url')}`;
  return `${body}.${sign(ctx, body)}`;
}

export interface FormToken {
  issuedAt: number;
  nonce: string;
}

/** The token's issue time and nonce, when it is well-formed, signed by us, for this form and this user. */
export function readFormToken(ctx: Pick<Context, 'config'>, token: string | undefined, formId: number, userId: number | null): FormToken | null {
  const parts = token?.split('.') ?? [];
  if (parts.length !== 5) return null;
  const [form, user, issued, nonce, signature] = parts;
  if (!safeEqual(sign(ctx, parts.slice(0, 4).join('.')), signature)) return null;
  if (form !== String(formId) || user !== String(userId ?? 0) || !/^\d{1,15}$/.test(issued)) return null;
  return { issuedAt: Number(issued), nonce };
}
