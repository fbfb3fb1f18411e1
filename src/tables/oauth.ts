import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { moment, timestamps } from '../db/columns.js';
import { realmSessions, realms } from './realms.js';

/** An OAuth 2.0 client of one realm (spec 2.13): uid is the client_id; only the secret's hash is kept. */
export const oauthClients = pgTable('oauth_clients', {
  id: serial('id').primaryKey(),
  uid: text('uid').notNull(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  secretHash: text('secret_hash').notNull(),
  redirectUris: text('redirect_uris').array().notNull(),
  scopes: text('scopes').array().notNull(),
  confidential: boolean('confidential').notNull().default(true),
  /** OpenID Connect refresh tokens (scope offline_access): how long a family lives at most, and unused. */
  refreshAbsoluteSeconds: integer('refresh_absolute_seconds').notNull().default(30 * 86_400),
  refreshIdleSeconds: integer('refresh_idle_seconds').notNull().default(14 * 86_400),
  /** OpenID Connect logout: where the end-session endpoint may send the browser back, and where a session's end is POSTed. */
  postLogoutRedirectUris: text('post_logout_redirect_uris').array().notNull().default(sql`'{}'::text[]`),
  backchannelLogoutUri: text('backchannel_logout_uri'),
  /** OpenID Connect: its access tokens are RFC 9068 JWTs living this many seconds (a resource server verifies them offline); null: opaque. */
  jwtAccessTokenSeconds: integer('jwt_access_token_seconds'),
  /** OpenID Connect: the algorithm of its ID tokens, RS256 (default) or ES256. */
  idTokenSignedResponseAlg: text('id_token_signed_response_alg').notNull().default('RS256'),
  /** OpenID Connect: the claim of userinfo that carries the user's visible custom fields (scope profile); null: none. */
  customFieldsClaim: text('custom_fields_claim'),
  /** OpenID Connect client_credentials: the scopes an admin granted the client to act as itself with; empty: the grant is refused. */
  clientCredentialsScopes: text('client_credentials_scopes').array().notNull().default(sql`'{}'::text[]`),
  ...timestamps,
}, (t) => [uniqueIndex('oauth_clients_uid_key').on(t.uid), index('oauth_clients_realm_idx').on(t.realmId)]);

/** Lives ten minutes and works once (spec 5.2). */
export const authorizationCodes = pgTable('authorization_codes', {
  id: serial('id').primaryKey(),
  codeHash: text('code_hash').notNull(),
  clientId: integer('client_id').notNull().references(() => oauthClients.id, { onDelete: 'cascade' }),
  sessionId: integer('session_id').notNull().references(() => realmSessions.id, { onDelete: 'cascade' }),
  redirectUri: text('redirect_uri').notNull(),
  scope: text('scope').notNull(),
  codeChallenge: text('code_challenge'),
  codeChallengeMethod: text('code_challenge_method'),
  /** OpenID Connect: the authorization request's nonce, repeated in the ID token. */
  nonce: text('nonce'),
  expiresAt: moment('expires_at').notNull(),
  usedAt: moment('used_at'),
  createdAt: timestamps.createdAt,
}, (t) => [uniqueIndex('authorization_codes_hash_key').on(t.codeHash), index('authorization_codes_session_idx').on(t.sessionId)]);

/** No expiry of its own: it lives as long as the session that authorized it (spec 5.2 rule 9). */
export const oauthAccessTokens = pgTable('oauth_access_tokens', {
  id: serial('id').primaryKey(),
  tokenHash: text('token_hash').notNull(),
  clientId: integer('client_id').notNull().references(() => oauthClients.id, { onDelete: 'cascade' }),
  sessionId: integer('session_id').notNull().references(() => realmSessions.id, { onDelete: 'cascade' }),
  codeId: integer('code_id').references(() => authorizationCodes.id, { onDelete: 'set null' }),
  /** The refresh token family that issued it, if a refresh did: a reused refresh token revokes it with its family. */
  refreshFamily: integer('refresh_family'),
  scope: text('scope').notNull(),
  revokedAt: moment('revoked_at'),
  createdAt: timestamps.createdAt,
}, (t) => [
  uniqueIndex('oauth_access_tokens_hash_key').on(t.tokenHash), index('oauth_access_tokens_session_idx').on(t.sessionId),
  index('oauth_access_tokens_refresh_family_idx').on(t.refreshFamily).where(sql`${t.refreshFamily} is not null`),
  // A reused code revokes its token; a purged code sets it to null (the foreign key): both look tokens up by code.
  index('oauth_access_tokens_code_idx').on(t.codeId).where(sql`${t.codeId} is not null`),
]);

/**
 * A realm's keys for signing ID tokens (OpenID Connect): the private key sealed with SECRETS_KEY, the public one as a JWK.
 * The newest is the one in use; a retired key stays published until the tokens it signed have expired.
 */
export const realmSigningKeys = pgTable('realm_signing_keys', {
  id: serial('id').primaryKey(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  kid: text('kid').notNull(),
  alg: text('alg').notNull(),
  publicJwk: jsonb('public_jwk').notNull(),
  sealedPrivateJwk: text('sealed_private_jwk').notNull(),
  retiredAt: moment('retired_at'),
  createdAt: timestamps.createdAt,
}, (t) => [
  uniqueIndex('realm_signing_keys_kid_key').on(t.kid),
  uniqueIndex('realm_signing_keys_in_use_key').on(t.realmId, t.alg).where(sql`${t.retiredAt} is null`),
  index('realm_signing_keys_realm_idx').on(t.realmId),
]);

/**
 * A refresh token (OpenID Connect, scope offline_access): bound to the session that authorized it, used once (each
 * refresh rotates it), one family per authorization. A used token presented again revokes the family (RFC 9700 4.14).
 */
export const oauthRefreshTokens = pgTable('oauth_refresh_tokens', {
  id: serial('id').primaryKey(),
  tokenHash: text('token_hash').notNull(),
  /** The id of the family's first token. */
  family: integer('family').notNull(),
  clientId: integer('client_id').notNull().references(() => oauthClients.id, { onDelete: 'cascade' }),
  sessionId: integer('session_id').notNull().references(() => realmSessions.id, { onDelete: 'cascade' }),
  scope: text('scope').notNull(),
  /** The family's end (its absolute lifetime), and this token's (its idle lifetime), whichever comes first. */
  familyExpiresAt: moment('family_expires_at').notNull(),
  expiresAt: moment('expires_at').notNull(),
  usedAt: moment('used_at'),
  revokedAt: moment('revoked_at'),
  createdAt: timestamps.createdAt,
}, (t) => [
  uniqueIndex('oauth_refresh_tokens_hash_key').on(t.tokenHash), index('oauth_refresh_tokens_family_idx').on(t.family),
  index('oauth_refresh_tokens_session_idx').on(t.sessionId),
]);

/**
 * An access token of the client_credentials grant (OpenID Connect realms): the client acting as itself, no user nor
 * session behind it, so it lives until `expires_at`. Atrium's own APIs, which act for a user, never take it; resource
 * servers check it by introspection, or verify it offline when it is a JWT.
 */
export const oauthClientTokens = pgTable('oauth_client_tokens', {
  id: serial('id').primaryKey(),
  tokenHash: text('token_hash').notNull(),
  clientId: integer('client_id').notNull().references(() => oauthClients.id, { onDelete: 'cascade' }),
  scope: text('scope').notNull(),
  expiresAt: moment('expires_at').notNull(),
  revokedAt: moment('revoked_at'),
  createdAt: timestamps.createdAt,
}, (t) => [uniqueIndex('oauth_client_tokens_hash_key').on(t.tokenHash), index('oauth_client_tokens_client_idx').on(t.clientId)]);
