import { and, eq, isNull } from 'drizzle-orm';
import type { Context } from '../context.js';
import { hashSecret } from '../security/secrets.js';
import { authenticateClient, field, type Form, type PresentedClient } from './client-auth.js';
import { InvalidRequest } from './errors.js';
import { oauthAccessTokens, oauthRefreshTokens } from '../tables/oauth.js';
import { revokeFamily } from './refresh.js';

/**
 * RFC 7009: the client's own token stops working. An unknown token, a token already revoked or one
 * of another client is answered the same way (200), so that the answer tells nothing about it.
 * `token_type_hint` is accepted and not needed: a token is looked for among access tokens, then refresh tokens.
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
  if (!revoked.length) await revokeRefreshFamily(ctx, client.id, hashSecret(token));
}

/** A refresh token of the client's own (OpenID Connect): its family ends, and the access tokens it issued (RFC 7009 2.1). */
async function revokeRefreshFamily(ctx: Context, clientId: number, hash: string): Promise<void> {
  const [row] = await ctx.db.select({ family: oauthRefreshTokens.family, sessionId: oauthRefreshTokens.sessionId }).from(oauthRefreshTokens)
    .where(and(eq(oauthRefreshTokens.tokenHash, hash), eq(oauthRefreshTokens.clientId, clientId)));
  if (row) await revokeFamily(ctx, row.family, row.sessionId, ctx.clock.now());
}
