import { and, eq, isNull } from 'drizzle-orm';
import type { Context } from '../context.js';
import { hashSecret } from '../security/secrets.js';
import { authenticateClient, field, type Form, type PresentedClient } from './client-auth.js';
import { InvalidRequest } from './errors.js';
import { oauthAccessTokens } from '../tables/oauth.js';

/**
 * RFC 7009: the client's own token stops working. An unknown token, a token already revoked or one
 * of another client is answered the same way (200), so that the answer tells nothing about it.
 * `token_type_hint` is accepted and not needed: access tokens are the only tokens issued.
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
}
