import { and, asc, desc, eq } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { AccessTokenModel, ApplicationInput as ApplicationInputSchema, ApplicationModel } from './schema.js';
import type { Context } from '../context.js';
import { textSearch } from '../db/like.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { orderOf, type ListParams } from '../db/sorting.js';
import { FieldErrors, notFound } from '../errors/index.js';
import { targetProblem } from '../net/outbound.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { findAdmin, findMemberToActOn, grantsOf, lockMemberToActOn } from './team.js';
import { assertMayActOn } from './privileges.js';
import type { ActingContext } from './principal.js';
import { accessTokens, apiApplications } from '../tables/admin-auth.js';

export type Application = typeof apiApplications.$inferSelect;

export type ApplicationBody = Static<typeof ApplicationModel>;
export type ApplicationInput = Static<typeof ApplicationInputSchema>;

export function applicationBody(app: Application, secret?: string): ApplicationBody {
  return {
    id: app.id,
    uid: app.uid,
    name: app.name,
    description: app.description,
    redirect_uri: app.redirectUri,
    logout_url: app.logoutUrl,
    // Spec 2.14: the callback URL equals the redirect URI.
    callback_url: app.redirectUri,
    ...(secret === undefined ? {} : { secret }),
    created_at: app.createdAt.toISOString(),
    updated_at: app.updatedAt.toISOString(),
  };
}

function checkUrl(errors: FieldErrors, field: string, value: string | undefined): void {
  if (!value) return;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') errors.add(field, 'must be an http(s) address');
  } catch {
    errors.add(field, 'must be an absolute address');
  }
}

function checkApplication(ctx: Context, input: ApplicationInput, creating: boolean): void {
  const errors = new FieldErrors();
  if ((creating || input.name !== undefined) && !input.name?.trim()) errors.add('name', "can't be blank");
  checkUrl(errors, 'redirect_uri', input.redirect_uri);
  // The server itself requests the logout URL: the outbound rules apply (a name is checked again at each call).
  const logoutProblem = input.logout_url ? targetProblem(input.logout_url, ctx.config.outboundAllowPrivate) : null;
  if (logoutProblem) errors.add('logout_url', logoutProblem);
  errors.throwIfAny();
}

export const APPLICATION_SORTABLE = {
  id: apiApplications.id, name: apiApplications.name, created_at: apiApplications.createdAt, updated_at: apiApplications.updatedAt,
};

export async function listApplications(ctx: ActingContext, page: Page, query: ListParams) {
  ctx.actor.assertHolds('api_access.manage');
  const where = textSearch(query.query, [apiApplications.name, apiApplications.uid]);
  const rows = await ctx.db.select({ app: apiApplications, total: totalCount }).from(apiApplications).where(where)
    .orderBy(orderOf(APPLICATION_SORTABLE, query, apiApplications.updatedAt, 'desc'), desc(apiApplications.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, apiApplications, where);
  return { items: rows.map((r) => applicationBody(r.app)), total };
}

async function findApplication(ctx: Context, id: number): Promise<Application> {
  const [app] = await ctx.db.select().from(apiApplications).where(eq(apiApplications.id, id));
  if (!app) throw notFound('Application');
  return app;
}

export async function getApplication(ctx: ActingContext, id: number): Promise<ApplicationBody> {
  ctx.actor.assertHolds('api_access.manage');
  return applicationBody(await findApplication(ctx, id));
}

/** The Application ID and Secret are generated; the secret is shown in this answer only. */
export async function createApplication(ctx: ActingContext, input: ApplicationInput): Promise<ApplicationBody> {
  ctx.actor.assertHolds('api_access.manage');
  checkApplication(ctx, input, true);
  const secret = randomSecret();
  const now = ctx.clock.now();
  const [app] = await ctx.db.insert(apiApplications).values({
    uid: randomSecret(24),
    secretHash: hashSecret(secret),
    name: input.name!.trim(),
    description: input.description ?? '',
    redirectUri: input.redirect_uri ?? '',
    logoutUrl: input.logout_url ?? '',
    createdAt: now,
    updatedAt: now,
  }).returning();
  return applicationBody(app, secret);
}

/** PUT is partial: only the attributes sent are written, so a concurrent change of another one stays. */
export async function updateApplication(ctx: ActingContext, id: number, input: ApplicationInput): Promise<ApplicationBody> {
  ctx.actor.assertHolds('api_access.manage');
  await findApplication(ctx, id);
  checkApplication(ctx, input, false);
  const [updated] = await ctx.db.update(apiApplications).set({
    name: input.name?.trim(),
    description: input.description,
    redirectUri: input.redirect_uri,
    logoutUrl: input.logout_url,
    updatedAt: ctx.clock.now(),
  }).where(eq(apiApplications.id, id)).returning();
  if (!updated) throw notFound('Application');
  return applicationBody(updated);
}

/**
 * Deleting an application revokes every token issued for it (the foreign key cascades), so the actor must
 * be allowed to revoke each holder's tokens (403 otherwise): an owner's token is not taken away by a member
 * who could not revoke it directly. The application's row is locked first, which holds back a token being
 * minted for it meanwhile (its insert checks the row), so the holders read are all there are.
 */
export async function deleteApplication(ctx: ActingContext, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [app] = await tx.select({ id: apiApplications.id }).from(apiApplications).where(eq(apiApplications.id, id)).for('update');
    if (!app) throw notFound('Application');
    const holders = await tx.selectDistinct({ adminId: accessTokens.adminId }).from(accessTokens).where(eq(accessTokens.applicationId, id));
    for (const { adminId } of holders) assertMayActOn(ctx.actor, await grantsOf(tx, adminId));
    await tx.delete(apiApplications).where(eq(apiApplications.id, id));
  });
  // Its tokens, of any member, went with it.
  ctx.caches.changed('access');
}

export async function logoutUrls(ctx: Context): Promise<string[]> {
  const rows = await ctx.db.select({ url: apiApplications.logoutUrl }).from(apiApplications);
  return rows.map((r) => r.url).filter(Boolean);
}

export type AccessTokenBody = Static<typeof AccessTokenModel>;

type AccessToken = typeof accessTokens.$inferSelect;

const tokenBody = (row: AccessToken, applicationName: string, token?: string): AccessTokenBody => ({
  id: row.id,
  ...(token === undefined ? {} : { token }),
  application_id: row.applicationId,
  application_name: applicationName,
  created_at: row.createdAt.toISOString(),
});

export async function listAccessTokens(ctx: ActingContext, adminId: number, page: Page) {
  ctx.actor.assertHolds('team.manage');
  await findAdmin(ctx, adminId);
  const where = eq(accessTokens.adminId, adminId);
  const rows = await ctx.db.select({ token: accessTokens, applicationName: apiApplications.name, total: totalCount }).from(accessTokens)
    .innerJoin(apiApplications, eq(apiApplications.id, accessTokens.applicationId)).where(where)
    .orderBy(asc(accessTokens.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, accessTokens, where);
  return { items: rows.map((r) => tokenBody(r.token, r.applicationName)), total };
}

/**
 * A token acts with its member's roles; its value is shown once and stored only as a hash. The member's
 * row is locked while the token is written, so a deactivation at the same time ends this token too.
 */
export async function createAccessToken(ctx: ActingContext, adminId: number, applicationId: number | undefined): Promise<AccessTokenBody> {
  await findMemberToActOn(ctx, adminId);
  const errors = new FieldErrors();
  const [app] = applicationId === undefined ? [] : await ctx.db.select().from(apiApplications).where(eq(apiApplications.id, applicationId));
  if (!app) errors.add('application_id', applicationId === undefined ? "can't be blank" : 'is not a known application');
  errors.throwIfAny();
  const token = randomSecret();
  const row = await ctx.db.transaction(async (tx) => {
    await lockMemberToActOn(ctx, tx, adminId);
    const [inserted] = await tx.insert(accessTokens).values({
      adminId, applicationId: app.id, tokenHash: hashSecret(token), createdAt: ctx.clock.now(),
    }).returning();
    return inserted;
  });
  return tokenBody(row, app.name, token);
}

export async function deleteAccessToken(ctx: ActingContext, adminId: number, tokenId: number): Promise<void> {
  await findMemberToActOn(ctx, adminId);
  const deleted = await ctx.db.transaction(async (tx) => {
    await lockMemberToActOn(ctx, tx, adminId);
    return tx.delete(accessTokens)
      .where(and(eq(accessTokens.id, tokenId), eq(accessTokens.adminId, adminId))).returning({ id: accessTokens.id });
  });
  if (!deleted.length) throw notFound('Access token');
  ctx.caches.changed('access', `admin:${adminId}`);
}
