import { isLocale, LOCALES } from '../i18n/locale.js';
import { and, desc, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { AvatarModel, RealmUserInput as RealmUserInputSchema, RealmUserModel, RealmUserStatus } from './schema.js';
import { orderOf } from '../db/sorting.js';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { textSearch } from '../db/like.js';
import { uniqueViolation } from '../db/unique.js';
import { FieldErrors, invalidField, notFound } from '../errors/index.js';
import { isEmail, normalizeEmail } from '../admin-auth/team.js';
import { hashPassword, passwordWeakness } from '../security/passwords.js';
import { removeAvatarObjects } from './avatar-files.js';
import { cleanUpAfterUsers } from './user-cleanups.js';
import { removeAfterCommit } from '../storage/storage.js';
import { fieldsOf, type CustomField } from './custom-fields.js';
import { checkUniqueValues, fieldValueList, lockFieldValues, mergeFieldValues, type FieldValues } from './field-values.js';
import type { Realm } from './realms.js';
import { revokeUserSessions } from './sessions.js';
import { signInLockedUntil } from './sign-in-limit.js';
import { realmUsers, type AvatarValue } from '../tables/realms.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { emitWebhookEvent, type WebhookEvent } from '../webhooks/outbox.js';

export type RealmUser = typeof realmUsers.$inferSelect;

export type AvatarBody = Static<typeof AvatarModel>;
export type RealmUserBody = Static<typeof RealmUserModel>;
/** What an admin may set; the customers PUT /me passes a subset. */
export type RealmUserInput = Static<typeof RealmUserInputSchema>;

export const userName = (user: Pick<RealmUser, 'firstName' | 'lastName' | 'secondLastName'>) =>
  [user.firstName, user.lastName, user.secondLastName].filter(Boolean).join(' ');

/** Spec 2.7: paths; the original is reused where no smaller rendition was made. */
export function avatarBody(avatar: AvatarValue | null): AvatarBody | null {
  if (!avatar) return null;
  return {
    id: avatar.id,
    file_name: avatar.file_name,
    url_original: avatar.path,
    url_small: avatar.small_path ?? avatar.path,
    url_medium: avatar.medium_path ?? avatar.path,
  };
}

export function realmUserBody(user: RealmUser, fields: CustomField[], lockedUntil: Date | null): RealmUserBody {
  return {
    id: user.id,
    uuid: user.uuid,
    email: user.email,
    username: user.username,
    name: userName(user),
    first_name: user.firstName,
    last_name: user.lastName,
    second_last_name: user.secondLastName,
    locale: user.locale,
    external_id: user.externalId,
    active: user.active,
    confirmation_pending: user.confirmationPending,
    moderation_pending: user.moderationPending,
    email_verified_at: user.emailVerifiedAt?.toISOString() ?? null,
    locked_until: lockedUntil?.toISOString() ?? null,
    avatar: avatarBody(user.avatar ?? null),
    custom_fields: fieldValueList(fields, user.customFields as FieldValues),
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

/** A user row as an UPDATE or INSERT returns it, with the end of its sign-in lock: all the admin view needs. */
export const userWithLock = (now: Date) => ({ ...getTableColumns(realmUsers), lockedUntil: signInLockedUntil(now) });

/** The webhook event of a user created or changed: the user as the admin API shows it, its realm and (on a change) what changed. */
export function realmUserEvent(
  type: 'realm_user.created' | 'realm_user.updated', realm: Realm, user: RealmUserBody, changed?: string[],
): WebhookEvent {
  return { type, realmUid: realm.uid, data: { ...user, realm_uid: realm.uid, ...(changed ? { changed } : {}) } };
}

export function realmUserDeletedEvent(realm: Realm, user: Pick<RealmUser, 'id' | 'uuid' | 'email'>): WebhookEvent {
  return { type: 'realm_user.deleted', realmUid: realm.uid, data: { id: user.id, uuid: user.uuid, email: user.email, realm_uid: realm.uid } };
}

const ATTRIBUTE_NAMES = {
  email: 'email', username: 'username', firstName: 'first_name', lastName: 'last_name', secondLastName: 'second_last_name',
  externalId: 'external_id', locale: 'locale', passwordHash: 'password', active: 'active', confirmationPending: 'confirmation_pending',
  moderationPending: 'moderation_pending', avatar: 'avatar',
} as const;

/** The attributes (as the admin API names them; a custom field as `custom_fields.<key>`) whose value differs; never the values. */
export function changedAttributes(before: RealmUser, after: RealmUser): string[] {
  const changed: string[] = [];
  for (const [column, name] of Object.entries(ATTRIBUTE_NAMES) as [keyof typeof ATTRIBUTE_NAMES, string][]) {
    if (JSON.stringify(before[column]) !== JSON.stringify(after[column])) changed.push(name);
  }
  const was = (before.customFields ?? {}) as FieldValues;
  const is = (after.customFields ?? {}) as FieldValues;
  for (const key of new Set([...Object.keys(was), ...Object.keys(is)])) {
    if (JSON.stringify(was[key] ?? null) !== JSON.stringify(is[key] ?? null)) changed.push(`custom_fields.${key}`);
  }
  return changed;
}

export const REALM_USER_SORTABLE = {
  id: realmUsers.id, email: realmUsers.email, username: realmUsers.username, first_name: realmUsers.firstName,
  last_name: realmUsers.lastName, created_at: realmUsers.createdAt, updated_at: realmUsers.updatedAt,
};

/** The users a list's `status` keeps: `awaiting_moderation` the moderated sign-ups not yet decided on. */
export const REALM_USER_STATUSES: Record<Static<typeof RealmUserStatus>, SQL> = {
  active: eq(realmUsers.active, true),
  inactive: eq(realmUsers.active, false),
  awaiting_confirmation: eq(realmUsers.confirmationPending, true),
  awaiting_moderation: eq(realmUsers.moderationPending, true),
};

export interface RealmUserListQuery {
  query?: string;
  status?: Static<typeof RealmUserStatus>;
  sort_by?: string;
  order?: string;
}

export async function listRealmUsers(ctx: ActingContext, realm: Realm, page: Page, query: RealmUserListQuery) {
  ctx.actor.assertHolds('realm.users.read', realm.uid);
  return realmUsersPage(ctx, realm, page, query);
}

/** A page of the realm's users; `matching` (a segment's condition, say) narrows them further (no permission asked here). */
export async function realmUsersPage(ctx: Context, realm: Realm, page: Page, query: RealmUserListQuery, matching?: SQL) {
  const fullName = sql`concat_ws(' ', nullif(${realmUsers.firstName}, ''), nullif(${realmUsers.lastName}, ''), nullif(${realmUsers.secondLastName}, ''))`;
  const where = and(eq(realmUsers.realmId, realm.id), textSearch(query.query, [realmUsers.email, realmUsers.username, fullName]),
    query.status && REALM_USER_STATUSES[query.status], matching);
  // One after the other: inside a request's transaction both would share its one connection (the fields are cached anyway).
  const rows = await ctx.db.select({ user: realmUsers, lockedUntil: signInLockedUntil(ctx.clock.now()), total: totalCount }).from(realmUsers).where(where)
    .orderBy(orderOf(REALM_USER_SORTABLE, query, realmUsers.updatedAt, 'desc'), desc(realmUsers.id)).limit(page.perPage).offset(page.offset);
  const fields = await fieldsOf(ctx, realm.id);
  const total = await totalOf(rows, page, ctx.db, realmUsers, where);
  return { items: rows.map((r) => realmUserBody(r.user, fields, r.lockedUntil)), total };
}

/** The realm's user, or a 404; with `lock`, its row stays locked FOR UPDATE until the transaction `db` ends. */
export async function findRealmUser(db: Db, realm: Realm, id: number, lock = false): Promise<RealmUser> {
  const query = db.select().from(realmUsers).where(and(eq(realmUsers.id, id), eq(realmUsers.realmId, realm.id)));
  const [user] = await (lock ? query.for('update') : query);
  if (!user) throw notFound('User');
  return user;
}

export async function getRealmUser(ctx: ActingContext, realm: Realm, id: number): Promise<RealmUserBody> {
  ctx.actor.assertHolds('realm.users.read', realm.uid);
  return realmUserById(ctx, realm, id);
}

/** The realm's user as the admin API shows it, or a 404 (no permission asked here). */
async function realmUserById(ctx: Context, realm: Realm, id: number): Promise<RealmUserBody> {
  const [row] = await ctx.db.select({ user: realmUsers, lockedUntil: signInLockedUntil(ctx.clock.now()) }).from(realmUsers)
    .where(and(eq(realmUsers.id, id), eq(realmUsers.realmId, realm.id)));
  const fields = await fieldsOf(ctx, realm.id);
  if (!row) throw notFound('User');
  return realmUserBody(row.user, fields, row.lockedUntil);
}

const USERNAME = /^[A-Za-z0-9._-]{1,100}$/;
const MAX_TEXT = 255;

type Changes = Partial<typeof realmUsers.$inferInsert>;

/** Checks the attributes given and turns them into column changes; problems are added to `errors`. */
async function attributeChanges(ctx: Context, realm: Realm, input: RealmUserInput, errors: FieldErrors, self: RealmUser | null): Promise<Changes> {
  const changes: Changes = {};
  if (input.email !== undefined || !self) {
    const email = normalizeEmail(input.email ?? '');
    if (!email) errors.add('email', "can't be blank");
    else if (!isEmail(email) || email.length > MAX_TEXT) errors.add('email', 'is invalid');
    else if (await taken(ctx, realm, sql`lower(${realmUsers.email}) = ${email}`, self)) errors.add('email', 'has already been taken');
    changes.email = email;
  }
  if (input.username !== undefined) {
    const username = input.username?.trim() || null;
    if (username && !USERNAME.test(username)) errors.add('username', 'may contain only letters, digits, ".", "-" and "_" (at most 100)');
    else if (username && await taken(ctx, realm, sql`lower(${realmUsers.username}) = ${username.toLowerCase()}`, self)) {
      errors.add('username', 'has already been taken');
    }
    changes.username = username;
  }
  for (const [field, column] of [['first_name', 'firstName'], ['last_name', 'lastName'], ['second_last_name', 'secondLastName']] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (value.trim().length > MAX_TEXT) errors.add(field, `is too long (maximum is ${MAX_TEXT} characters)`);
    changes[column] = value.trim();
  }
  if (input.external_id !== undefined) {
    const externalId = input.external_id?.trim() || null;
    if (externalId && externalId.length > MAX_TEXT) errors.add('external_id', `is too long (maximum is ${MAX_TEXT} characters)`);
    changes.externalId = externalId;
  }
  if (input.password !== undefined && input.password !== '') {
    const weakness = passwordWeakness(input.password);
    if (weakness) errors.add('password', weakness);
    else changes.passwordHash = await hashPassword(input.password);
  }
  if (input.locale !== undefined) {
    // Empty is none, as null is (a client sending back what it read may have it coerced to "").
    const locale = input.locale || null;
    if (locale !== null && !isLocale(locale)) errors.add('locale', `is not a supported locale (${LOCALES.join(', ')})`);
    changes.locale = locale;
  }
  if (input.active !== undefined) {
    changes.active = input.active;
    // An administrator's decision on `active` replaces a pending activation link (it no longer activates) and decides a moderation.
    if (self) Object.assign(changes, { confirmationPending: false, moderationPending: false });
  }
  return changes;
}

async function taken(ctx: Context, realm: Realm, match: ReturnType<typeof sql>, self: RealmUser | null): Promise<boolean> {
  const [row] = await ctx.db.select({ id: realmUsers.id }).from(realmUsers).where(and(eq(realmUsers.realmId, realm.id), match)).limit(1);
  return Boolean(row && row.id !== self?.id);
}

function takenError(index: string | null) {
  return invalidField(index === 'realm_users_username_key' ? 'username' : 'email', 'has already been taken');
}

export interface WriteOptions {
  /** The custom fields the writer may set; the admin may set all of them. */
  fields?: CustomField[];
  /** A new user who must confirm the address by the mailed activation link (activation.ts); inactive until then. */
  confirmationPending?: boolean;
  /** A new user signed up in a `moderated` realm: inactive until an administrator decides. */
  moderationPending?: boolean;
  /**
   * The address written is proven (an administrator set it, an invitation or an identity provider vouched for it):
   * `email_verified_at` is stamped. Without it a new user, or a user given a new address, is unverified.
   */
  emailVerified?: boolean;
  /** The email given is checked with the rest but not written: the change waits for its link (email-change.ts). */
  emailPending?: boolean;
}

/**
 * Creates (`self` null) or changes a user: attributes and custom field values are checked together,
 * so one 422 names every problem, and written in one transaction with the unique rule.
 */
export async function writeRealmUser(ctx: Context, realm: Realm, self: RealmUser | null, input: RealmUserInput, options: WriteOptions = {}): Promise<RealmUser> {
  return (await saveRealmUser(ctx, realm, self, input, options)).user;
}

/**
 * writeRealmUser, answering the user as the admin API shows it too. The change puts
 * `realm_user.created` or `realm_user.updated` (when something changed) in the webhook outbox.
 * A change writes only the columns sent, to the user's row read again FOR UPDATE in the transaction
 * (after the field values' lock): what it merges, revokes and reports is the user as it is then, and a
 * user deleted meanwhile is a 404.
 */
async function saveRealmUser(
  ctx: Context, realm: Realm, self: RealmUser | null, input: RealmUserInput, options: WriteOptions = {},
): Promise<{ user: RealmUser; body: RealmUserBody }> {
  const errors = new FieldErrors();
  const changes = await attributeChanges(ctx, realm, input, errors, self);
  const shown = await fieldsOf(ctx, realm.id);
  const fields = options.fields ?? shown;
  const withValues = input.custom_fields !== undefined || !self;
  // The problems found depend on the input only, so checking against `self` now names them all in one 422.
  const mergedInto = (current: RealmUser | null) => (withValues
    ? mergeFieldValues(fields, (current?.customFields ?? {}) as FieldValues, input.custom_fields ?? [], errors, !current)
    : undefined);
  mergedInto(self);
  errors.throwIfAny();
  if (options.emailPending) delete changes.email;
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const unique = withValues && fields.some((f) => f.unique);
    if (unique) await lockFieldValues(tx, realm.id);
    const before = self && await findRealmUser(tx, realm, self.id, true);
    const values = mergedInto(before);
    if (values && unique) {
      await checkUniqueValues(tx, realm.id, before?.id ?? null, fields, values, errors);
      errors.throwIfAny();
    }
    if (!before) {
      const [user] = await tx.insert(realmUsers).values({
        ...changes, email: changes.email!, realmId: realm.id, customFields: values,
        confirmationPending: options.confirmationPending ?? false, moderationPending: options.moderationPending ?? false, emailVerifiedAt: options.emailVerified ? now : null, createdAt: now, updatedAt: now,
      }).returning();
      const body = realmUserBody(user, shown, null);
      await emitWebhookEvent(ctx, tx, realmUserEvent('realm_user.created', realm, body));
      return { user, body };
    }
    const newAddress = changes.email !== undefined && changes.email !== before.email.toLowerCase();
    const verified = newAddress ? { emailVerifiedAt: options.emailVerified ? now : null } : {};
    const [{ lockedUntil, ...user }] = await tx.update(realmUsers).set({ ...changes, ...verified, customFields: values, updatedAt: now })
      .where(eq(realmUsers.id, before.id)).returning(userWithLock(now));
    // A deactivated user's sessions end at once, and their access tokens with them.
    if (changes.active === false && before.active) await revokeUserSessions({ ...ctx, db: tx }, before.id);
    const body = realmUserBody(user, shown, lockedUntil);
    const changed = changedAttributes(before, user);
    if (changed.length) await emitWebhookEvent(ctx, tx, realmUserEvent('realm_user.updated', realm, body, changed));
    return { user, body };
  }).then((written) => {
    if (self) ctx.caches.changed('customers', `user:${self.id}`);
    return written;
  }, (err) => {
    const index = uniqueViolation(err);
    throw index === null ? err : takenError(index);
  });
}

/** An administrator vouches for the addresses it writes. */
export async function createRealmUser(ctx: ActingContext, realm: Realm, input: RealmUserInput): Promise<RealmUserBody> {
  ctx.actor.assertHolds('realm.users.write', realm.uid);
  return (await saveRealmUser(ctx, realm, null, input, { emailVerified: true })).body;
}

/** PUT is partial: attributes and custom fields left out keep their value. */
export async function updateRealmUser(ctx: ActingContext, realm: Realm, id: number, input: RealmUserInput): Promise<RealmUserBody> {
  ctx.actor.assertHolds('realm.users.write', realm.uid);
  const self = await findRealmUser(ctx.db, realm, id);
  return (await saveRealmUser(ctx, realm, self, input, { emailVerified: true })).body;
}

/** The user's address is proven now (a code or link sent to it was used), unless it already was. */
export async function proveAddress(ctx: Context, userId: number): Promise<void> {
  await ctx.db.update(realmUsers).set({ emailVerifiedAt: ctx.clock.now() })
    .where(and(eq(realmUsers.id, userId), isNull(realmUsers.emailVerifiedAt)));
  ctx.caches.changed('customers', `user:${userId}`);
}

/**
 * Lets an inactive user (a moderated sign-up, or one who has not followed the activation link) sign
 * in; an active user is left unchanged.
 */
export async function activateRealmUser(ctx: ActingContext, realm: Realm, id: number): Promise<RealmUserBody> {
  ctx.actor.assertHolds('realm.users.write', realm.uid);
  const user = await findRealmUser(ctx.db, realm, id);
  if (user.active) return realmUserById(ctx, realm, id);
  const fields = await fieldsOf(ctx, realm.id);
  const now = ctx.clock.now();
  const body = await ctx.db.transaction(async (tx) => {
    const [activated] = await tx.update(realmUsers).set({ active: true, confirmationPending: false, moderationPending: false, updatedAt: now })
      .where(and(eq(realmUsers.id, id), eq(realmUsers.active, false))).returning(userWithLock(now));
    if (!activated) return null;
    const { lockedUntil, ...row } = activated;
    const shown = realmUserBody(row, fields, lockedUntil);
    await emitWebhookEvent(ctx, tx, realmUserEvent('realm_user.updated', realm, shown, changedAttributes(user, row)));
    return shown;
  });
  ctx.caches.changed('customers', `user:${id}`);
  return body ?? realmUserById(ctx, realm, id);
}

/**
 * The avatar removed is the one the deletion saw, so an upload committed just before it is not left
 * behind; the user's row is locked first, so the attachments dropped with it are all there are.
 */
export async function deleteRealmUser(ctx: ActingContext, realm: Realm, id: number): Promise<void> {
  ctx.actor.assertHolds('realm.users.write', realm.uid);
  const deleted = await ctx.db.transaction(async (tx) => {
    const mine = and(eq(realmUsers.id, id), eq(realmUsers.realmId, realm.id));
    await findRealmUser(tx, realm, id, true);
    const attachments = await cleanUpAfterUsers(tx, { userId: id });
    // Its live sessions end before they go with it, so that the clients holding their tokens are told (back-channel logout).
    await revokeUserSessions({ ...ctx, db: tx }, id);
    const [user] = await tx.delete(realmUsers).where(mine)
      .returning({ id: realmUsers.id, uuid: realmUsers.uuid, email: realmUsers.email, avatar: realmUsers.avatar });
    await emitWebhookEvent(ctx, tx, realmUserDeletedEvent(realm, user));
    return { avatar: user.avatar ?? null, attachments };
  });
  ctx.caches.changed('customers', `user:${id}`);
  await removeAvatarObjects(ctx, [deleted.avatar]);
  await removeAfterCommit(ctx.storage, ctx.log, deleted.attachments);
}

/** DELETE .../users/{id}/sessions: every session of the user ends, and every access token tied to one. */
export async function endRealmUserSessions(ctx: ActingContext, realm: Realm, id: number): Promise<number> {
  ctx.actor.assertHolds('realm.users.write', realm.uid);
  const user = await findRealmUser(ctx.db, realm, id);
  return revokeUserSessions(ctx, user.id);
}
