import { index, integer, jsonb, pgTable, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { moment, timestamps } from '../db/columns.js';
import { realmSessions, realmUsers, realms } from './realms.js';

/** Where claims of the provider go: name fields, the username and custom field values (by key). */
export interface ClaimMapping {
  first_name?: string;
  last_name?: string;
  second_last_name?: string;
  username?: string;
  custom_fields?: Record<string, string>;
}

/**
 * A realm's OpenID Connect identity provider: its login page offers "Sign in with <button label>".
 * Whether `/me` shows the provider's token is the realm's own `show_delegation_information`.
 */
export const identityProviders = pgTable('identity_providers', {
  realmId: integer('realm_id').primaryKey().references(() => realms.id, { onDelete: 'cascade' }),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  /** Sealed with the secrets key (security/sealed.ts): it authenticates us to the provider, so it is read back. */
  sealedClientSecret: text('sealed_client_secret').notNull(),
  scopes: text('scopes').array().notNull(),
  buttonLabel: text('button_label').notNull(),
  claimMapping: jsonb('claim_mapping').$type<ClaimMapping>().notNull().default({}),
  ...timestamps,
});

/** A realm user's account at an identity provider: the provider's `sub` names one user per realm and issuer. */
export const realmUserIdentities = pgTable('realm_user_identities', {
  id: serial('id').primaryKey(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  userId: integer('user_id').notNull().references(() => realmUsers.id, { onDelete: 'cascade' }),
  issuer: text('issuer').notNull(),
  subject: text('subject').notNull(),
  createdAt: timestamps.createdAt,
}, (t) => [
  uniqueIndex('realm_user_identities_subject_key').on(t.realmId, t.issuer, t.subject),
  // One account per provider for each user: a second provider account claiming the same email is not linked.
  uniqueIndex('realm_user_identities_user_key').on(t.userId, t.issuer),
]);

/**
 * The provider's tokens of a realm session opened by a delegated sign-in (OAuth tokens of the realm
 * reach them through their session). Both tokens are sealed; `refresh_claimed_until` is the lease of
 * the one request refreshing the access token.
 */
export const delegatedTokens = pgTable('delegated_tokens', {
  sessionId: integer('session_id').primaryKey().references(() => realmSessions.id, { onDelete: 'cascade' }),
  uuid: uuid('uuid').notNull().defaultRandom(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  issuer: text('issuer').notNull(),
  sealedAccessToken: text('sealed_access_token').notNull(),
  /** Null when the provider gave no `expires_in`: the token is then taken to live as long as the session. */
  accessTokenExpiresAt: moment('access_token_expires_at'),
  sealedRefreshToken: text('sealed_refresh_token'),
  refreshClaimedUntil: moment('refresh_claimed_until'),
  ...timestamps,
}, (t) => [index('delegated_tokens_realm_idx').on(t.realmId)]);

/**
 * The `state` of each delegated sign-in that ended, by hash, until the flow would have expired anyway:
 * a callback is taken once, in the transaction that signs the user in.
 */
export const usedDelegationStates = pgTable('used_delegation_states', {
  stateHash: text('state_hash').primaryKey(),
  expiresAt: moment('expires_at').notNull(),
}, (t) => [index('used_delegation_states_expires_idx').on(t.expiresAt)]);
