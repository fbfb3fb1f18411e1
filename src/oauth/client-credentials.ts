import { and, eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { oauthClients, oauthClientTokens } from '../tables/oauth.js';
import { realms } from '../tables/realms.js';
import { signAccessJwt } from './access-token.js';
import { clientAuthenticates, field, type Form, type PresentedClient } from './client-auth.js';
import { InvalidClient, InvalidScope, UnauthorizedClient } from './errors.js';
import type { TokenAnswer } from './token.js';

/** How long an opaque client_credentials token lives; a JWT one lives the client's `jwt_access_token_seconds`. */
export const CLIENT_TOKEN_SECONDS = 3600;

/**
 * The client_credentials grant (RFC 6749 4.4), on a realm with OpenID Connect enabled: a confidential client, with its
 * secret, gets an access token for itself on the scopes an admin granted it (`client_credentials_scopes`), all of them
 * unless it asks for fewer. No user, so no refresh token nor ID token; the token lives until it expires or is revoked.
 */
export async function clientCredentialsGrant(ctx: Context, realmUid: string, form: Form, presented: () => PresentedClient): Promise<TokenAnswer> {
  const client = presented();
  const [row] = await ctx.db.select({
    id: oauthClients.id, uid: oauthClients.uid, secretHash: oauthClients.secretHash, confidential: oauthClients.confidential,
    granted: oauthClients.clientCredentialsScopes, jwtSeconds: oauthClients.jwtAccessTokenSeconds, realmId: realms.id,
  }).from(oauthClients).innerJoin(realms, eq(realms.id, oauthClients.realmId))
    .where(and(eq(oauthClients.uid, client.id), eq(realms.uid, realmUid), eq(realms.active, true)));
  if (!row || !row.confidential || !clientAuthenticates(row, client, false)) throw new InvalidClient(client.basic);
  if (!row.granted.length) throw new UnauthorizedClient('the client was granted no scope for client_credentials');
  const requested = field(form, 'scope');
  const scopes = requested === undefined ? row.granted : [...new Set(requested.split(' ').filter(Boolean))];
  if (!scopes.length || scopes.some((scope) => !row.granted.includes(scope))) throw new InvalidScope('the scope asked for exceeds the one granted to the client');
  const scope = scopes.join(' ');
  const now = ctx.clock.now();
  const lifetime = row.jwtSeconds ?? CLIENT_TOKEN_SECONDS;
  const token = row.jwtSeconds === null ? randomSecret()
    : await signAccessJwt(ctx, { realmId: row.realmId, realmUid, clientUid: row.uid, subject: row.uid, scope, lifetime, now });
  await ctx.db.insert(oauthClientTokens).values({ tokenHash: hashSecret(token), clientId: row.id, scope, expiresAt: new Date(now.getTime() + lifetime * 1000), createdAt: now });
  return { access_token: token, token_type: 'Bearer', scope, created_at: Math.floor(now.getTime() / 1000), expires_in: lifetime };
}
