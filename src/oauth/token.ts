import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { momentPlaceholder } from '../db/columns.js';
import { prepared, preparedRows } from '../db/prepared.js';
import { isLive } from '../realms/sessions.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { authenticateClient, clientAuthenticates, field, type Form, type PresentedClient } from './client-auth.js';
import { InvalidClient, InvalidGrant, InvalidRequest, UnsupportedGrantType } from './errors.js';
import { jwtLifetime, newAccessToken } from './access-token.js';
import { signIdToken } from './id-token.js';
import { claimedUserColumns, grantFactColumns, grantFactTables, joinGrantFacts, spendableGrant, spendableGrantValues } from './grant-facts.js';
import { refreshGrant, revokeFamily } from './refresh.js';
import { clientCredentialsGrant } from './client-credentials.js';
import { OFFLINE_ACCESS } from './schema.js';
import type { Realm } from '../realms/realms.js';
import { s256Challenge, verifierMatches, wellFormedPkceValue } from './pkce.js';
import { authorizationCodes, oauthAccessTokens, oauthClients, oauthRefreshTokens } from '../tables/oauth.js';
import { realms } from '../tables/realms.js';

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  scope: string;
  /** Seconds since the epoch, as Doorkeeper answers it. */
  created_at: number;
  /** OpenID Connect, for the scope `openid` where the realm enables it. */
  id_token?: string;
  /** OpenID Connect, for the scope `offline_access` (refresh.ts). */
  refresh_token?: string;
  /** A JWT access token's lifetime in seconds (RFC 9068); an opaque one lives as long as the session. */
  expires_in?: number;
}

const p = (name: string) => sql.placeholder(name);
const at = momentPlaceholder('at');

const usedFields = {
  id: authorizationCodes.id, sessionId: authorizationCodes.sessionId, scope: authorizationCodes.scope, nonce: authorizationCodes.nonce,
  absoluteSeconds: oauthClients.refreshAbsoluteSeconds, idleSeconds: oauthClients.refreshIdleSeconds,
  /** An authorization with offline_access on an OpenID Connect realm: the exchange starts a refresh token family. */
  offline: sql<boolean>`${realms.openidConnectEnabled} and ${OFFLINE_ACCESS} = any(string_to_array(${authorizationCodes.scope}, ' '))`,
  ...grantFactColumns,
  user: claimedUserColumns,
};

/**
 * A code exchange in one statement (`grantFactTables`; RFC 6749 4.1.3, RFC 7636 4.6): the code is spent where every
 * check passes (those of `spendableGrant`, and the code's own: unused, unexpired, the same registered redirect_uri, the
 * PKCE verifier), and the access token is stored, with, for an offline authorization, the first refresh token of a
 * family named by the code. Of two concurrent exchanges of one code, only one finds it unused. Answers the code's
 * facts, or nothing when it was refused or spent meanwhile.
 */
const exchangeStatement = (db: Db) => preparedRows(db, 'oauth_exchange_code', usedFields, (fields) => sql`with used as (
    update ${authorizationCodes} set used_at = ${at} from ${grantFactTables}
    where ${authorizationCodes.codeHash} = ${p('hash')} and ${authorizationCodes.usedAt} is null and ${authorizationCodes.expiresAt} > ${at}
      and ${spendableGrant(authorizationCodes, sql`${authorizationCodes.codeChallenge} is not null`)}
      and ${authorizationCodes.redirectUri} = ${p('redirectUri')} and ${authorizationCodes.redirectUri} = any(${oauthClients.redirectUris})
      and case when ${authorizationCodes.codeChallenge} is null then not ${p('verifierSent')}::boolean
        else ${authorizationCodes.codeChallenge} = case when ${authorizationCodes.codeChallengeMethod} = 'plain' then ${p('plainVerifier')} else ${p('s256Verifier')} end end
    returning ${fields}
  ), access as (
    insert into ${oauthAccessTokens} (token_hash, client_id, session_id, code_id, refresh_family, scope, created_at)
    select ${p('accessHash')}, "clientId", "sessionId", id, case when offline then id end, scope, ${at} from used
  ), refresh as (
    insert into ${oauthRefreshTokens} (token_hash, family, client_id, session_id, scope, family_expires_at, expires_at, created_at)
    select ${p('refreshHash')}, id, "clientId", "sessionId", scope, ${at} + make_interval(secs => "absoluteSeconds"),
      ${at} + make_interval(secs => least("absoluteSeconds", "idleSeconds")), ${at} from used where offline
  )
  select * from used`);

/** Everything a refused exchange is checked against, to tell why it was refused. */
const codeByHash = (db: Db) => prepared(db, 'oauth_code_by_hash', (d, name) => joinGrantFacts(d.select({
    id: authorizationCodes.id,
    redirectUri: authorizationCodes.redirectUri,
    redirectUriRegistered: sql<boolean>`${authorizationCodes.redirectUri} = any(${oauthClients.redirectUris})`,
    scope: authorizationCodes.scope,
    codeChallenge: authorizationCodes.codeChallenge,
    codeChallengeMethod: authorizationCodes.codeChallengeMethod,
    expiresAt: authorizationCodes.expiresAt,
    usedAt: authorizationCodes.usedAt,
    sessionId: authorizationCodes.sessionId,
    nonce: authorizationCodes.nonce,
    ...grantFactColumns,
    user: claimedUserColumns,
  }).from(authorizationCodes).$dynamic(), authorizationCodes.clientId, authorizationCodes.sessionId)
    .where(eq(authorizationCodes.codeHash, p('hash')))
    .prepare(name));

/**
 * A code used twice was probably stolen: the token issued from it stops working (RFC 6749 4.1.2), and so does the
 * refresh token family it started (named by the code's id) with every access token that family issued.
 */
async function revokeTokensOf(ctx: Context, codeId: number): Promise<void> {
  const revoked = await ctx.db.update(oauthAccessTokens).set({ revokedAt: ctx.clock.now() })
    .where(and(eq(oauthAccessTokens.codeId, codeId), isNull(oauthAccessTokens.revokedAt))).returning({ sessionId: oauthAccessTokens.sessionId });
  for (const { sessionId } of revoked) {
    ctx.caches.changed('customers', `session:${sessionId}`);
    await revokeFamily(ctx, codeId, sessionId, ctx.clock.now());
  }
}

/**
 * The token endpoint (RFC 6749 4.1.3, RFC 7636 4.5): the authorization_code grant (spec 5.2 rule 4), and the
 * refresh_token and client_credentials grants where the realm enables OpenID Connect.
 */
export async function tokenRequest(ctx: Context, realm: Pick<Realm, 'openidConnectEnabled'> | undefined, realmUid: string, form: Form, presented: () => PresentedClient): Promise<TokenAnswer> {
  const grantType = field(form, 'grant_type');
  if (!grantType) throw new InvalidRequest('grant_type is missing');
  if (grantType === 'refresh_token' && realm?.openidConnectEnabled) return refreshGrant(ctx, realmUid, form, presented);
  if (grantType === 'client_credentials' && realm?.openidConnectEnabled) return clientCredentialsGrant(ctx, realmUid, form, presented);
  if (grantType !== 'authorization_code') {
    throw new UnsupportedGrantType(realm?.openidConnectEnabled ? 'the grants supported are authorization_code, refresh_token and client_credentials' : 'only the authorization_code grant is supported');
  }
  return exchangeCode(ctx, realmUid, form, presented);
}

/**
 * The authorization_code grant. The access token is made random before the statement knows the client; a client with
 * JWT access tokens gets nothing spent by that first statement, and the same statement runs again with the JWT its
 * facts sign.
 */
export async function exchangeCode(ctx: Context, realmUid: string, form: Form, presented: () => PresentedClient): Promise<TokenAnswer> {
  const client = presented();
  const code = field(form, 'code');
  const redirectUri = field(form, 'redirect_uri');
  const verifier = field(form, 'code_verifier');
  const wellFormed = verifier !== undefined && wellFormedPkceValue(verifier);
  const now = ctx.clock.now();
  const refreshToken = randomSecret();
  let access: { token: string; expiresIn?: number } = { token: randomSecret() };
  const hash = code ? hashSecret(code) : undefined;
  // What every run of the statement sends; the access token differs on a second run (`jwt`).
  const values = {
    hash, ...spendableGrantValues(realmUid, client, now),
    redirectUri: redirectUri ?? null, verifierSent: verifier !== undefined, plainVerifier: wellFormed ? verifier : null,
    s256Verifier: wellFormed ? s256Challenge(verifier) : null, refreshHash: hashSecret(refreshToken),
  };
  const exchange = async (jwt: boolean) => hash ? (await exchangeStatement(ctx.db).execute({ ...values, jwt, accessHash: hashSecret(access.token) }))[0] : undefined;

  let used = await exchange(false);
  if (!used) {
    const row = await refusedExchange(ctx, realmUid, client, { hash, redirectUri, verifier }, now);
    // Every check passed: the client's access tokens are JWTs, which its facts sign, or another exchange of the code won.
    if (jwtLifetime(row) !== null) {
      access = await newAccessToken(ctx, row, row.scope, now);
      used = await exchange(true);
    }
    if (!used) {
      await revokeTokensOf(ctx, row.id);
      throw new InvalidGrant('the code has already been used');
    }
  }
  const scopes = used.scope.split(' ');
  const answer: TokenAnswer = { access_token: access.token, token_type: 'Bearer', scope: used.scope, created_at: Math.floor(now.getTime() / 1000) };
  if (used.offline) answer.refresh_token = refreshToken;
  if (access.expiresIn) answer.expires_in = access.expiresIn;
  if (used.openidConnect && scopes.includes('openid')) {
    answer.id_token = await signIdToken(ctx, used, { scopes, accessToken: access.token, nonce: used.nonce, now });
  }
  return answer;
}

/** Why the exchange statement spent nothing: throws the refusal, or answers the code's facts when every check passes. */
async function refusedExchange(ctx: Context, realmUid: string, client: PresentedClient,
  sent: { hash: string | undefined; redirectUri: string | undefined; verifier: string | undefined }, now: Date) {
  const [row] = sent.hash ? await codeByHash(ctx.db).execute({ hash: sent.hash }) : [];
  const ownCode = row && row.clientUid === client.id && row.realmUid === realmUid && row.realmActive;
  if (ownCode) {
    if (!clientAuthenticates(row, client, row.codeChallenge !== null)) throw new InvalidClient(client.basic);
  } else {
    // Tell a bad client (invalid_client) apart from a good client with a bad code (invalid_grant).
    await authenticateClient(ctx, realmUid, client, true);
  }
  if (!sent.hash) throw new InvalidRequest('code is missing');
  if (!row || !ownCode) throw new InvalidGrant('the code is not valid');
  if (row.usedAt) {
    await revokeTokensOf(ctx, row.id);
    throw new InvalidGrant('the code has already been used');
  }
  if (row.expiresAt <= now) throw new InvalidGrant('the code has expired');
  if (sent.redirectUri !== row.redirectUri) throw new InvalidGrant('redirect_uri does not match the one of the authorization request');
  if (!row.redirectUriRegistered) throw new InvalidGrant('redirect_uri is no longer registered for the client');
  if (row.codeChallenge) {
    if (!sent.verifier) throw new InvalidGrant('code_verifier is missing');
    if (!verifierMatches(sent.verifier, row.codeChallenge, row.codeChallengeMethod ?? 'S256')) throw new InvalidGrant('code_verifier does not match the code_challenge');
  } else if (sent.verifier !== undefined) {
    throw new InvalidGrant('code_verifier was sent but the authorization request had no code_challenge');
  }
  if (!isLive({ expiresAt: row.sessionExpiresAt, revokedAt: row.sessionRevokedAt }, now)) {
    throw new InvalidGrant('the session that authorized this code has ended');
  }
  return row;
}
