import { and, eq, isNull } from 'drizzle-orm';
import type { Context } from '../context.js';
import { hashSecret } from '../security/secrets.js';
import { authenticateClient, field, type Form, type PresentedClient } from './client-auth.js';
import { InvalidRequest } from './errors.js';
import { oauthAccessTokens, oauthClientTokens, oauthRefreshTokens } from '../tables/oauth.js';
import { revokeFamily } from './refresh.js';

/**
 * RFC 7009: the client's own token stops working. An unknown token, a token already revoked or one
 * of another client is answered the same way (200), so that the answer tells nothing about it.
 * `token_type_hint` is accepted and not needed: a token is looked for among access tokens, then refresh tokens, then
 * the client's own (client_credentials) tokens.
 */
export async function revokeToken(ctx: Context, realmUid: string, form: Form, presented: () => PresentedClient): Promise<void> {
  const client = await authenticateClient(ctx, realmUid, presented(), true);
  const token = field(form, 'token');
  field(form, 'token_type_hint');
  if (!token) throw new InvalidRequest('token is missing');
  const revoked = await ctx.db.update(oauthAccessTokens).set({ revokedAt: ctx.clock.now() }).where(and(
    eq(oauthAccessTokens.tokenHash, hashSecret(token)), eq(oauthAccessTokens.clientId, client.id), isNull(oauthAccessTokens.revokedAt),
  )).returning({ sessionId: oauthAccessTokens.sessionId });
  for (const { sessionId } of revoked) ctx.caches.changed('customers', `session:${sessionId}`);
  if (revoked.length) return;
  if (await revokeRefreshFamily(ctx, client.id, hashSecret(token))) return;
  await ctx.db.update(oauthClientTokens).set({ revokedAt: ctx.clock.now() }).where(and(
    eq(oauthClientTokens.tokenHash, hashSecret(token)), eq(oauthClientTokens.clientId, client.id), isNull(oauthClientTokens.revokedAt),
  ));
}

/** A refresh token of the client's own (OpenID Connect): its family ends, and the access tokens it issued (RFC 7009 2.1). */
async function revokeRefreshFamily(ctx: Context, clientId: number, hash: string): Promise<boolean> {
  const [row] = await ctx.db.select({ family: oauthRefreshTokens.family, sessionId: oauthRefreshTokens.sessionId }).from(oauthRefreshTokens)
    .where(and(eq(oauthRefreshTokens.tokenHash, hash), eq(oauthRefreshTokens.clientId, clientId)));
  if (row) await revokeFamily(ctx, row.family, row.sessionId, ctx.clock.now());
  return row !== undefined;
}
