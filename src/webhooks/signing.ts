import { createHmac, randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { secretsKey } from '../security/secrets-key.js';
import { seal, unseal } from '../security/sealed.js';

/** Standard Webhooks: a secret is `whsec_` and the base64 of its key bytes. */
const PREFIX = 'whsec_';

export const newSecret = (): string => PREFIX + randomBytes(32).toString('base64');

// The endpoint's id is sealed along, so a sealed secret copied to another endpoint's row does not open.
const sealContext = (endpointId: number) => `webhook endpoint ${endpointId}`;

export const sealSecret = (config: Config, endpointId: number, secret: string) => seal(secretsKey(config), secret, sealContext(endpointId));

export const unsealSecret = (config: Config, endpointId: number, sealed: string) => unseal(secretsKey(config), sealed, sealContext(endpointId));

/** The HMAC key of a secret: the bytes its base64 part stands for. */
export const keyOf = (secret: string): Buffer => Buffer.from(secret.slice(PREFIX.length), 'base64');

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each key, space
 * separated (two during the day after a rotation, so receivers can switch secrets when they like).
 */
export function signatureHeader(keys: Buffer[], msgId: string, timestamp: number, body: string): string {
  return keys.map((key) => `v1,${createHmac('sha256', key).update(`${msgId}.${timestamp}.${body}`).digest('base64')}`).join(' ');
}
