import { eq } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import { delegatedTokens } from '../tables/delegation.js';
import { oauthClients } from '../tables/oauth.js';
import { realmSessions, realmUsers, realms } from '../tables/realms.js';
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
