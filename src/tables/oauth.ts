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
}, (t) => [uniqueIndex('authorization_codes_hash_key').on(t.codeHash)]);

/** No expiry of its own: it lives as long as the session that authorized it (spec 5.2 rule 9). */
export const oauthAccessTokens = pgTable('oauth_access_tokens', {
  id: serial('id').primaryKey(),
  tokenHash: text('token_hash').notNull(),
  clientId: integer('client_id').notNull().references(() => oauthClients.id, { onDelete: 'cascade' }),
  sessionId: integer('session_id').notNull().references(() => realmSessions.id, { onDelete: 'cascade' }),
  codeId: integer('code_id').references(() => authorizationCodes.id, { onDelete: 'set null' }),
  scope: text('scope').notNull(),
  revokedAt: moment('revoked_at'),
  createdAt: timestamps.createdAt,
}, (t) => [uniqueIndex('oauth_access_tokens_hash_key').on(t.tokenHash), index('oauth_access_tokens_session_idx').on(t.sessionId)]);

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
  uniqueIndex('realm_signing_keys_in_use_key').on(t.realmId).where(sql`${t.retiredAt} is null`),
  index('realm_signing_keys_realm_idx').on(t.realmId),
]);
