import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { moment, timestamps } from '../db/columns.js';
import { admins } from './admin-auth.js';

/** An end-user directory with its own sign-in pages, sessions and OAuth clients. */
export const realms = pgTable('realms', {
  id: serial('id').primaryKey(),
  uid: text('uid').notNull(),
  name: text('name').notNull(),
  active: boolean('active').notNull().default(true),
  customDomain: text('custom_domain'),
  sessionLifetimeMinutes: integer('session_lifetime_minutes').notNull().default(120),
  otpCodeValidityMinutes: integer('otp_code_validity_minutes').notNull().default(5),
  otpResendWaitSeconds: integer('otp_resend_wait_seconds').notNull().default(30),
  pkcePlainAllowed: boolean('pkce_plain_allowed').notNull().default(false),
  showDelegationInformation: boolean('show_delegation_information').notNull().default(false),
  /** OpenID Connect on the realm's OAuth server (issue 31): off by default, as spec 5.2 knows only OAuth 2.0. */
  openidConnectEnabled: boolean('openid_connect_enabled').notNull().default(false),
  /** OpenID Connect: the signing keys in use are replaced once this many days old (a job); null: only by the admin action. */
  signingKeyRotationDays: integer('signing_key_rotation_days'),
  delegationProvider: text('delegation_provider'),
  /** How a visitor's sign-up becomes an account: one of ACTIVATION_MODES (schema.ts). */
  activationMode: text('activation_mode').notNull().default('direct'),
  /** The language of the realm pages when the browser's Accept-Language names none we have: a Locale (i18n/locale.ts). */
  defaultLanguage: text('default_language').notNull().default('en'),
  /** Branding of the realm pages (branding.ts checks them): an https address or a path, a hex colour, the documents' title. */
  brandingLogoUrl: text('branding_logo_url'),
  brandingPrimaryColor: text('branding_primary_color'),
  brandingPageTitle: text('branding_page_title'),
  ...timestamps,
}, (t) => [uniqueIndex('realms_uid_key').on(t.uid), uniqueIndex('realms_custom_domain_key').on(t.customDomain)]);

export interface AvatarValue {
  id: number;
  file_name: string;
  path: string;
  small_path: string | null;
  medium_path: string | null;
}

export const realmUsers = pgTable('realm_users', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  username: text('username'),
  passwordHash: text('password_hash'),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  secondLastName: text('second_last_name').notNull().default(''),
  externalId: text('external_id'),
  active: boolean('active').notNull().default(true),
  /**
   * Signed up in an `activation_email` realm and not yet confirmed by the mailed link: the user is
   * inactive meanwhile. Cleared by the link, or by an administrator's decision on `active`.
   */
  confirmationPending: boolean('confirmation_pending').notNull().default(false),
  /** Signed up in a `moderated` realm and not yet decided on: inactive until an administrator activates it. */
  moderationPending: boolean('moderation_pending').notNull().default(false),
  /**
   * When the address was proven the user's: a link or code mailed to it was used, an administrator
   * created the user or invited the address, or an identity provider asserted `email_verified`
   * (DESIGN.md "Verified addresses"). Null: nothing links or merges an account on this address.
   */
  emailVerifiedAt: moment('email_verified_at'),
  avatar: jsonb('avatar').$type<AvatarValue | null>(),
  /** The language of the user's mails (a Locale): the page's at sign-up; null reads the realm's default language. */
  locale: text('locale'),
  customFields: jsonb('custom_fields').$type<Record<string, unknown>>().notNull().default({}),
  ...timestamps,
}, (t) => [
  uniqueIndex('realm_users_uuid_key').on(t.uuid),
  uniqueIndex('realm_users_email_key').on(t.realmId, sql`lower(${t.email})`),
  uniqueIndex('realm_users_username_key').on(t.realmId, sql`lower(${t.username})`),
  // Segment conditions of equality on a custom field (containment, @>) are answered from this index.
  index('realm_users_custom_fields_idx').using('gin', t.customFields.op('jsonb_path_ops')),
]);

/** A field every user of the realm may carry (facts page: at most 20 per realm). */
export const customFields = pgTable('custom_fields', {
  id: serial('id').primaryKey(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  key: text('key').notNull(),
  name: text('name').notNull(),
  type: text('type').notNull(),
  options: text('options').array().notNull().default(sql`'{}'::text[]`),
  required: boolean('required').notNull().default(false),
  unique: boolean('unique').notNull().default(false),
  visible: boolean('visible').notNull().default(true),
  editable: boolean('editable').notNull().default(false),
  ...timestamps,
}, (t) => [uniqueIndex('custom_fields_realm_key').on(t.realmId, t.key)]);

/**
 * A signed-in end user. The cookie (or an OAuth access token tied to the session) carries the
 * secret; rows outlive their end (revoked_at, expires_at) so that a dead credential is told apart
 * from one never issued (401 grant_expired versus user_session).
 */
export const realmSessions = pgTable('realm_sessions', {
  id: serial('id').primaryKey(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  userId: integer('user_id').notNull().references(() => realmUsers.id, { onDelete: 'cascade' }),
  sessionHash: text('session_hash').notNull(),
  expiresAt: moment('expires_at').notNull(),
  revokedAt: moment('revoked_at'),
  /** The admin who opened this session by impersonation, if any. */
  impersonatorId: integer('impersonator_id').references(() => admins.id, { onDelete: 'set null' }),
  /** The browser that signed in (its User-Agent, cut to 500 characters), shown in the profile's session list. */
  userAgent: text('user_agent'),
  /** When the session was last used, kept to the minute (not written on every request). */
  lastUsedAt: moment('last_used_at'),
  /** How the user proved who they are, as RFC 8176 values (`pwd`, `otp`): an ID token's `amr`. Empty when none applies. */
  authMethods: text('auth_methods').array().notNull().default(sql`'{}'::text[]`),
  createdAt: timestamps.createdAt,
}, (t) => [uniqueIndex('realm_sessions_hash_key').on(t.sessionHash), index('realm_sessions_user_idx').on(t.userId)]);

/**
 * A one-time link mailed to a realm user (password reset, activation, invitation): only the token's
 * hash is kept. An invitation has no user yet, hence the nullable user_id.
 */
export const realmUserLinks = pgTable('realm_user_links', {
  id: serial('id').primaryKey(),
  realmId: integer('realm_id').notNull().references(() => realms.id, { onDelete: 'cascade' }),
  userId: integer('user_id').references(() => realmUsers.id, { onDelete: 'cascade' }),
  purpose: text('purpose').notNull(),
  email: text('email').notNull(),
  tokenHash: text('token_hash').notNull(),
  /** Where the journey goes on once the link is used (an activation resuming an OAuth authorize, say); checked again then. */
  redirectUri: text('redirect_uri'),
  expiresAt: moment('expires_at').notNull(),
  usedAt: moment('used_at'),
  createdAt: timestamps.createdAt,
}, (t) => [uniqueIndex('realm_user_links_token_key').on(t.tokenHash), index('realm_user_links_user_idx').on(t.userId, t.purpose)]);
