import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { momentPlaceholder } from '../db/columns.js';
import { prepared, preparedSql } from '../db/prepared.js';
import { rowsOf } from '../db/rows.js';
import { isLive, TOUCH_INTERVAL_MS } from '../realms/sessions.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { oauthAccessTokens, oauthClients, oauthRefreshTokens } from '../tables/oauth.js';
import { realmUsers, realms } from '../tables/realms.js';
import { authenticateClient, clientAuthenticates, field, type Form, type PresentedClient } from './client-auth.js';
import { InvalidClient, InvalidGrant, InvalidScope } from './errors.js';
import { newAccessToken } from './access-token.js';
import { signIdToken } from './id-token.js';
import { claimedUserColumns, grantFactColumns, joinGrantFacts } from './grant-facts.js';
import type { TokenAnswer } from './token.js';

/**
 * Refresh tokens (issue 31 item 4; OpenID Connect Core 12, RFC 9700 4.14): granted with the scope offline_access to
 * a client that lists it, bound to the realm session that signed in (an ended session ends them), rotated on every
 * use, and a used one presented again revokes its whole family and the access tokens the family issued.
 */

export interface CodeGrant {
  codeId: number;
  clientId: number;
  sessionId: number;
  scope: string;
  absoluteSeconds: number;
  idleSeconds: number;
}

const expiry = (now: Date, seconds: number, cap?: Date) => {
  const at = new Date(now.getTime() + seconds * 1000);
  return cap && cap < at ? cap : at;
};

const p = (name: string) => sql.placeholder(name);

/** The statement of `consumeCodeWithRefresh`, prepared: the code exchange is a hot path. */
const consumeWithRefresh = (db: Db) => preparedSql(db, 'oauth_consume_code_with_refresh', () => sql`with used as (
    update authorization_codes set used_at = ${momentPlaceholder('at')} where id = ${p('codeId')} and used_at is null returning id
  ), access as (
    insert into oauth_access_tokens (token_hash, client_id, session_id, code_id, refresh_family, scope, created_at)
    select ${p('accessHash')}, ${p('clientId')}::integer, ${p('sessionId')}::integer, used.id, used.id, ${p('scope')}, ${momentPlaceholder('at')} from used
    returning id
  ), refresh as (
    insert into oauth_refresh_tokens (token_hash, family, client_id, session_id, scope, family_expires_at, expires_at, created_at)
    select ${p('refreshHash')}, used.id, ${p('clientId')}::integer, ${p('sessionId')}::integer, ${p('scope')}, ${momentPlaceholder('familyExpiresAt')},
      ${momentPlaceholder('expiresAt')}, ${momentPlaceholder('at')} from used
    returning id
  )
  select count(*)::int as used from used`);

/**
 * The code exchange of an authorization with offline_access, in one statement (one round trip, all or nothing): the
 * code is spent, and the access token and the family's first refresh token are written. The family is named by the
 * code's id, one per authorization. Answers the refresh token, or null when the code was already used.
 */
export async function consumeCodeWithRefresh(ctx: Context, grant: CodeGrant, accessTokenHash: string, now: Date): Promise<string | null> {
  const token = randomSecret();
  const familyExpiresAt = expiry(now, grant.absoluteSeconds);
  const result = await consumeWithRefresh(ctx.db).execute({
    at: now.toISOString(), codeId: grant.codeId, accessHash: accessTokenHash, refreshHash: hashSecret(token), clientId: grant.clientId,
    sessionId: grant.sessionId, scope: grant.scope, familyExpiresAt: familyExpiresAt.toISOString(),
    expiresAt: expiry(now, grant.idleSeconds, familyExpiresAt).toISOString(),
  });
  return rowsOf<{ used: number }>(result)[0]?.used === 1 ? token : null;
}

/** The statement of `rotate`, prepared: a refresh is a hot path. */
const rotation = (db: Db) => preparedSql(db, 'oauth_rotate_refresh_token', () => sql`with spent as (
    update oauth_refresh_tokens set used_at = ${momentPlaceholder('at')} where id = ${p('id')} and used_at is null and revoked_at is null returning id
  ), fresh as (
    insert into oauth_refresh_tokens (token_hash, family, client_id, session_id, scope, family_expires_at, expires_at, created_at)
    select ${p('refreshHash')}, ${p('family')}::integer, ${p('clientId')}::integer, ${p('sessionId')}::integer, ${p('grantedScope')},
      ${momentPlaceholder('familyExpiresAt')}, ${momentPlaceholder('expiresAt')}, ${momentPlaceholder('at')} from spent
    returning id
  ), access as (
    insert into oauth_access_tokens (token_hash, client_id, session_id, refresh_family, scope, created_at)
    select ${p('accessHash')}, ${p('clientId')}::integer, ${p('sessionId')}::integer, ${p('family')}::integer, ${p('scope')}, ${momentPlaceholder('at')} from spent
    returning id
  ), renewal as (
    update realm_sessions set expires_at = greatest(expires_at, ${momentPlaceholder('renewed')}), last_used_at = ${momentPlaceholder('at')}
    where id = ${p('sessionId')} and exists (select 1 from spent) and (last_used_at is null or last_used_at <= ${momentPlaceholder('touchedBefore')})
    returning id
  )
  select count(*)::int as spent from spent`);

/**
 * Spends a refresh token and writes what replaces it, in one statement (all or nothing, one round trip): the new
 * refresh token of the family, the new access token, and the session renewed as a use would renew it (at most once a
 * minute, so that parallel refreshes of one session do not queue on its row), never past the family's end. Answers
 * false when the token was spent or revoked meanwhile (a concurrent refresh won).
 */
async function rotate(ctx: Context, row: { id: number; family: number; clientId: number; sessionId: number; scope: string; familyExpiresAt: Date; idleSeconds: number; sessionLifetimeMinutes: number },
  scope: string, hashes: { refresh: string; access: string }, now: Date): Promise<boolean> {
  const result = await rotation(ctx.db).execute({
    at: now.toISOString(), id: row.id, refreshHash: hashes.refresh, accessHash: hashes.access, family: row.family, clientId: row.clientId,
    sessionId: row.sessionId, grantedScope: row.scope, scope, familyExpiresAt: row.familyExpiresAt.toISOString(),
    expiresAt: expiry(now, row.idleSeconds, row.familyExpiresAt).toISOString(),
    renewed: expiry(now, row.sessionLifetimeMinutes * 60, row.familyExpiresAt).toISOString(),
    touchedBefore: new Date(now.getTime() - TOUCH_INTERVAL_MS).toISOString(),
  });
  return rowsOf<{ spent: number }>(result)[0]?.spent === 1;
}

/** Everything a refresh checks and signs, in one query. */
const refreshByHash = (db: Db) => prepared(db, 'oauth_refresh_by_hash', (d, name) => joinGrantFacts(d.select({
  id: oauthRefreshTokens.id, family: oauthRefreshTokens.family, scope: oauthRefreshTokens.scope,
  familyExpiresAt: oauthRefreshTokens.familyExpiresAt, expiresAt: oauthRefreshTokens.expiresAt,
  usedAt: oauthRefreshTokens.usedAt, revokedAt: oauthRefreshTokens.revokedAt, sessionId: oauthRefreshTokens.sessionId,
  idleSeconds: oauthClients.refreshIdleSeconds, sessionLifetimeMinutes: realms.sessionLifetimeMinutes,
  ...grantFactColumns,
  user: { ...claimedUserColumns, active: realmUsers.active },
}).from(oauthRefreshTokens).$dynamic(), oauthRefreshTokens.clientId, oauthRefreshTokens.sessionId)
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

  const { token: accessToken, expiresIn } = await newAccessToken(ctx, row, scopes.join(' '), now);
  const refreshToken = randomSecret();
  const rotated = await rotate(ctx, row, scopes.join(' '), { refresh: hashSecret(refreshToken), access: hashSecret(accessToken) }, now);
  // Two refreshes of one token at once: the one that lost found it spent, which is a reuse.
  if (!rotated) {
    await revokeFamily(ctx, row.family, row.sessionId, now);
    throw new InvalidGrant('the refresh token was already used: its family is revoked');
  }
  const answer: TokenAnswer = {
    access_token: accessToken, token_type: 'Bearer', scope: scopes.join(' '), created_at: Math.floor(now.getTime() / 1000), refresh_token: refreshToken,
    ...(expiresIn ? { expires_in: expiresIn } : {}),
  };
  if (scopes.includes('openid')) {
    answer.id_token = await signIdToken(ctx, row, { scopes, accessToken, nonce: null, now });
  }
  return answer;
}
