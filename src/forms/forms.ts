import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Permission } from '../admin-auth/permissions.js';
import { assertMaySeePersonalData } from '../admin-auth/personal-data.js';
import type { Context } from '../context.js';
import { checkedName, checkedUid } from '../content/checks.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { uniqueViolation } from '../db/unique.js';
import { FieldErrors, forbidden, invalidField, notFound } from '../errors/index.js';
import { forms, type FormRow } from '../tables/forms.js';
import { realms } from '../tables/realms.js';
import { checkDefinition, checkEmails, checkLocales, checkRedirect } from './definition.js';
import type { FormInput, FormModel } from './schema.js';

type Input = Static<typeof FormInput>;
export type FormBody = Static<typeof FormModel>;

/** A form with the uid of its realm (null: an account form). */
export interface FormWithRealm {
  form: FormRow;
  realmUid: string | null;
}

export function formBody(row: FormWithRealm & { responseCount: number }): FormBody {
  const { form, realmUid } = row;
  return {
    uid: form.uid,
    name: form.name,
    realm_uid: realmUid,
    access: form.access,
    default_locale: form.defaultLocale,
    locales: form.locales,
    fields: form.fields,
    steps: form.steps,
    success_message: form.successMessage,
    redirect_url: form.redirectUrl,
    opens_at: form.opensAt?.toISOString() ?? null,
    closes_at: form.closesAt?.toISOString() ?? null,
    max_responses: form.maxResponses,
    response_count: row.responseCount,
    notify_emails: form.notifyEmails,
    confirmation: form.confirmation ? { email_field: form.confirmationField } : null,
    spam: { min_fill_seconds: form.minFillSeconds, rate_limit_per_hour: form.rateLimitPerHour },
    active: form.active,
    url: `/forms/${form.uid}`,
    created_at: form.createdAt.toISOString(),
    updated_at: form.updatedAt.toISOString(),
  };
}

// Spelled out: inside select fields Drizzle renders columns unqualified.
const responseCount = sql<number>`(select count(*)::int from form_responses r where r.form_id = "forms"."id" and r.status = 'received')`;
const selection = { form: forms, realmUid: realms.uid };

const countOf = async (ctx: Context, id: number) =>
  (await ctx.db.select({ responseCount }).from(forms).where(eq(forms.id, id)))[0]?.responseCount ?? 0;

/** The form's body as the admin API shows it, with its count of accepted responses. */
export const shownForm = async (ctx: Context, row: FormWithRealm) => formBody({ ...row, responseCount: await countOf(ctx, row.form.id) });

/** A form by uid with its realm's uid, for any door. */
export async function findForm(ctx: Context, uid: string): Promise<FormWithRealm | undefined> {
  const [row] = await ctx.db.select(selection).from(forms).leftJoin(realms, eq(realms.id, forms.realmId)).where(eq(forms.uid, uid));
  return row;
}

/**
 * A form by uid for the doors respondents use (its page, the content catalog, the customers API): kept
 * in the `forms` cache, dropped here and in every process when the form changes or goes (`formChanged`).
 * An unknown uid is not kept, so a form made meanwhile is found at once.
 */
export async function answeredForm(ctx: Context, uid: string): Promise<FormWithRealm | undefined> {
  const cache = ctx.caches.of<FormWithRealm>('forms');
  const now = ctx.clock.now();
  const cached = cache.get(uid, now);
  if (cached) return cached;
  const row = await findForm(ctx, uid);
  if (row) cache.set(uid, row, now, [`form:${row.form.id}`]);
  return row;
}

const formChanged = (ctx: Context, row: FormWithRealm) => ctx.caches.changed('forms', `form:${row.form.id}`);

/** Whether the actor holds `permission` where the form lives: its realm, or the account for an account form. */
export const mayOnForm = (ctx: ActingContext, row: FormWithRealm, permission: Permission) =>
  (row.realmUid === null ? ctx.actor.holdsEverywhere(permission) : ctx.actor.holdsOn(permission, row.realmUid));

/**
 * The form an admin route names, for an actor who may `permission` on it: one it cannot even read is
 * unknown to it (404), one it reads but may not change 403. `responses`: the answer shows respondents'
 * data, which for a realm's form needs `realm.users.read` there too (the personal-data rule).
 */
export async function requireForm(ctx: ActingContext, uid: string, permission: Permission, responses = false): Promise<FormWithRealm> {
  const row = await findForm(ctx, uid);
  if (!row || !mayOnForm(ctx, row, 'forms.read')) throw notFound('Form');
  if (!mayOnForm(ctx, row, permission)) throw forbidden();
  if (responses && row.realmUid !== null) assertMaySeePersonalData(ctx.actor, row.realmUid);
  return row;
}

/** The forms the actor reads: every form with an account role, else those of the realms its roles name. */
export function formsReachable(ctx: ActingContext, permission: Permission): SQL | undefined {
  const reach = ctx.actor.targetsOf(permission);
  if (reach === null) return undefined;
  if (!reach.length) return sql`false`;
  return inArray(forms.realmId, ctx.db.select({ id: realms.id }).from(realms).where(inArray(realms.uid, reach)));
}

export async function listForms(ctx: ActingContext, page: Page, realmUid: string | undefined): Promise<{ items: FormBody[]; total: number }> {
  const where = and(formsReachable(ctx, 'forms.read'), realmUid ? eq(realms.uid, realmUid) : undefined);
  const rows = await ctx.db.select({ ...selection, responseCount, total: totalCount }).from(forms).leftJoin(realms, eq(realms.id, forms.realmId))
    .where(where).orderBy(asc(forms.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, forms, realmUid ? undefined : formsReachable(ctx, 'forms.read'));
  return { items: rows.map(formBody), total };
}

type Columns = Partial<typeof forms.$inferInsert>;

/** The columns an input sets, checked against what the form will be once changed (`current` on an update). */
function checkInput(input: Input, current: FormRow | null, realmId: number | null): Columns {
  const errors = new FieldErrors();
  const uid = checkedUid(errors, input.uid, !current);
  const name = checkedName(errors, input.name, !current);
  const defaultLocale = input.default_locale ?? current?.defaultLocale ?? 'en';
  const locales = [...new Set(input.locales ?? current?.locales ?? [defaultLocale])];
  checkLocales(errors, defaultLocale, locales);
  const access = input.access ?? current?.access ?? 'public';
  if (access === 'realm_users' && realmId === null) errors.add('access', 'realm_users needs the form\'s realm_uid');
  const definition = checkDefinition(errors, input.fields ?? current?.fields ?? [], input.steps ?? (input.fields ? [] : current?.steps ?? []), locales, defaultLocale);
  if (!definition.fields.length && !current && !input.fields) errors.add('fields', "can't be blank");
  // null and "" both mean no redirect.
  const redirectUrl = input.redirect_url === undefined ? current?.redirectUrl ?? null : input.redirect_url || null;
  checkRedirect(errors, redirectUrl);
  const successMessage = input.success_message ?? current?.successMessage ?? {};
  for (const locale of Object.keys(successMessage)) if (!locales.includes(locale)) errors.add('success_message', `names ${locale}, which is not a locale of the form`);
  const opensAt = input.opens_at === undefined ? current?.opensAt ?? null : input.opens_at ? new Date(input.opens_at) : null;
  const closesAt = input.closes_at === undefined ? current?.closesAt ?? null : input.closes_at ? new Date(input.closes_at) : null;
  if (opensAt && closesAt && closesAt <= opensAt) errors.add('closes_at', 'must be after opens_at');
  const notifyEmails = input.notify_emails === undefined ? undefined : checkEmails(errors, input.notify_emails);
  const confirmation = input.confirmation === undefined ? undefined : input.confirmation;
  const confirmationField = confirmation === undefined ? current?.confirmationField ?? null : confirmation?.email_field || null;
  const confirms = confirmation === undefined ? current?.confirmation ?? false : confirmation !== null;
  if (confirms && confirmationField !== null && !definition.fields.some((f) => f.name === confirmationField && f.type === 'email')) {
    errors.add('confirmation.email_field', 'must name an email field of the form');
  }
  if (confirms && confirmationField === null && access !== 'realm_users') errors.add('confirmation.email_field', 'is needed unless the form is answered by signed-in users');
  errors.throwIfAny();
  return {
    uid, name, access, defaultLocale, locales, fields: definition.fields, steps: input.steps ?? (input.fields ? [] : current?.steps ?? []),
    successMessage, redirectUrl, opensAt, closesAt, confirmation: confirms, confirmationField,
    ...(notifyEmails ? { notifyEmails } : {}),
    ...(input.max_responses !== undefined ? { maxResponses: input.max_responses } : {}),
    ...(input.spam?.min_fill_seconds !== undefined ? { minFillSeconds: input.spam.min_fill_seconds } : {}),
    ...(input.spam?.rate_limit_per_hour !== undefined ? { rateLimitPerHour: input.spam.rate_limit_per_hour } : {}),
    ...(input.active !== undefined ? { active: input.active } : {}),
  };
}

export async function createForm(ctx: ActingContext, input: Input): Promise<FormBody> {
  const realmUid = input.realm_uid || null;
  let realmId: number | null = null;
  if (realmUid !== null) {
    const [realm] = await ctx.db.select({ id: realms.id }).from(realms).where(eq(realms.uid, realmUid));
    if (!realm) throw invalidField('realm_uid', 'is not a realm of this account');
    realmId = realm.id;
  }
  if (!(realmUid === null ? ctx.actor.holdsEverywhere('forms.manage') : ctx.actor.holdsOn('forms.manage', realmUid))) throw forbidden();
  const columns = checkInput(input, null, realmId);
  const now = ctx.clock.now();
  try {
    const [form] = await ctx.db.insert(forms).values({ notifyEmails: [], ...columns, realmId, createdAt: now, updatedAt: now } as typeof forms.$inferInsert).returning();
    return formBody({ form, realmUid, responseCount: 0 });
  } catch (err) {
    if (uniqueViolation(err)) throw invalidField('uid', 'has already been taken');
    throw err;
  }
}

export async function updateForm(ctx: ActingContext, uid: string, input: Input): Promise<FormBody> {
  const row = await requireForm(ctx, uid, 'forms.manage');
  if (input.uid !== undefined && input.uid !== row.form.uid) throw invalidField('uid', 'cannot change');
  if (input.realm_uid !== undefined && input.realm_uid !== row.realmUid) throw invalidField('realm_uid', 'cannot change');
  const { uid: _uid, ...columns } = checkInput(input, row.form, row.form.realmId);
  const [form] = await ctx.db.update(forms).set({ ...columns, updatedAt: ctx.clock.now() }).where(eq(forms.id, row.form.id)).returning();
  formChanged(ctx, row);
  return formBody({ form, realmUid: row.realmUid, responseCount: await countOf(ctx, form.id) });
}

export async function deleteForm(ctx: ActingContext, uid: string): Promise<void> {
  const row = await requireForm(ctx, uid, 'forms.manage');
  await ctx.db.delete(forms).where(eq(forms.id, row.form.id));
  formChanged(ctx, row);
}

/** The ids of the forms where the actor holds `permission` and may see respondents' data. */
export function formsWithPersonalReach(ctx: ActingContext): SQL | undefined {
  const manage = ctx.actor.targetsOf('forms.manage');
  const personal = ctx.actor.targetsOf('realm.users.read');
  const accountForms = ctx.actor.holdsEverywhere('forms.manage') ? isNull(forms.realmId) : sql`false`;
  if (manage === null && personal === null) return undefined;
  const reach = manage === null ? personal! : personal === null ? manage : manage.filter((u) => personal.includes(u));
  const realmForms = reach.length ? inArray(forms.realmId, ctx.db.select({ id: realms.id }).from(realms).where(inArray(realms.uid, reach))) : sql`false`;
  return or(accountForms, realmForms);
}
