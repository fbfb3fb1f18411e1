import { and, desc, eq, ilike, inArray, isNotNull, or } from 'drizzle-orm';
import { orderOf } from '../db/sorting.js';
import type { Context } from '../context.js';
import { containing } from '../db/like.js';
import { uniqueViolation } from '../db/unique.js';
import { FieldErrors, invalidField, notFound } from '../http/errors.js';
import type { Page } from '../http/pagination.js';
import { registerTargetCheck } from '../admin-auth/targets.js';
import { roleAssignments, roles } from '../admin-auth/tables.js';
import { accessChanged } from '../admin-auth/access-cache.js';
import { removeAvatarFile } from './avatar-files.js';
import { realmUsers, realms } from './tables.js';
import { customersChanged } from '../customers/credential-cache.js';
import { totalCount, totalOf } from '../db/paging.js';

export type Realm = typeof realms.$inferSelect;

export interface RealmSettings {
  session_lifetime_minutes: number;
  otp_code_validity_minutes: number;
  otp_resend_wait_seconds: number;
  pkce_plain_allowed: boolean;
  show_delegation_information: boolean;
  delegation_provider: string | null;
}

export interface RealmBody {
  uid: string;
  name: string;
  active: boolean;
  custom_domain: string | null;
  settings: RealmSettings;
  created_at: string;
  updated_at: string;
}

export interface RealmInput {
  uid?: string;
  name?: string;
  active?: boolean;
  custom_domain?: string | null;
  settings?: Partial<RealmSettings>;
}

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
      show_delegation_information: realm.showDelegationInformation,
      delegation_provider: realm.delegationProvider,
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
export async function findActiveRealm(ctx: Context, uid: string): Promise<Realm | undefined> {
  const [realm] = await ctx.db.select().from(realms).where(and(eq(realms.uid, uid), eq(realms.active, true)));
  return realm;
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

/** Whether an absolute address's host is the custom domain of one of the account's realms. */
export async function isRealmDomain(ctx: Context, hostname: string): Promise<boolean> {
  const [row] = await ctx.db.select({ id: realms.id }).from(realms).where(eq(realms.customDomain, hostname.toLowerCase())).limit(1);
  return Boolean(row);
}

// Role assignments name realms by uid: a team member's realm role must name an existing realm.
registerTargetCheck('realm', async (ctx, uid) => Boolean(await findRealmByUid(ctx, uid)));

export const REALM_UID = /^[A-Za-z0-9_-]{1,100}$/;
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

const LIMITS = {
  session_lifetime_minutes: [1, 525_600],
  otp_code_validity_minutes: [1, 30],
  otp_resend_wait_seconds: [0, 3600],
} as const;

/** `https://Login.Example.com/` and `login.example.com` are both stored as `login.example.com`. */
function customDomainOf(ctx: Context, raw: string | null | undefined, errors: FieldErrors): string | null | undefined {
  if (raw === undefined) return undefined;
  const text = (raw ?? '').trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/$/, '');
  if (!text) return null;
  if (!HOST_NAME.test(text)) {
    errors.add('custom_domain', 'must be a host name such as login.example.com, without a port or path');
  } else if (text === new URL(ctx.config.baseUrl).hostname) {
    errors.add('custom_domain', 'must differ from the host of the base address');
  }
  return text;
}

interface CheckedInput {
  uid?: string;
  name?: string;
  customDomain?: string | null;
  delegationProvider?: string | null;
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
    if (value !== undefined && (value < min || value > max)) errors.add(`settings.${key}`, `must be between ${min} and ${max}`);
  }
  const provider = settings.delegation_provider === undefined ? undefined : settings.delegation_provider?.trim() || null;
  if (provider && provider.length > 100) errors.add('settings.delegation_provider', 'is too long (maximum is 100 characters)');
  errors.throwIfAny();
  return { uid, name, customDomain, delegationProvider: provider };
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
    if (taken && taken.id !== selfId) errors.add('custom_domain', 'has already been taken');
  }
  errors.throwIfAny();
}

const SORTABLE = { uid: realms.uid, name: realms.name, created_at: realms.createdAt, updated_at: realms.updatedAt };

export interface RealmListQuery {
  query?: string;
  sort_by?: string;
  order?: string;
}

/** `visible`: the uids the caller may read, or null for all of them. */
export async function listRealms(ctx: Context, page: Page, query: RealmListQuery, visible: string[] | null) {
  const text = query.query ? containing(query.query) : undefined;
  const where = and(
    text ? or(ilike(realms.uid, text), ilike(realms.name, text)) : undefined,
    visible ? inArray(realms.uid, visible.length ? visible : ['']) : undefined,
  );
  const rows = await ctx.db.select({ realm: realms, total: totalCount }).from(realms).where(where)
    .orderBy(orderOf(SORTABLE, query, realms.updatedAt, 'desc'), desc(realms.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, realms, where);
  return { items: rows.map((r) => realmBody(r.realm)), total };
}

export async function createRealm(ctx: Context, input: RealmInput): Promise<RealmBody> {
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
    showDelegationInformation: settings.show_delegation_information,
    delegationProvider: checked.delegationProvider ?? null,
    createdAt: now,
    updatedAt: now,
  }).returning().catch((err) => {
    const index = uniqueViolation(err);
    throw index === null ? err : takenError(index);
  });
  return realmBody(realm);
}

/** PUT is partial: attributes and settings left out keep their value. A new uid follows into role assignments. */
export async function updateRealm(ctx: Context, uid: string, input: RealmInput): Promise<RealmBody> {
  const realm = await requireRealm(ctx, uid);
  const checked = checkInput(ctx, input, false);
  await assertFree(ctx, checked, realm.id);
  const settings = input.settings ?? {};
  const updated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.update(realms).set({
      uid: checked.uid,
      name: checked.name,
      active: input.active,
      customDomain: checked.customDomain,
      sessionLifetimeMinutes: settings.session_lifetime_minutes,
      otpCodeValidityMinutes: settings.otp_code_validity_minutes,
      otpResendWaitSeconds: settings.otp_resend_wait_seconds,
      pkcePlainAllowed: settings.pkce_plain_allowed,
      showDelegationInformation: settings.show_delegation_information,
      delegationProvider: checked.delegationProvider,
      updatedAt: ctx.clock.now(),
    }).where(eq(realms.id, realm.id)).returning();
    if (checked.uid && checked.uid !== realm.uid) {
      await tx.update(roleAssignments).set({ target: checked.uid })
        .where(and(eq(roleAssignments.target, realm.uid), inArray(roleAssignments.roleId, realmRoleIds(tx))));
    }
    return row;
  }).catch((err) => {
    const index = uniqueViolation(err);
    throw index === null ? err : takenError(index);
  });
  if (checked.uid && checked.uid !== realm.uid) accessChanged(ctx);
  customersChanged(ctx);
  return realmBody(updated);
}

const realmRoleIds = (db: Pick<Context['db'], 'select'>) => db.select({ id: roles.id }).from(roles).where(eq(roles.context, 'realm'));

/**
 * Deletes the realm with its users (and their avatar files), sessions, custom fields, OAuth clients
 * and events, and the role assignments that named it (so that a later realm with the same uid does
 * not inherit them).
 */
export async function deleteRealm(ctx: Context, uid: string): Promise<void> {
  const realm = await requireRealm(ctx, uid);
  const avatars = await ctx.db.select({ avatar: realmUsers.avatar }).from(realmUsers)
    .where(and(eq(realmUsers.realmId, realm.id), isNotNull(realmUsers.avatar)));
  await ctx.db.transaction(async (tx) => {
    await tx.delete(roleAssignments).where(and(eq(roleAssignments.target, realm.uid), inArray(roleAssignments.roleId, realmRoleIds(tx))));
    await tx.delete(realms).where(eq(realms.id, realm.id));
  });
  accessChanged(ctx);
  customersChanged(ctx);
  for (const { avatar } of avatars) await removeAvatarFile(ctx, avatar);
}
