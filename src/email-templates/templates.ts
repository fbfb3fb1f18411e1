import { and, count, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Permission } from '../admin-auth/permissions.js';
import type { ActingContext, AdminPrincipal } from '../admin-auth/principal.js';
import { assertMaySeePersonalData } from '../admin-auth/personal-data.js';
import type { Context } from '../context.js';
import { FieldErrors, forbidden, invalidField, notFound } from '../errors/index.js';
import { isLocale, type Locale } from '../i18n/locale.js';
import type { Page } from '../db/paging.js';
import { admins } from '../tables/admin-auth.js';
import { emailTemplates, emailTemplateVersions } from '../tables/email-templates.js';
import { realmUsers } from '../tables/realms.js';
import { checkTemplate, fieldProblems, type TemplateInput } from './check.js';
import { exampleVariables, isTemplateKind, type TemplateKind } from './kinds.js';
import { FIELDS, renderContent, type RenderedMail } from './render.js';
import { SHIPPED, type LocaleContent, type TemplateContent } from './shipped.js';

/** Whose templates a route reads: the account's defaults, or a realm's overrides. */
export interface TemplateScope {
  realm: { id: number; uid: string; name: string; defaultLanguage: string } | null;
}

export type TemplateSource = 'shipped' | 'account' | 'realm';

export interface TemplateBody {
  kind: TemplateKind;
  realm_uid: string | null;
  source: TemplateSource;
  format: 'html' | 'mjml';
  locales: TemplateContent['locales'];
  updated_at: string | null;
  updated_by: number | null;
}

export function requireKind(kind: string): TemplateKind {
  if (!isTemplateKind(kind)) throw notFound('Email template kind');
  return kind;
}

/** The scope of a realm's overrides; 404 for a realm that does not exist. */
export function realmScope(realm: NonNullable<TemplateScope['realm']>): TemplateScope {
  return { realm: { id: realm.id, uid: realm.uid, name: realm.name, defaultLanguage: realm.defaultLanguage } };
}

/** The account's defaults. */
export const ACCOUNT_SCOPE: TemplateScope = { realm: null };

/**
 * The templates of a scope need the permission on its realm, or, for the account's defaults, from an
 * account role: a route without a realm lets any role with the permission through, and a realm role reaches
 * its realm's overrides only.
 */
export function assertMayUse(actor: AdminPrincipal, scope: TemplateScope, permission: Permission): void {
  if (scope.realm) actor.assertHolds(permission, scope.realm.uid);
  else if (!actor.holdsEverywhere(permission)) throw forbidden(`The account's email templates need ${permission} from an account role`);
}

const scopeWhere = (scope: TemplateScope) => (scope.realm ? eq(emailTemplates.realmId, scope.realm.id) : isNull(emailTemplates.realmId));

/**
 * What a mail of a kind uses for a realm (null: the account): the realm's override, else the account's
 * default, else the shipped wording. One query.
 */
export async function effectiveTemplate(ctx: Context, kind: TemplateKind, realmId: number | null) {
  const [row] = await ctx.db.select().from(emailTemplates)
    .where(and(eq(emailTemplates.kind, kind), realmId === null ? isNull(emailTemplates.realmId) : or(isNull(emailTemplates.realmId), eq(emailTemplates.realmId, realmId))))
    .orderBy(sql`${emailTemplates.realmId} nulls last`).limit(1);
  const source: TemplateSource = !row ? 'shipped' : row.realmId === null ? 'account' : 'realm';
  return { source, content: row?.content ?? SHIPPED[kind], row };
}

export async function showTemplate(ctx: ActingContext, scope: TemplateScope, kind: TemplateKind): Promise<TemplateBody> {
  assertMayUse(ctx.actor, scope, 'templates.read');
  return templateBody(ctx, scope, kind);
}

async function templateBody(ctx: Context, scope: TemplateScope, kind: TemplateKind): Promise<TemplateBody> {
  const { source, content, row } = await effectiveTemplate(ctx, kind, scope.realm?.id ?? null);
  return {
    kind, realm_uid: scope.realm?.uid ?? null, source, format: content.format, locales: content.locales,
    updated_at: row?.updatedAt.toISOString() ?? null, updated_by: row?.updatedBy ?? null,
  };
}

async function recordVersion(ctx: ActingContext, scope: TemplateScope, kind: TemplateKind, content: TemplateContent | null): Promise<void> {
  await ctx.db.insert(emailTemplateVersions).values({
    realmId: scope.realm?.id ?? null, kind, content, adminId: ctx.actor.adminId || null, createdAt: ctx.clock.now(),
  });
}

/** Saves the scope's template of a kind (checked: 422 naming each field, line and column) and keeps it as a version. */
export async function saveTemplate(ctx: ActingContext, scope: TemplateScope, kind: TemplateKind, input: TemplateInput): Promise<TemplateBody> {
  assertMayUse(ctx.actor, scope, 'templates.manage');
  const content = await checkTemplate(kind, input);
  const now = ctx.clock.now();
  const values = { content, updatedAt: now, updatedBy: ctx.actor.adminId || null };
  // Locked so that two saves of one template keep one row and both versions.
  const [current] = await ctx.db.select({ id: emailTemplates.id }).from(emailTemplates).where(and(eq(emailTemplates.kind, kind), scopeWhere(scope))).for('update');
  if (current) await ctx.db.update(emailTemplates).set(values).where(eq(emailTemplates.id, current.id));
  else await ctx.db.insert(emailTemplates).values({ ...values, kind, realmId: scope.realm?.id ?? null });
  await recordVersion(ctx, scope, kind, content);
  return templateBody(ctx, scope, kind);
}

/** Removes the scope's template: mails of the kind use the next one (the account's default, the shipped wording). */
export async function resetTemplate(ctx: ActingContext, scope: TemplateScope, kind: TemplateKind): Promise<TemplateBody> {
  assertMayUse(ctx.actor, scope, 'templates.manage');
  const removed = await ctx.db.delete(emailTemplates).where(and(eq(emailTemplates.kind, kind), scopeWhere(scope))).returning({ id: emailTemplates.id });
  if (removed.length) await recordVersion(ctx, scope, kind, null);
  return templateBody(ctx, scope, kind);
}

/** A member's name as the console shows it: first and last, else the address; null without a member. */
const memberName = sql<string | null>`coalesce(nullif(trim(${admins.firstName} || ' ' || ${admins.lastName}), ''), ${admins.email})`;

export async function listVersions(ctx: ActingContext, scope: TemplateScope, kind: TemplateKind, page: Page) {
  assertMayUse(ctx.actor, scope, 'templates.read');
  const where = and(eq(emailTemplateVersions.kind, kind),
    scope.realm ? eq(emailTemplateVersions.realmId, scope.realm.id) : isNull(emailTemplateVersions.realmId));
  const rows = await ctx.db.select({ version: emailTemplateVersions, adminName: memberName }).from(emailTemplateVersions)
    .leftJoin(admins, eq(admins.id, emailTemplateVersions.adminId))
    .where(where).orderBy(desc(emailTemplateVersions.id)).limit(page.perPage).offset(page.offset);
  const [{ total }] = await ctx.db.select({ total: count() }).from(emailTemplateVersions).where(where);
  return {
    items: rows.map(({ version: v, adminName }) => ({
      id: v.id, action: v.content ? 'saved' as const : 'reset' as const, format: v.content?.format ?? null, locales: v.content?.locales ?? null,
      admin_id: v.adminId, admin_name: adminName, created_at: v.createdAt.toISOString(),
    })),
    total,
  };
}

export interface PreviewInput {
  locale?: string;
  user_id?: number;
  draft?: { format?: 'html' | 'mjml'; subject: string; html: string; text: string };
}

const fullName = (user: { firstName: string; lastName: string }) => [user.firstName, user.lastName].filter(Boolean).join(' ');

/** A user's variables as mails read them. */
export const userVariables = (user: { email: string; username: string | null; firstName: string; lastName: string }) => ({
  email: user.email, username: user.username, first_name: user.firstName, last_name: user.lastName, name: fullName(user),
});

/**
 * The variables of a preview: the kind's examples, the scope's realm, and with `user_id` that realm user's
 * own data (the personal-data rule: `realm.users.read` on the realm, 403 otherwise).
 */
async function previewVariables(ctx: ActingContext, scope: TemplateScope, kind: TemplateKind, locale: Locale, userId: number | undefined) {
  const variables = exampleVariables(kind, locale);
  if (scope.realm && Object.hasOwn(variables, 'realm')) variables.realm = { uid: scope.realm.uid, name: scope.realm.name };
  if (userId === undefined) return variables;
  if (!scope.realm) throw invalidField('user_id', 'needs a realm: preview a realm\'s template');
  assertMaySeePersonalData(ctx.actor, scope.realm.uid);
  const [user] = await ctx.db.select().from(realmUsers).where(and(eq(realmUsers.id, userId), eq(realmUsers.realmId, scope.realm.id)));
  if (!user) throw notFound('User');
  if (Object.hasOwn(variables, 'user')) variables.user = userVariables(user);
  if (Object.hasOwn(variables, 'email')) variables.email = user.email;
  return variables;
}

/**
 * A mail as it would be sent: the saved template (or a draft, checked like a save) in a locale, rendered
 * with sample data or a chosen user's.
 */
export async function previewTemplate(ctx: ActingContext, scope: TemplateScope, kind: TemplateKind, input: PreviewInput): Promise<RenderedMail> {
  assertMayUse(ctx.actor, scope, 'templates.read');
  return renderPreview(ctx, scope, kind, input);
}

/** The preview's mail, for a member already let through (a test send asks `templates.manage`). */
export async function renderPreview(ctx: ActingContext, scope: TemplateScope, kind: TemplateKind, input: PreviewInput): Promise<RenderedMail> {
  const locale = input.locale ?? scope.realm?.defaultLanguage ?? 'en';
  if (!isLocale(locale)) throw invalidField('locale', 'is not a supported locale');
  let format: TemplateContent['format'];
  let content: LocaleContent;
  if (input.draft) {
    const errors = new FieldErrors();
    for (const field of FIELDS) for (const problem of fieldProblems(kind, field, input.draft[field])) errors.add(`draft.${field}`, problem);
    errors.throwIfAny();
    format = input.draft.format ?? 'html';
    content = input.draft;
  } else {
    const saved = (await effectiveTemplate(ctx, kind, scope.realm?.id ?? null)).content;
    format = saved.format;
    content = saved.locales[locale as Locale];
  }
  const variables = await previewVariables(ctx, scope, kind, locale as Locale, input.user_id);
  try {
    return await renderContent(format, content, variables);
  } catch (err) {
    throw invalidField(input.draft ? 'draft' : 'base', `does not render: ${(err as Error).message}`);
  }
}

/** The acting member's own address, where test sends go. */
export async function memberAddress(ctx: ActingContext): Promise<string> {
  const [admin] = await ctx.db.select({ email: admins.email }).from(admins).where(eq(admins.id, ctx.actor.adminId));
  if (!admin) throw invalidField('base', 'only a team member has an address to send a test to');
  return admin.email;
}
