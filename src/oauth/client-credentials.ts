import type { Context } from '../context.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { oauthClientTokens } from '../tables/oauth.js';
import { signAccessJwt } from './access-token.js';
import { authenticateClient, field, type Form, type PresentedClient } from './client-auth.js';
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
  const row = await authenticateClient(ctx, realmUid, client, false);
  if (!row.confidential) throw new InvalidClient(client.basic);
  const granted = row.clientCredentialsScopes;
  if (!granted.length) throw new UnauthorizedClient('the client was granted no scope for client_credentials');
  const requested = field(form, 'scope');
  const scopes = requested === undefined ? granted : [...new Set(requested.split(' ').filter(Boolean))];
  if (!scopes.length || scopes.some((scope) => !granted.includes(scope))) throw new InvalidScope('the scope asked for exceeds the one granted to the client');
  const scope = scopes.join(' ');
  const now = ctx.clock.now();
  const lifetime = row.jwtAccessTokenSeconds ?? CLIENT_TOKEN_SECONDS;
  const token = row.jwtAccessTokenSeconds === null ? randomSecret()
    : await signAccessJwt(ctx, { realmId: row.realmId, realmUid, clientUid: row.uid, subject: row.uid, scope, lifetime, now });
  await ctx.db.insert(oauthClientTokens).values({ tokenHash: hashSecret(token), clientId: row.id, scope, expiresAt: new Date(now.getTime() + lifetime * 1000), createdAt: now });
  return { access_token: token, token_type: 'Bearer', scope, created_at: Math.floor(now.getTime() / 1000), expires_in: lifetime };
}
