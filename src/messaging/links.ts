import { createHmac } from 'node:crypto';
import type { Config } from '../config.js';
import { INT32_MAX } from '../http/models.js';
import { safeEqual } from '../security/secrets.js';
import { secretsKey } from '../security/secrets-key.js';

/**
 * The token of a message's tracking pixel and unsubscribe link: `<message id>.<HMAC>` under the
 * secrets key, so that nothing secret is stored per message and no one can forge another
 * recipient's link (opening or unsubscribing someone else) by counting ids.
 */
export function messageToken(config: Config, messageId: number): string {
  return `${messageId}.${signature(config, messageId)}`;
}

function signature(config: Config, messageId: number): string {
  return createHmac('sha256', secretsKey(config)).update(`atrium message ${messageId}`).digest('base64url').slice(0, 32);
}

/** The message id a token names, or null when it is not one this server signed. */
export function messageOfToken(config: Config, token: string): number | null {
  const match = /^(\d{1,10})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  if (id < 1 || id > INT32_MAX) return null;
  return safeEqual(match[2], signature(config, id)) ? id : null;
}

export const pixelPath = (token: string) => `/messaging/open/${token}.gif`;
export const unsubscribePath = (token: string) => `/messaging/unsubscribe/${token}`;
