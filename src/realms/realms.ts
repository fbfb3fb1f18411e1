import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import { ACTIVATION_MODES, type ActivationMode, type RealmInput as RealmInputSchema, type RealmModel } from './schema.js';
import type { FastifyRequest } from 'fastify';
import { orderOf } from '../db/sorting.js';
import type { Context } from '../context.js';
import { textSearch } from '../db/like.js';
import { uniqueViolation } from '../db/unique.js';
import { FieldErrors, forbidden, invalidField, notFound } from '../errors/index.js';
import type { ActingContext } from '../admin-auth/principal.js';
import { dropTarget, retarget } from '../admin-auth/role-targets.js';
import type { Db } from '../db/connect.js';
import { prepared } from '../db/prepared.js';
import { isLocale, LOCALES, type Locale } from '../i18n/locale.js';
import { removeAvatarObjects } from './avatar-files.js';
import { brandingBody, brandingChanges } from './branding.js';
import { cleanUpAfterUsers } from './user-cleanups.js';
import { removeAfterCommit } from '../storage/storage.js';
import { realmUsers, realms } from '../tables/realms.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { sites } from '../tables/sites.js';

export type Realm = typeof realms.$inferSelect;

export type RealmBody = Static<typeof RealmModel>;
export type RealmInput = Static<typeof RealmInputSchema>;

export function realmBody(realm: Realm): RealmBody {
  return {
    uid: realm.uid,
    name: realm.name,
    active: realm.active,
    custom_domain: realm.customDomain,
    settings: {
      session_lifetime_minutes: realm.sessionLifetimeMinutes,
      otp_code_validity_minutes: realm.otpCodeValidityMinutes,
      otp_resend_wait_seconds: realm.otpResendWaitSeconds,
      pkce_plain_allowed: realm.pkcePlainAllowed,
      openid_connect_enabled: realm.openidConnectEnabled,
      signing_key_rotation_days: realm.signingKeyRotationDays,
      show_delegation_information: realm.showDelegationInformation,
      delegation_provider: realm.delegationProvider,
      activation_mode: realm.activationMode as ActivationMode,
      default_language: realm.defaultLanguage as Locale,
      branding: brandingBody(realm),
    },
    created_at: realm.createdAt.toISOString(),
    updated_at: realm.updatedAt.toISOString(),
  };
}

/** The realm with this uid, active or not. */
export async function findRealmByUid(ctx: Context, uid: string): Promise<Realm | undefined> {
  const [realm] = await ctx.db.select().from(realms).where(eq(realms.uid, uid));
  return realm;
}

/** The realm with this uid when it is active: what realm pages, the OAuth server and the customers API serve. */
// Prepared: every realm page and the authorize endpoint start here.
const activeRealmByUid = (db: Db) => prepared(db, 'realm_active_by_uid', (d, name) => d.select().from(realms)
  .where(and(eq(realms.uid, sql.placeholder('uid')), eq(realms.active, true))).prepare(name));

/**
 * Kept in the `customers` cache, tagged with the realm: every write to a realm says so (`changed('customers', 'realm:N')`),
 * in every process. A uid no active realm has is not kept (`getOrLoad`), so a realm made or activated a moment later is
 * found at once.
 */
export function findActiveRealm(ctx: Context, uid: string): Promise<Realm | undefined> {
  return ctx.caches.of<Realm>('customers').getOrLoad(`active-realm:${uid}`, ctx.clock.now(),
    async () => (await activeRealmByUid(ctx.db).execute({ uid }))[0], (realm) => [`realm:${realm.id}`]);
}

/** The realm an admin route names; 404 when there is none. */
export async function requireRealm(ctx: Context, uid: string): Promise<Realm> {
  const realm = await findRealmByUid(ctx, uid);
  if (!realm) throw notFound('Realm');
  return realm;
}

/** The active realm whose custom domain a request's Host names (port and case ignored). */
export async function findRealmByDomain(ctx: Context, host: string): Promise<Realm | undefined> {
  const name = host.trim().toLowerCase().replace(/:\d+$/, '');
  if (!name) return undefined;
  const [realm] = await ctx.db.select().from(realms).where(and(eq(realms.customDomain, name), eq(realms.active, true)));
  return realm;
}

/** The host a request names, in lower case and without its port. */
export const hostOf = (request: FastifyRequest) => request.host.toLowerCase().replace(/:\d+$/, '');

/**
 * Spec 4.4: the token and revoke endpoints and the customers API answer at BASE_URL only, never on a
 * realm's custom domain. Whether this request came by one; a request for BASE_URL's host costs no lookup.
 */
export async function onCustomDomain(ctx: Context, request: FastifyRequest): Promise<boolean> {
  return !onBaseHost(ctx, request) && Boolean(await findRealmByDomain(ctx, hostOf(request)));
}

/** BASE_URL's host name, read once per configuration: every customers API request asks `onBaseHost`. */
const baseHosts = new WeakMap<Context['config'], string>();

/** Whether a request came by BASE_URL's host (port and case ignored). */
export function onBaseHost(ctx: Context, request: FastifyRequest): boolean {
  let base = baseHosts.get(ctx.config);
  if (base === undefined) baseHosts.set(ctx.config, base = new URL(ctx.config.baseUrl).hostname);
  return hostOf(request) === base;
}

/** Whether an absolute address's host is the custom domain of one of the account's realms. */
export async function isRealmDomain(ctx: Context, hostname: string): Promise<boolean> {
  const [row] = await ctx.db.select({ id: realms.id }).from(realms).where(eq(realms.customDomain, hostname.toLowerCase())).limit(1);
  return Boolean(row);
}

/** Role assignments name realms by uid: a team member's realm role must name an existing realm. */
export const realmExists = async (ctx: Context, uid: string) => Boolean(await findRealmByUid(ctx, uid));

export const REALM_UID = /^[A-Za-z0-9_-]{1,100}$/;
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

const LIMITS = {
  session_lifetime_minutes: [1, 525_600],
  otp_code_validity_minutes: [1, 30],
  otp_resend_wait_seconds: [0, 3600],
  signing_key_rotation_days: [1, 365],
} as const;

/**
 * `https://Login.Example.com/` and `login.example.com` are both stored as `login.example.com`. Every
 * realm's sign-in pages trust a custom domain as a redirect target, so it must be a public name: not
 * loopback, not an address, not a bare name, not the base address's own host.
 */
export function customDomainOf(ctx: Context, raw: string | null | undefined, errors: FieldErrors): string | null | undefined {
  if (raw === undefined) return undefined;
  const text = (raw ?? '').trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/$/, '');
  if (!text) return null;
  const topLevel = text.slice(text.lastIndexOf('.') + 1);
  if (!HOST_NAME.test(text)) {
    errors.add('custom_domain', 'must be a host name such as login.example.com, without a port or path');
  } else if (!text.includes('.') || !/[a-z]/.test(topLevel) || /^0x/.test(topLevel)) {
    errors.add('custom_domain', 'must be a public domain name such as login.example.com, not an address or a bare name');
  } else if (topLevel === 'localhost') {
    errors.add('custom_domain', 'must not be a loopback name');
  } else if (text === new URL(ctx.config.baseUrl).hostname) {
    errors.add('custom_domain', 'must differ from the host of the base address');
  }
  return text;
}

/** Only an account-wide realms.manage sets a custom domain: every realm's pages trust it. */
function assertMaySetDomain(ctx: ActingContext, domain: string | null | undefined, current: string | null): void {
  if (domain === undefined || domain === current) return;
  if (!ctx.actor.holdsEverywhere('realms.manage')) throw forbidden('Setting a custom domain needs an account role');
}

interface CheckedInput {
  uid?: string;
  name?: string;
  customDomain?: string | null;
  delegationProvider?: string | null;
  branding: ReturnType<typeof brandingChanges>;
}

function checkInput(ctx: Context, input: RealmInput, creating: boolean): CheckedInput {
  const errors = new FieldErrors();
  const uid = input.uid?.trim();
  if (creating || input.uid !== undefined) {
    if (!uid) errors.add('uid', "can't be blank");
    else if (!REALM_UID.test(uid)) errors.add('uid', 'may contain only letters, digits, "-" and "_" (at most 100)');
  }
  const name = input.name?.trim();
  if ((creating || input.name !== undefined) && !name) errors.add('name', "can't be blank");
  const customDomain = customDomainOf(ctx, input.custom_domain, errors);
  const settings = input.settings ?? {};
  for (const [key, [min, max]] of Object.entries(LIMITS)) {
    const value = settings[key as keyof typeof LIMITS];
    if (value !== undefined && value !== null && (value < min || value > max)) errors.add(`settings.${key}`, `must be between ${min} and ${max}`);
  }
  const provider = settings.delegation_provider === undefined ? undefined : settings.delegation_provider?.trim() || null;
  if (provider && provider.length > 100) errors.add('settings.delegation_provider', 'is too long (maximum is 100 characters)');
  const mode = settings.activation_mode;
  if (mode !== undefined && !(ACTIVATION_MODES as readonly string[]).includes(mode)) {
    errors.add('settings.activation_mode', `must be one of ${ACTIVATION_MODES.join(', ')}`);
  }
  if (settings.default_language !== undefined && !isLocale(settings.default_language)) {
    errors.add('settings.default_language', `must be one of ${LOCALES.join(', ')}`);
  }
  const branding = brandingChanges(settings.branding, errors);
  errors.throwIfAny();
  return { uid, name, customDomain, delegationProvider: provider, branding };
}

function takenError(index: string | null) {
  return index === 'realms_custom_domain_key'
    ? invalidField('custom_domain', 'has already been taken')
    : invalidField('uid', 'has already been taken');
}

async function assertFree(ctx: Context, checked: CheckedInput, selfId?: number): Promise<void> {
  const errors = new FieldErrors();
  if (checked.uid) {
    const [taken] = await ctx.db.select({ id: realms.id }).from(realms).where(eq(realms.uid, checked.uid));
    if (taken && taken.id !== selfId) errors.add('uid', 'has already been taken');
  }
  if (checked.customDomain) {
    const [taken] = await ctx.db.select({ id: realms.id }).from(realms).where(eq(realms.customDomain, checked.customDomain));
    if ((taken && taken.id !== selfId) || await siteHasDomain(ctx, checked.customDomain)) errors.add('custom_domain', 'has already been taken');
  }
  errors.throwIfAny();
}

/** A custom domain is one site's or one realm's: the host alone decides what a request is for. */
export async function siteHasDomain(ctx: Context, domain: string): Promise<boolean> {
  const [row] = await ctx.db.select({ id: sites.id }).from(sites).where(eq(sites.customDomain, domain)).limit(1);
  return Boolean(row);
}

export const REALM_SORTABLE = { uid: realms.uid, name: realms.name, created_at: realms.createdAt, updated_at: realms.updatedAt };

export interface RealmListQuery {
  query?: string;
  sort_by?: string;
  order?: string;
}

/** `visible`: the uids the caller may read, or null for all of them. */
export async function listRealms(ctx: ActingContext, page: Page, query: RealmListQuery) {
  const visible = ctx.actor.targetsOf('realms.read');
  const where = and(
    textSearch(query.query, [realms.uid, realms.name]),
    visible ? inArray(realms.uid, visible.length ? visible : ['']) : undefined,
  );
  const rows = await ctx.db.select({ realm: realms, total: totalCount }).from(realms).where(where)
    .orderBy(orderOf(REALM_SORTABLE, query, realms.updatedAt, 'desc'), desc(realms.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, realms, where);
  return { items: rows.map((r) => realmBody(r.realm)), total };
}

/** Creating a realm needs realms.manage from an account role: a realm role reaches only its own realm. */
export async function createRealm(ctx: ActingContext, input: RealmInput): Promise<RealmBody> {
  if (!ctx.actor.holdsEverywhere('realms.manage')) throw forbidden('Creating a realm needs an account role');
  const checked = checkInput(ctx, input, true);
  await assertFree(ctx, checked);
  const settings = input.settings ?? {};
  const now = ctx.clock.now();
  const [realm] = await ctx.db.insert(realms).values({
    uid: checked.uid!,
    name: checked.name!,
    active: input.active ?? true,
    customDomain: checked.customDomain ?? null,
    sessionLifetimeMinutes: settings.session_lifetime_minutes,
    otpCodeValidityMinutes: settings.otp_code_validity_minutes,
    otpResendWaitSeconds: settings.otp_resend_wait_seconds,
    pkcePlainAllowed: settings.pkce_plain_allowed,
    openidConnectEnabled: settings.openid_connect_enabled,
    signingKeyRotationDays: settings.signing_key_rotation_days,
    showDelegationInformation: settings.show_delegation_information,
    delegationProvider: checked.delegationProvider ?? null,
    activationMode: settings.activation_mode,
    defaultLanguage: settings.default_language,
    ...checked.branding,
    createdAt: now,
    updatedAt: now,
  }).returning().catch((err) => {
    const index = uniqueViolation(err);
    throw index === null ? err : takenError(index);
  });
  return realmBody(realm);
}

/**
 * PUT is partial: attributes and settings left out keep their value (only those sent are written). A new
 * uid follows into role assignments. The custom domain rule is decided on the realm's row as locked for the write.
 */
export async function updateRealm(ctx: ActingContext, found: Realm, input: RealmInput): Promise<RealmBody> {
  const checked = checkInput(ctx, input, false);
  assertMaySetDomain(ctx, checked.customDomain, found.customDomain);
  await assertFree(ctx, checked, found.id);
  const settings = input.settings ?? {};
  const { realm, updated } = await ctx.db.transaction(async (tx) => {
    const [realm] = await tx.select().from(realms).where(eq(realms.id, found.id)).for('no key update');
    if (!realm) throw notFound('Realm');
    assertMaySetDomain(ctx, checked.customDomain, realm.customDomain);
    const [row] = await tx.update(realms).set({
      uid: checked.uid,
      name: checked.name,
      active: input.active,
      customDomain: checked.customDomain,
      sessionLifetimeMinutes: settings.session_lifetime_minutes,
      otpCodeValidityMinutes: settings.otp_code_validity_minutes,
      otpResendWaitSeconds: settings.otp_resend_wait_seconds,
      pkcePlainAllowed: settings.pkce_plain_allowed,
      openidConnectEnabled: settings.openid_connect_enabled,
      signingKeyRotationDays: settings.signing_key_rotation_days,
      showDelegationInformation: settings.show_delegation_information,
      delegationProvider: checked.delegationProvider,
      activationMode: settings.activation_mode,
      defaultLanguage: settings.default_language,
      ...checked.branding,
      updatedAt: ctx.clock.now(),
    }).where(eq(realms.id, realm.id)).returning();
    if (checked.uid && checked.uid !== realm.uid) await retarget(tx, 'realm', realm.uid, checked.uid);
    return { realm, updated: row };
  }).catch((err) => {
    const index = uniqueViolation(err);
    throw index === null ? err : takenError(index);
  });
  // Role targets name realms by uid: a new uid changes who may reach the realm.
  if (checked.uid && checked.uid !== realm.uid) ctx.caches.changed('access');
  ctx.caches.changed('customers', `realm:${realm.id}`);
  return realmBody(updated);
}

/**
 * Deletes the realm with its users (and their avatar and attachment files), sessions, custom fields, OAuth clients
 * and events, and the role assignments that named it (so that a later realm with the same uid does
 * not inherit them).
 */
export async function deleteRealm(ctx: ActingContext, realm: Realm): Promise<void> {
  ctx.actor.assertHolds('realms.manage', realm.uid);
  const users = await ctx.db.transaction(async (tx) => {
    // The lock keeps new users out; deleting the users here rather than by cascade reads the avatars
    // they hold now, including one an upload committed while this waited for the user's row.
    await tx.select({ id: realms.id }).from(realms).where(eq(realms.id, realm.id)).for('update');
    // The realm's lock keeps new attachments out too (their insert checks its key).
    const attachments = await cleanUpAfterUsers(tx, { realmId: realm.id });
    const deleted = await tx.delete(realmUsers).where(eq(realmUsers.realmId, realm.id)).returning({ avatar: realmUsers.avatar });
    await dropTarget(tx, 'realm', realm.uid);
    await tx.delete(realms).where(eq(realms.id, realm.id));
    return { avatars: deleted.map((user) => user.avatar ?? null), attachments };
  });
  ctx.caches.changed('access');
  ctx.caches.changed('customers', `realm:${realm.id}`);
  await removeAvatarObjects(ctx, users.avatars);
  await removeAfterCommit(ctx.storage, ctx.log, users.attachments);
}
