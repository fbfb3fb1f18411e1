import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { realms } from '../tables/realms.js';
import { hashSecret, safeEqual } from '../security/secrets.js';
import { InvalidClient, InvalidRequest } from './errors.js';
import { oauthClients } from '../tables/oauth.js';

export type Form = Record<string, unknown>;

/** One form field: absent, or given once (RFC 6749 3.2: parameters must not be repeated). */
export function field(form: Form, name: string): string | undefined {
  const value = form[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidRequest(`${name} is repeated`);
  return value;
}

export interface PresentedClient {
  id: string;
  secret: string | undefined;
  /** HTTP Basic was used: a failure then answers with a WWW-Authenticate challenge. */
  basic: boolean;
}

function decode(part: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw new InvalidClient(true, 'the Basic credentials are not encoded as RFC 6749 2.3.1 says');
  }
  // The form's fields are refused with a NUL byte before they get here (http/nul-guard.ts); Basic credentials are
  // decoded here, and no client id or secret holds one.
  if (decoded.includes('\0')) throw new InvalidClient(true, 'the Basic credentials hold a NUL byte');
  return decoded;
}

/** The client's credentials: HTTP Basic (client_secret_basic) or the form (client_secret_post), never both. */
export function presentedClient(authorization: string | undefined, form: Form): PresentedClient {
  const formId = field(form, 'client_id');
  const formSecret = field(form, 'client_secret');
  const basic = authorization && /^Basic\s+(\S+)\s*$/i.exec(authorization);
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new InvalidClient(true, 'the Basic credentials are malformed');
    const id = decode(decoded.slice(0, colon));
    if (formSecret !== undefined) throw new InvalidRequest('use one client authentication method, not both');
    if (formId !== undefined && formId !== id) throw new InvalidRequest('client_id differs from the Basic credentials');
    return { id, secret: decode(decoded.slice(colon + 1)), basic: true };
  }
  if (!formId) throw new InvalidClient(/^Basic\b/i.test(authorization ?? ''), 'client authentication is missing (client_id)');
  return { id: formId, secret: formSecret, basic: false };
}

export interface ClientSecretRow {
  secretHash: string;
  confidential: boolean;
}

/**
 * A confidential client proves itself with its secret. A public client may send its client_id alone
 * where something else binds the request to it (PKCE at the token endpoint; its own tokens at revocation).
 */
export function clientAuthenticates(row: ClientSecretRow, presented: PresentedClient, boundOtherwise: boolean): boolean {
  if (presented.secret !== undefined) return safeEqual(hashSecret(presented.secret), row.secretHash);
  return !row.confidential && boundOtherwise;
}

/** The presented client, provided it belongs to the active realm `realmUid` and authenticates; invalid_client otherwise. */
export async function authenticateClient(ctx: Context, realmUid: string, presented: PresentedClient, boundOtherwise: boolean) {
  const [row] = await ctx.db.select({
    id: oauthClients.id, uid: oauthClients.uid, secretHash: oauthClients.secretHash, confidential: oauthClients.confidential, realmId: oauthClients.realmId,
    clientCredentialsScopes: oauthClients.clientCredentialsScopes, jwtAccessTokenSeconds: oauthClients.jwtAccessTokenSeconds,
  }).from(oauthClients).innerJoin(realms, eq(realms.id, oauthClients.realmId))
    .where(and(eq(oauthClients.uid, presented.id), eq(realms.uid, realmUid), eq(realms.active, true)));
  if (!row || !clientAuthenticates(row, presented, boundOtherwise)) throw new InvalidClient(presented.basic);
  return row;
}
