import { and, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { momentPlaceholder } from '../db/columns.js';
import { prepared } from '../db/prepared.js';
import { isLive } from '../realms/sessions.js';
import { hashSecret } from '../security/secrets.js';
import { authenticateClient, clientAuthenticates, field, type Form, type PresentedClient } from './client-auth.js';
import { InvalidClient, InvalidGrant, InvalidRequest, UnsupportedGrantType } from './errors.js';
import { newAccessToken } from './access-token.js';
import { signIdToken } from './id-token.js';
import { claimedUserColumns, grantFactColumns, joinGrantFacts } from './grant-facts.js';
import { consumeCodeWithRefresh, refreshGrant, revokeFamily } from './refresh.js';
import { clientCredentialsGrant } from './client-credentials.js';
import { OFFLINE_ACCESS } from './schema.js';
import type { Realm } from '../realms/realms.js';
import { verifierMatches } from './pkce.js';
import { authorizationCodes, oauthAccessTokens, oauthClients } from '../tables/oauth.js';

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

/** Everything the exchange checks, read in one query (prepared: the exchange is a hot path). */
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
    refreshAbsoluteSeconds: oauthClients.refreshAbsoluteSeconds,
    refreshIdleSeconds: oauthClients.refreshIdleSeconds,
    ...grantFactColumns,
    user: claimedUserColumns,
  }).from(authorizationCodes).$dynamic(), authorizationCodes.clientId, authorizationCodes.sessionId)
    .where(eq(authorizationCodes.codeHash, sql.placeholder('hash')))
    .prepare(name));

async function findCode(ctx: Context, code: string) {
  const [row] = await codeByHash(ctx.db).execute({ hash: hashSecret(code) });
  return row;
}

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
 * Marks the code used and stores the token in one statement, hence one transaction: of two
 * concurrent exchanges of one code, only one finds it unused and gets a token. Prepared, as the
 * code lookup is: the exchange is a hot path.
 */
const consumeStatement = (db: Db) => prepared(db, 'oauth_consume_code', (d, name) => {
  const used = d.$with('used').as(d.update(authorizationCodes).set({ usedAt: momentPlaceholder('now') })
    .where(and(eq(authorizationCodes.id, sql.placeholder('codeId')), isNull(authorizationCodes.usedAt)))
    .returning({ id: authorizationCodes.id }));
  // Drizzle's insert ... select lists every column of the table in its order: the select is built in that order, and
  // the record's type makes a column added to the table a compile error here.
  const values: Record<keyof typeof oauthAccessTokens.$inferSelect, SQL.Aliased | typeof used.id> = {
    id: sql`nextval(pg_get_serial_sequence('oauth_access_tokens', 'id'))`.as('id'),
    tokenHash: sql`${sql.placeholder('tokenHash')}`.as('token_hash'),
    clientId: sql`${sql.placeholder('clientId')}::integer`.as('client_id'),
    sessionId: sql`${sql.placeholder('sessionId')}::integer`.as('session_id'),
    codeId: used.id,
    refreshFamily: sql`null::integer`.as('refresh_family'),
    scope: sql`${sql.placeholder('scope')}`.as('scope'),
    revokedAt: sql`null`.as('revoked_at'),
    createdAt: momentPlaceholder('now').as('created_at'),
  };
  const inTableOrder = Object.fromEntries(Object.keys(getTableColumns(oauthAccessTokens)).map((key) => [key, values[key as keyof typeof values]])) as typeof values;
  return d.with(used).insert(oauthAccessTokens).select(d.select(inTableOrder).from(used)).returning({ id: oauthAccessTokens.id }).prepare(name);
});

async function consumeCode(ctx: Context, codeId: number, clientId: number, sessionId: number, scope: string, tokenHash: string, now: Date) {
  const rows = await consumeStatement(ctx.db).execute({ now: now.toISOString(), codeId, clientId, sessionId, scope, tokenHash });
  return rows.length === 1;
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

export async function exchangeCode(ctx: Context, realmUid: string, form: Form, presented: () => PresentedClient): Promise<TokenAnswer> {
  const client = presented();
  const code = field(form, 'code');
  const redirectUri = field(form, 'redirect_uri');
  const verifier = field(form, 'code_verifier');

  const row = code ? await findCode(ctx, code) : undefined;
  const ownCode = row && row.clientUid === client.id && row.realmUid === realmUid && row.realmActive;
  if (ownCode) {
    if (!clientAuthenticates(row, client, row.codeChallenge !== null)) throw new InvalidClient(client.basic);
  } else {
    // Tell a bad client (invalid_client) apart from a good client with a bad code (invalid_grant).
    await authenticateClient(ctx, realmUid, client, true);
  }
  if (!code) throw new InvalidRequest('code is missing');
  if (!row || !ownCode) throw new InvalidGrant('the code is not valid');
  const now = ctx.clock.now();
  if (row.usedAt) {
    await revokeTokensOf(ctx, row.id);
    throw new InvalidGrant('the code has already been used');
  }
  if (row.expiresAt <= now) throw new InvalidGrant('the code has expired');
  if (redirectUri !== row.redirectUri) throw new InvalidGrant('redirect_uri does not match the one of the authorization request');
  if (!row.redirectUriRegistered) throw new InvalidGrant('redirect_uri is no longer registered for the client');
  if (row.codeChallenge) {
    if (!verifier) throw new InvalidGrant('code_verifier is missing');
    if (!verifierMatches(verifier, row.codeChallenge, row.codeChallengeMethod ?? 'S256')) throw new InvalidGrant('code_verifier does not match the code_challenge');
  } else if (verifier !== undefined) {
    throw new InvalidGrant('code_verifier was sent but the authorization request had no code_challenge');
  }
  if (!isLive({ expiresAt: row.sessionExpiresAt, revokedAt: row.sessionRevokedAt }, now)) {
    throw new InvalidGrant('the session that authorized this code has ended');
  }

  const { token, expiresIn } = await newAccessToken(ctx, row, row.scope, now);
  const scopes = row.scope.split(' ');
  const offline = row.openidConnect && scopes.includes(OFFLINE_ACCESS);
  const refreshToken = offline ? await consumeCodeWithRefresh(ctx, {
    codeId: row.id, clientId: row.clientId, sessionId: row.sessionId, scope: row.scope, absoluteSeconds: row.refreshAbsoluteSeconds, idleSeconds: row.refreshIdleSeconds,
  }, hashSecret(token), now) : null;
  if (offline ? refreshToken === null : !(await consumeCode(ctx, row.id, row.clientId, row.sessionId, row.scope, hashSecret(token), now))) {
    await revokeTokensOf(ctx, row.id);
    throw new InvalidGrant('the code has already been used');
  }
  const answer: TokenAnswer = { access_token: token, token_type: 'Bearer', scope: row.scope, created_at: Math.floor(now.getTime() / 1000) };
  if (refreshToken) answer.refresh_token = refreshToken;
  if (expiresIn) answer.expires_in = expiresIn;
  if (row.openidConnect && scopes.includes('openid')) {
    answer.id_token = await signIdToken(ctx, row, { scopes, accessToken: token, nonce: row.nonce, now });
  }
  return answer;
}
