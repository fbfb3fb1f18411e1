import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { prepared } from '../db/prepared.js';
import { isLive } from '../realms/sessions.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { oauthAccessTokens, oauthClients, oauthRefreshTokens } from '../tables/oauth.js';
import { realmSessions, realmUsers, realms } from '../tables/realms.js';
import { authenticateClient, clientAuthenticates, field, type Form, type PresentedClient } from './client-auth.js';
import { InvalidClient, InvalidGrant, InvalidScope } from './errors.js';
import { signIdToken } from './id-token.js';
import { issuerOf } from './metadata.js';
import type { TokenAnswer } from './token.js';

/**
 * Refresh tokens (issue 31 item 4; OpenID Connect Core 12, RFC 9700 4.14): granted with the scope offline_access to
 * a client that lists it, bound to the realm session that signed in (an ended session ends them), rotated on every
 * use, and a used one presented again revokes its whole family and the access tokens the family issued.
 */

export interface RefreshGrantFacts {
  clientId: number;
  sessionId: number;
  scope: string;
  absoluteSeconds: number;
  idleSeconds: number;
  /** The access token of the code exchange, whose id names the family. */
  accessTokenId: number;
}

const expiry = (now: Date, seconds: number, cap?: Date) => {
  const at = new Date(now.getTime() + seconds * 1000);
  return cap && cap < at ? cap : at;
};

/** The family's first refresh token, beside the access token of the code exchange (which joins the family). */
export async function startRefreshFamily(ctx: Context, facts: RefreshGrantFacts, now: Date): Promise<string> {
  const token = randomSecret();
  const familyExpiresAt = expiry(now, facts.absoluteSeconds);
  await ctx.db.transaction(async (tx) => {
    await tx.update(oauthAccessTokens).set({ refreshFamily: facts.accessTokenId }).where(eq(oauthAccessTokens.id, facts.accessTokenId));
    await tx.insert(oauthRefreshTokens).values({
      tokenHash: hashSecret(token), family: facts.accessTokenId, clientId: facts.clientId, sessionId: facts.sessionId, scope: facts.scope,
      familyExpiresAt, expiresAt: expiry(now, facts.idleSeconds, familyExpiresAt), createdAt: now,
    });
  });
  return token;
}

/** Everything a refresh checks and signs, in one query. */
const refreshByHash = (db: Db) => prepared(db, 'oauth_refresh_by_hash', (d, name) => d.select({
  id: oauthRefreshTokens.id, family: oauthRefreshTokens.family, scope: oauthRefreshTokens.scope,
  familyExpiresAt: oauthRefreshTokens.familyExpiresAt, expiresAt: oauthRefreshTokens.expiresAt,
  usedAt: oauthRefreshTokens.usedAt, revokedAt: oauthRefreshTokens.revokedAt, sessionId: oauthRefreshTokens.sessionId,
  clientId: oauthClients.id, clientUid: oauthClients.uid, secretHash: oauthClients.secretHash, confidential: oauthClients.confidential,
  idleSeconds: oauthClients.refreshIdleSeconds,
  realmId: realms.id, realmUid: realms.uid, realmActive: realms.active, sessionLifetimeMinutes: realms.sessionLifetimeMinutes,
  sessionExpiresAt: realmSessions.expiresAt, sessionRevokedAt: realmSessions.revokedAt, sessionHash: realmSessions.sessionHash,
  sessionCreatedAt: realmSessions.createdAt, authMethods: realmSessions.authMethods,
  user: {
    uuid: realmUsers.uuid, email: realmUsers.email, emailVerifiedAt: realmUsers.emailVerifiedAt, username: realmUsers.username,
    firstName: realmUsers.firstName, lastName: realmUsers.lastName, secondLastName: realmUsers.secondLastName,
    locale: realmUsers.locale, updatedAt: realmUsers.updatedAt, active: realmUsers.active,
  },
}).from(oauthRefreshTokens)
  .innerJoin(oauthClients, eq(oauthClients.id, oauthRefreshTokens.clientId))
  .innerJoin(realms, eq(realms.id, oauthClients.realmId))
  .innerJoin(realmSessions, eq(realmSessions.id, oauthRefreshTokens.sessionId))
  .innerJoin(realmUsers, eq(realmUsers.id, realmSessions.userId))
  .where(eq(oauthRefreshTokens.tokenHash, sql.placeholder('hash')))
  .prepare(name));

/** A stolen refresh token was probably used: the family's refresh tokens and the access tokens it issued stop working. */
export async function revokeFamily(ctx: Context, family: number, sessionId: number, now: Date): Promise<void> {
  await ctx.db.update(oauthRefreshTokens).set({ revokedAt: now }).where(and(eq(oauthRefreshTokens.family, family), isNull(oauthRefreshTokens.revokedAt)));
  await ctx.db.update(oauthAccessTokens).set({ revokedAt: now }).where(and(eq(oauthAccessTokens.refreshFamily, family), isNull(oauthAccessTokens.revokedAt)));
  ctx.caches.changed('customers', `session:${sessionId}`);
}

/** The token endpoint's refresh_token grant (RFC 6749 6): a new access token and refresh token, the used one spent. */
export async function refreshGrant(ctx: Context, realmUid: string, form: Form, presented: () => PresentedClient): Promise<TokenAnswer> {
  const client = presented();
  const token = field(form, 'refresh_token');
  const [row] = token ? await refreshByHash(ctx.db).execute({ hash: hashSecret(token) }) : [];
  const own = row && row.clientUid === client.id && row.realmUid === realmUid && row.realmActive;
  if (own) {
    // A public client proves nothing but its client_id: the rotation and reuse detection are what protect its tokens.
    if (!clientAuthenticates(row, client, !row.confidential)) throw new InvalidClient(client.basic);
  } else {
    await authenticateClient(ctx, realmUid, client, true);
  }
  if (!row || !own) throw new InvalidGrant('the refresh token is not valid');
  const now = ctx.clock.now();
  if (row.revokedAt) throw new InvalidGrant('the refresh token was revoked');
  if (row.usedAt) {
    await revokeFamily(ctx, row.family, row.sessionId, now);
    throw new InvalidGrant('the refresh token was already used: its family is revoked');
  }
  if (row.expiresAt <= now || row.familyExpiresAt <= now) throw new InvalidGrant('the refresh token has expired');
  if (!row.user.active || !isLive({ expiresAt: row.sessionExpiresAt, revokedAt: row.sessionRevokedAt }, now)) {
    throw new InvalidGrant('the session that authorized this refresh token has ended');
  }
  const granted = row.scope.split(' ');
  const requested = field(form, 'scope');
  const scopes = requested === undefined ? granted : [...new Set(requested.split(' ').filter(Boolean))];
  if (!scopes.length || scopes.some((s) => !granted.includes(s))) throw new InvalidScope('the scope asked for exceeds the one granted');

  const accessToken = randomSecret();
  const refreshToken = randomSecret();
  const rotated = await ctx.db.transaction(async (tx) => {
    const spent = await tx.update(oauthRefreshTokens).set({ usedAt: now })
      .where(and(eq(oauthRefreshTokens.id, row.id), isNull(oauthRefreshTokens.usedAt), isNull(oauthRefreshTokens.revokedAt)))
      .returning({ id: oauthRefreshTokens.id });
    if (!spent.length) return false;
    await tx.insert(oauthRefreshTokens).values({
      tokenHash: hashSecret(refreshToken), family: row.family, clientId: row.clientId, sessionId: row.sessionId, scope: row.scope,
      familyExpiresAt: row.familyExpiresAt, expiresAt: expiry(now, row.idleSeconds, row.familyExpiresAt), createdAt: now,
    });
    await tx.insert(oauthAccessTokens).values({
      tokenHash: hashSecret(accessToken), clientId: row.clientId, sessionId: row.sessionId, refreshFamily: row.family, scope: scopes.join(' '), createdAt: now,
    });
    // The app in use keeps its user signed in: the session is renewed as a use would, never past the family's end.
    const renewed = expiry(now, row.sessionLifetimeMinutes * 60, row.familyExpiresAt);
    await tx.update(realmSessions).set({ expiresAt: sql`greatest(${realmSessions.expiresAt}, ${renewed.toISOString()}::timestamptz)`, lastUsedAt: now })
      .where(eq(realmSessions.id, row.sessionId));
    return true;
  });
  // Two refreshes of one token at once: the one that lost found it spent, which is a reuse.
  if (!rotated) {
    await revokeFamily(ctx, row.family, row.sessionId, now);
    throw new InvalidGrant('the refresh token was already used: its family is revoked');
  }
  const answer: TokenAnswer = {
    access_token: accessToken, token_type: 'Bearer', scope: scopes.join(' '), created_at: Math.floor(now.getTime() / 1000), refresh_token: refreshToken,
  };
  if (scopes.includes('openid')) {
    answer.id_token = await signIdToken(ctx, {
      issuer: issuerOf(ctx, { uid: row.realmUid }), realmId: row.realmId, clientUid: row.clientUid, user: row.user, scopes, accessToken,
      nonce: null, session: { hash: row.sessionHash, createdAt: row.sessionCreatedAt, authMethods: row.authMethods }, now,
    });
  }
  return answer;
}
