import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import { momentPlaceholder } from '../db/columns.js';
import { hashSecret } from '../security/secrets.js';
import { delegatedTokens } from '../tables/delegation.js';
import { oauthClients } from '../tables/oauth.js';
import { realmSessions, realmUsers, realms } from '../tables/realms.js';
import type { PresentedClient } from './client-auth.js';
import type { ClaimedUser } from './id-token.js';

/**
 * What a grant (a code exchange or a refresh) reads, in the same query as its code or token, of the client, realm,
 * session and user behind it: enough to check the session and to sign the tokens it answers without another round trip.
 * A query selecting these joins `oauth_clients`, `realms`, `realm_sessions`, `realm_users` and, left, `delegated_tokens`.
 */
export const claimedUserColumns = {
  uuid: realmUsers.uuid, email: realmUsers.email, emailVerifiedAt: realmUsers.emailVerifiedAt, username: realmUsers.username,
  firstName: realmUsers.firstName, lastName: realmUsers.lastName, secondLastName: realmUsers.secondLastName,
  locale: realmUsers.locale, updatedAt: realmUsers.updatedAt,
};

export const grantFactColumns = {
  clientId: oauthClients.id, clientUid: oauthClients.uid, secretHash: oauthClients.secretHash, confidential: oauthClients.confidential,
  jwtAccessTokenSeconds: oauthClients.jwtAccessTokenSeconds, idTokenAlg: oauthClients.idTokenSignedResponseAlg,
  realmId: realms.id, realmUid: realms.uid, realmActive: realms.active, openidConnect: realms.openidConnectEnabled,
  sessionExpiresAt: realmSessions.expiresAt, sessionRevokedAt: realmSessions.revokedAt, sessionHash: realmSessions.sessionHash,
  sessionCreatedAt: realmSessions.createdAt, authMethods: realmSessions.authMethods,
  /** After a sign-in delegated to an identity provider: its issuer, as the ID token's claim `idp`. */
  upstreamIssuer: delegatedTokens.issuer,
};

/** Joins what `grantFactColumns` read to a query of codes or refresh tokens, by the row's client and session. */
export const joinGrantFacts = <Query extends PgSelect>(query: Query, clientId: PgColumn, sessionId: PgColumn) => query
  .innerJoin(oauthClients, eq(oauthClients.id, clientId))
  .innerJoin(realms, eq(realms.id, oauthClients.realmId))
  .innerJoin(realmSessions, eq(realmSessions.id, sessionId))
  .innerJoin(realmUsers, eq(realmUsers.id, realmSessions.userId))
  .leftJoin(delegatedTokens, eq(delegatedTokens.sessionId, realmSessions.id));

export interface GrantFacts {
  clientUid: string;
  /** The client's JWT access token lifetime (RFC 9068), or null for opaque tokens. */
  jwtAccessTokenSeconds: number | null;
  /** The client's ID token algorithm (RS256 or ES256). */
  idTokenAlg: string;
  realmId: number;
  realmUid: string;
  openidConnect: boolean;
  sessionHash: string;
  sessionCreatedAt: Date;
  authMethods: string[];
  upstreamIssuer: string | null;
  user: ClaimedUser;
}

const p = (name: string) => sql.placeholder(name);

/**
 * A grant (a code exchange, a refresh) spends its code or token and writes the tokens it answers in one statement, one
 * round trip, whose update (`update <grant> ... from grantFactTables where ...`) spends the row only where every check
 * the grant would make passes, and returns its facts. Only a refused grant reads its facts again, to tell which check
 * refused it, so that a check written here and not in TypeScript, or the reverse, fails a test of that refusal. These
 * are the tables the facts come from, joined to the grant's row by `spendableGrant`.
 */
export const grantFactTables = sql`${oauthClients} join ${realms} on ${realms.id} = ${oauthClients.realmId},
  ${realmSessions} join ${realmUsers} on ${realmUsers.id} = ${realmSessions.userId}
  left join ${delegatedTokens} on ${delegatedTokens.sessionId} = ${realmSessions.id}`;

/**
 * The checks both grants share, on the grant's client and session columns: the client and active realm the request
 * names, the client's authentication (`clientAuthenticates`, on the hash of the secret presented, `secretHash`, null
 * when none was, and `boundOtherwise` for a public client; the hashes compared as a token is looked up by its hash), a
 * live session at `at`, and the kind of access token (`jwt`) the grant made before it knew the client.
 */
export const spendableGrant = (grant: { clientId: PgColumn; sessionId: PgColumn }, boundOtherwise: SQL) => sql`${oauthClients.id} = ${grant.clientId}
  and ${oauthClients.uid} = ${p('clientUid')} and ${realms.uid} = ${p('realmUid')} and ${realms.active}
  and case when ${p('secretHash')}::text is null then not ${oauthClients.confidential} and ${boundOtherwise}
    else ${oauthClients.secretHash} = ${p('secretHash')} end
  and ${realmSessions.id} = ${grant.sessionId} and ${realmSessions.revokedAt} is null and ${realmSessions.expiresAt} > ${momentPlaceholder('at')}
  and (${realms.openidConnectEnabled} and ${oauthClients.jwtAccessTokenSeconds} is not null) = ${p('jwt')}::boolean`;

/** What `spendableGrant` reads of the request, by its placeholders' names (`jwt` is given per run). */
export const spendableGrantValues = (realmUid: string, client: PresentedClient, now: Date) => ({
  at: now.toISOString(), clientUid: client.id, realmUid, secretHash: client.secret === undefined ? null : hashSecret(client.secret),
});
