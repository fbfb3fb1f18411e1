import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { momentPlaceholder } from '../db/columns.js';
import { prepared, preparedRows } from '../db/prepared.js';
import { isLive, touchSession } from '../realms/sessions.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { oauthAccessTokens, oauthClients, oauthRefreshTokens } from '../tables/oauth.js';
import { realmSessions, realmUsers, realms } from '../tables/realms.js';
import { authenticateClient, clientAuthenticates, field, type Form, type PresentedClient } from './client-auth.js';
import { InvalidClient, InvalidGrant, InvalidScope } from './errors.js';
import { jwtLifetime, newAccessToken } from './access-token.js';
import { signIdToken } from './id-token.js';
import { claimedUserColumns, grantFactColumns, grantFactTables, joinGrantFacts, spendableGrant, spendableGrantValues } from './grant-facts.js';
import type { TokenAnswer } from './token.js';

/**
 * Refresh tokens (issue 31 item 4; OpenID Connect Core 12, RFC 9700 4.14): granted with the scope offline_access to
 * a client that lists it, bound to the realm session that signed in (an ended session ends them), rotated on every
 * use, and a used one presented again revokes its whole family and the access tokens the family issued.
 */

const p = (name: string) => sql.placeholder(name);
const at = momentPlaceholder('at');

const spentFields = {
  family: oauthRefreshTokens.family, sessionId: oauthRefreshTokens.sessionId, scope: oauthRefreshTokens.scope,
  familyExpiresAt: oauthRefreshTokens.familyExpiresAt, idleSeconds: oauthClients.refreshIdleSeconds, sessionLifetimeMinutes: realms.sessionLifetimeMinutes,
  sessionLastUsedAt: realmSessions.lastUsedAt,
  ...grantFactColumns,
  user: claimedUserColumns,
};

/**
 * A refresh in one statement (`grantFactTables`): the token is spent where every check passes, and what replaces it is
 * written: the family's new refresh token and the new access token (of the scope asked for, or the one granted).
 * Answers the token's facts, or nothing when it was refused or spent meanwhile.
 */
const refreshStatement = (db: Db) => preparedRows(db, 'oauth_refresh', spentFields, (fields) => sql`with spent as (
    update ${oauthRefreshTokens} set used_at = ${at} from ${grantFactTables}
    where ${oauthRefreshTokens.tokenHash} = ${p('hash')} and ${oauthRefreshTokens.usedAt} is null and ${oauthRefreshTokens.revokedAt} is null
      and ${oauthRefreshTokens.expiresAt} > ${at} and ${oauthRefreshTokens.familyExpiresAt} > ${at}
      and ${spendableGrant(oauthRefreshTokens, sql`true`)} and ${realmUsers.active}
      and (${p('scope')}::text is null
        or (${p('scope')} <> '' and string_to_array(${p('scope')}, ' ') <@ string_to_array(${oauthRefreshTokens.scope}, ' ')))
    returning ${fields}
  ), fresh as (
    insert into ${oauthRefreshTokens} (token_hash, family, client_id, session_id, scope, family_expires_at, expires_at, created_at)
    select ${p('refreshHash')}, family, "clientId", "sessionId", scope, "familyExpiresAt",
      least("familyExpiresAt", ${at} + make_interval(secs => "idleSeconds")), ${at} from spent
  ), access as (
    insert into ${oauthAccessTokens} (token_hash, client_id, session_id, refresh_family, scope, created_at)
    select ${p('accessHash')}, "clientId", "sessionId", family, coalesce(${p('scope')}, scope), ${at} from spent
  )
  select * from spent`);

/** Everything a refused refresh is checked against, to tell why it was refused. */
const refreshByHash = (db: Db) => prepared(db, 'oauth_refresh_by_hash', (d, name) => joinGrantFacts(d.select({
  id: oauthRefreshTokens.id, family: oauthRefreshTokens.family, scope: oauthRefreshTokens.scope,
  familyExpiresAt: oauthRefreshTokens.familyExpiresAt, expiresAt: oauthRefreshTokens.expiresAt,
  usedAt: oauthRefreshTokens.usedAt, revokedAt: oauthRefreshTokens.revokedAt, sessionId: oauthRefreshTokens.sessionId,
  ...grantFactColumns,
  user: { ...claimedUserColumns, active: realmUsers.active },
}).from(oauthRefreshTokens).$dynamic(), oauthRefreshTokens.clientId, oauthRefreshTokens.sessionId)
  .where(eq(oauthRefreshTokens.tokenHash, p('hash')))
  .prepare(name));

/** A stolen refresh token was probably used: the family's refresh tokens and the access tokens it issued stop working. */
export async function revokeFamily(ctx: Context, family: number, sessionId: number, now: Date): Promise<void> {
  await ctx.db.update(oauthRefreshTokens).set({ revokedAt: now }).where(and(eq(oauthRefreshTokens.family, family), isNull(oauthRefreshTokens.revokedAt)));
  await ctx.db.update(oauthAccessTokens).set({ revokedAt: now }).where(and(eq(oauthAccessTokens.refreshFamily, family), isNull(oauthAccessTokens.revokedAt)));
  ctx.caches.changed('customers', `session:${sessionId}`);
}

/**
 * The token endpoint's refresh_token grant (RFC 6749 6): a new access token and refresh token, the used one spent.
 * The access token is made random before the statement knows the client; a client with JWT access tokens gets nothing
 * spent by that first statement, and the same statement runs again with the JWT its facts sign.
 */
export async function refreshGrant(ctx: Context, realmUid: string, form: Form, presented: () => PresentedClient): Promise<TokenAnswer> {
  const client = presented();
  const token = field(form, 'refresh_token');
  const requested = field(form, 'scope');
  const asked = requested === undefined ? undefined : [...new Set(requested.split(' ').filter(Boolean))];
  const now = ctx.clock.now();
  const refreshToken = randomSecret();
  let access: { token: string; expiresIn?: number } = { token: randomSecret() };
  const hash = token ? hashSecret(token) : undefined;
  // What every run of the statement sends; the access token differs on a second run (`jwt`).
  const values = {
    hash, ...spendableGrantValues(realmUid, client, now),
    scope: asked?.join(' ') ?? null, refreshHash: hashSecret(refreshToken),
  };
  const refresh = async (jwt: boolean) => hash ? (await refreshStatement(ctx.db).execute({ ...values, jwt, accessHash: hashSecret(access.token) }))[0] : undefined;

  let spent = await refresh(false);
  if (!spent) {
    const row = await refusedRefresh(ctx, realmUid, client, hash, asked, now);
    // Every check passed: the client's access tokens are JWTs, which its facts sign, or another refresh of the token won.
    if (jwtLifetime(row) !== null) {
      access = await newAccessToken(ctx, row, (asked ?? row.scope.split(' ')).join(' '), now);
      spent = await refresh(true);
    }
    // Two refreshes of one token at once: the one that lost found it spent, which is a reuse.
    if (!spent) {
      await revokeFamily(ctx, row.family, row.sessionId, now);
      throw new InvalidGrant('the refresh token was already used: its family is revoked');
    }
  }
  // The session is renewed as a use renews it (at most once a minute: parallel refreshes of one session do not queue on
  // its row), never past the family's end, so that an app refreshing stays signed in.
  await touchSession(ctx, { id: spent.realmId, sessionLifetimeMinutes: spent.sessionLifetimeMinutes },
    { id: spent.sessionId, expiresAt: spent.sessionExpiresAt, lastUsedAt: spent.sessionLastUsedAt }, spent.familyExpiresAt);
  const scopes = asked ?? spent.scope.split(' ');
  const answer: TokenAnswer = {
    access_token: access.token, token_type: 'Bearer', scope: scopes.join(' '), created_at: Math.floor(now.getTime() / 1000), refresh_token: refreshToken,
    ...(access.expiresIn ? { expires_in: access.expiresIn } : {}),
  };
  if (scopes.includes('openid')) {
    answer.id_token = await signIdToken(ctx, spent, { scopes, accessToken: access.token, nonce: null, now });
  }
  return answer;
}

/** Why the refresh statement spent nothing: throws the refusal, or answers the token's facts when every check passes. */
async function refusedRefresh(ctx: Context, realmUid: string, client: PresentedClient, hash: string | undefined, asked: string[] | undefined, now: Date) {
  const [row] = hash ? await refreshByHash(ctx.db).execute({ hash }) : [];
  const own = row && row.clientUid === client.id && row.realmUid === realmUid && row.realmActive;
  if (own) {
    // A public client proves nothing but its client_id: the rotation and reuse detection are what protect its tokens.
    if (!clientAuthenticates(row, client, !row.confidential)) throw new InvalidClient(client.basic);
  } else {
    await authenticateClient(ctx, realmUid, client, true);
  }
  if (!row || !own) throw new InvalidGrant('the refresh token is not valid');
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
  const scopes = asked ?? granted;
  if (!scopes.length || scopes.some((s) => !granted.includes(s))) throw new InvalidScope('the scope asked for exceeds the one granted');
  return row;
}
