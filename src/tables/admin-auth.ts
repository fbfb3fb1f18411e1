import { bigint, boolean, index, integer, pgTable, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { moment, timestamps } from '../db/columns.js';

/** A team member: an administrator who signs in to the administration or acts through tokens. */
export const admins = pgTable('admins', {
  id: serial('id').primaryKey(),
  /** Shown where an admin appears to end users (a submission's assignee, spec 2.10). */
  uuid: uuid('uuid').notNull().defaultRandom(),
  email: text('email').notNull(),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  passwordHash: text('password_hash').notNull(),
  active: boolean('active').notNull().default(true),
  ...timestamps,
}, (t) => [uniqueIndex('admins_email_key').on(t.email), uniqueIndex('admins_uuid_key').on(t.uuid)]);

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  key: text('key').notNull(),
  name: text('name').notNull(),
  context: text('context').notNull(),
  builtIn: boolean('built_in').notNull().default(false),
  permissions: text('permissions').array().notNull(),
  ...timestamps,
}, (t) => [uniqueIndex('roles_key_key').on(t.key)]);

/** A role given to a team member, for one realm or space when the role's context needs a target. */
export const roleAssignments = pgTable('role_assignments', {
  id: serial('id').primaryKey(),
  adminId: integer('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
  roleId: integer('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
  target: text('target'),
  createdAt: timestamps.createdAt,
}, (t) => [index('role_assignments_admin_idx').on(t.adminId), index('role_assignments_role_idx').on(t.roleId)]);

/** An API access application (spec 2.14): tokens are issued for one application and one team member. */
export const apiApplications = pgTable('api_applications', {
  id: serial('id').primaryKey(),
  uid: text('uid').notNull(),
  secretHash: text('secret_hash').notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  redirectUri: text('redirect_uri').notNull().default(''),
  logoutUrl: text('logout_url').notNull().default(''),
  ...timestamps,
}, (t) => [uniqueIndex('api_applications_uid_key').on(t.uid)]);

export const accessTokens = pgTable('access_tokens', {
  id: serial('id').primaryKey(),
  adminId: integer('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
  applicationId: integer('application_id').notNull().references(() => apiApplications.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  createdAt: timestamps.createdAt,
}, (t) => [uniqueIndex('access_tokens_hash_key').on(t.tokenHash), index('access_tokens_admin_idx').on(t.adminId)]);

/** A signed-in browser of the administration; the cookie holds the id, the table only its hash. */
export const adminSessions = pgTable('admin_sessions', {
  id: serial('id').primaryKey(),
  adminId: integer('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
  sessionHash: text('session_hash').notNull(),
  csrfHash: text('csrf_hash').notNull(),
  expiresAt: moment('expires_at').notNull(),
  /** The account requires a second factor and the member had none at sign-in: the session reaches only enrolment. */
  enrolmentOnly: boolean('enrolment_only').notNull().default(false),
  createdAt: timestamps.createdAt,
}, (t) => [uniqueIndex('admin_sessions_hash_key').on(t.sessionHash), index('admin_sessions_admin_idx').on(t.adminId)]);

/**
 * A one-time link that lets an invited team member choose their password (and so become active); only the
 * token's SHA-256 is kept. Inviting the member again marks the earlier link expired.
 */
export const memberInvitations = pgTable('member_invitations', {
  id: serial('id').primaryKey(),
  adminId: integer('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  expiresAt: moment('expires_at').notNull(),
  usedAt: moment('used_at'),
  createdAt: timestamps.createdAt,
}, (t) => [uniqueIndex('member_invitations_hash_key').on(t.tokenHash), index('member_invitations_admin_idx').on(t.adminId)]);

/**
 * A member's authenticator app (TOTP, RFC 6238): the secret sealed with the secrets key, bound to the row. It is a
 * second factor once confirmed by a code from the app; `last_step` is the time step of the last code taken (each once).
 */
export const adminTotp = pgTable('admin_totp', {
  adminId: integer('admin_id').primaryKey().references(() => admins.id, { onDelete: 'cascade' }),
  sealedSecret: text('sealed_secret').notNull(),
  confirmedAt: moment('confirmed_at'),
  lastStep: integer('last_step'),
  createdAt: timestamps.createdAt,
});

/** A member's single-use recovery codes (ten, made with the authenticator app); only their SHA-256 is kept. */
export const adminRecoveryCodes = pgTable('admin_recovery_codes', {
  id: serial('id').primaryKey(),
  adminId: integer('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  usedAt: moment('used_at'),
  createdAt: timestamps.createdAt,
}, (t) => [index('admin_recovery_codes_admin_idx').on(t.adminId, t.codeHash)]);

/** The challenge of a sign-in whose password was right, waiting for the second factor (one per member; only its hash kept). */
export const adminSignInChallenges = pgTable('admin_sign_in_challenges', {
  id: serial('id').primaryKey(),
  adminId: integer('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
  challengeHash: text('challenge_hash').notNull(),
  expiresAt: moment('expires_at').notNull(),
  createdAt: timestamps.createdAt,
}, (t) => [uniqueIndex('admin_sign_in_challenges_hash_key').on(t.challengeHash), index('admin_sign_in_challenges_admin_idx').on(t.adminId)]);

/**
 * A member's passkey (WebAuthn credential), a second factor like the authenticator app: its credential id and COSE public
 * key (base64url), the signature counter of its last use (0 for authenticators that keep none), and the transports the
 * browser reported; `name` is the member's own.
 */
export const adminPasskeys = pgTable('admin_passkeys', {
  id: serial('id').primaryKey(),
  adminId: integer('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
  credentialId: text('credential_id').notNull(),
  publicKey: text('public_key').notNull(),
  counter: bigint('counter', { mode: 'number' }).notNull().default(0),
  transports: text('transports').array().notNull(),
  name: text('name').notNull(),
  createdAt: timestamps.createdAt,
  lastUsedAt: moment('last_used_at'),
}, (t) => [uniqueIndex('admin_passkeys_credential_key').on(t.credentialId), index('admin_passkeys_admin_idx').on(t.adminId)]);

/** The challenge of a passkey being added (one per member, five minutes, single-use; only its hash kept). */
export const adminPasskeyRegistrations = pgTable('admin_passkey_registrations', {
  adminId: integer('admin_id').primaryKey().references(() => admins.id, { onDelete: 'cascade' }),
  challengeHash: text('challenge_hash').notNull(),
  expiresAt: moment('expires_at').notNull(),
  createdAt: timestamps.createdAt,
});
