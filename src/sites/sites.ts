import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Permission } from '../admin-auth/permissions.js';
import { dropTarget, retarget } from '../admin-auth/role-targets.js';
import type { Context } from '../context.js';
import { checkedLocales, checkedName, checkedUid } from '../content/checks.js';
import { totalCount, totalOf, type Page } from '../db/paging.js';
import { textSearch } from '../db/like.js';
import { orderOf } from '../db/sorting.js';
import { uniqueViolation } from '../db/unique.js';
import { FieldErrors, forbidden, invalidField, notFound } from '../errors/index.js';
import { customDomainOf } from '../realms/realms.js';
import { contentSpaces } from '../tables/content.js';
import { oauthClients } from '../tables/oauth.js';
import { realms } from '../tables/realms.js';
import { sites } from '../tables/sites.js';
import { SITE_LIMITS, type SiteInput, type SiteModel } from './schema.js';
import { syncSiteClient } from './site-client.js';

export type Site = typeof sites.$inferSelect;
export type SiteBody = Static<typeof SiteModel>;
type Input = Static<typeof SiteInput>;

export interface SiteRow {
  site: Site;
  realmUid: string | null;
  publishedNumber: number | null;
}

const selection = {
  site: sites,
  realmUid: realms.uid,
  publishedNumber: sql<number | null>`(select v.number from site_versions v where v.id = ${sites.publishedVersionId})`,
};

export function siteBody(row: SiteRow): SiteBody {
  const { site } = row;
  return {
    uid: site.uid,
    name: site.name,
    default_locale: site.defaultLocale,
    locales: site.locales,
    realm_uid: row.realmUid,
    space_uids: site.spaceUids,
    custom_domain: site.customDomain,
    require_review: site.requireReview,
    active: site.active,
    draft_revision: site.draftRevision,
    published_version: row.publishedNumber,
    url: `/sites/${site.uid}/`,
    created_at: site.createdAt.toISOString(),
    updated_at: site.updatedAt.toISOString(),
  };
}

async function findSite(ctx: Context, uid: string): Promise<SiteRow | undefined> {
  const [row] = await ctx.db.select(selection).from(sites).leftJoin(realms, eq(realms.id, sites.realmId)).where(eq(sites.uid, uid));
  return row;
}

/** Role assignments name sites by uid: a site role must name an existing site. */
export const siteExists = async (ctx: Context, uid: string) => Boolean(await findSite(ctx, uid));

/**
 * The site an admin route names, for an actor who may `permission` on it: a site the actor cannot even
 * read is unknown to it (404); one it can read but not change, forbidden (403).
 */
export async function requireSite(ctx: ActingContext, uid: string, permission: Permission): Promise<SiteRow> {
  const row = await findSite(ctx, uid);
  if (!row || !ctx.actor.holdsOn('site.read', row.site.uid)) throw notFound('Site');
  if (!ctx.actor.holdsOn(permission, row.site.uid)) throw forbidden();
  return row;
}

/**
 * Takes the site's row for the rest of the transaction: writes that check the whole site (the page tree's
 * paths, a version's number, a rollback of every draft) take turns.
 */
export async function lockSiteRow(ctx: Context, siteId: number): Promise<void> {
  await ctx.db.select({ id: sites.id }).from(sites).where(eq(sites.id, siteId)).for('update');
}

/**
 * A draft changed: the site's revision moves on (a review request approved an earlier one), in the
 * write's transaction; the update holds the site's row until it ends, so concurrent writers count in turn.
 */
export async function draftChanged(ctx: Context, siteId: number): Promise<void> {
  await ctx.db.update(sites).set({ draftRevision: sql`${sites.draftRevision} + 1`, updatedAt: ctx.clock.now() }).where(eq(sites.id, siteId));
}

interface Checked {
  uid?: string;
  name?: string;
  defaultLocale?: string;
  locales?: string[];
  realmUid?: string | null;
  spaceUids?: string[];
  customDomain?: string | null;
}

function checkInput(ctx: Context, input: Input, current: Site | null): Checked {
  const errors = new FieldErrors();
  const uid = checkedUid(errors, input.uid, !current);
  const name = checkedName(errors, input.name, !current);
  const locales = checkedLocales(errors, input, current, SITE_LIMITS.locales);
  const customDomain = customDomainOf(ctx, input.custom_domain, errors);
  const realmUid = input.realm_uid === undefined ? undefined : input.realm_uid?.trim() || null;
  let spaceUids: string[] | undefined;
  if (input.space_uids !== undefined) {
    spaceUids = [...new Set(input.space_uids.map((s) => s.trim()))];
    if (spaceUids.length > SITE_LIMITS.spaces) errors.add('space_uids', `are too many (maximum is ${SITE_LIMITS.spaces})`);
  }
  errors.throwIfAny();
  return { uid, name, ...locales, customDomain, realmUid, spaceUids };
}

/** The realm and spaces a site names exist; its custom domain is no other site's or realm's. */
async function resolveReferences(ctx: ActingContext, checked: Checked, selfId: number | null): Promise<{ realmId?: number | null }> {
  const errors = new FieldErrors();
  let realmId: number | null | undefined;
  if (checked.realmUid) {
    const [realm] = await ctx.db.select({ id: realms.id }).from(realms).where(eq(realms.uid, checked.realmUid));
    if (!realm) errors.add('realm_uid', 'is not a realm of this account');
    realmId = realm?.id;
  } else if (checked.realmUid === null) realmId = null;
  if (checked.spaceUids?.length) {
    const found = await ctx.db.select({ uid: contentSpaces.uid }).from(contentSpaces).where(inArray(contentSpaces.uid, checked.spaceUids));
    const missing = checked.spaceUids.filter((uid) => !found.some((f) => f.uid === uid));
    if (missing.length) errors.add('space_uids', `name no content space: ${missing.slice(0, 5).join(', ')}`);
  }
  if (checked.customDomain) {
    const [realm] = await ctx.db.select({ id: realms.id }).from(realms).where(eq(realms.customDomain, checked.customDomain));
    const [site] = await ctx.db.select({ id: sites.id }).from(sites).where(eq(sites.customDomain, checked.customDomain));
    if (realm || (site && site.id !== selfId)) throw domainTaken();
  }
  errors.throwIfAny();
  return { realmId };
}

const domainTaken = () => invalidField('custom_domain', 'has already been taken');

function refusedWrite(err: unknown): never {
  const index = uniqueViolation(err);
  if (index === 'sites_custom_domain_key') throw domainTaken();
  if (index !== null) throw invalidField('uid', 'has already been taken');
  throw err;
}

/**
 * Only an account-wide site.write sets a custom domain (every realm page trusts the domains of the
 * account as redirect targets) or the spaces a site's roles reach.
 */
function assertAccountWide(ctx: ActingContext, checked: Checked, current: Site | null): void {
  const domainChanges = checked.customDomain !== undefined && checked.customDomain !== (current?.customDomain ?? null);
  const spacesChange = checked.spaceUids !== undefined && JSON.stringify(checked.spaceUids) !== JSON.stringify(current?.spaceUids ?? []);
  if ((domainChanges || spacesChange) && !ctx.actor.holdsEverywhere('site.write')) {
    throw forbidden('Setting a custom domain or the content spaces of a site needs an account role');
  }
}

const SORTABLE = { uid: sites.uid, name: sites.name, created_at: sites.createdAt, updated_at: sites.updatedAt };

/** `visible`: the site uids the caller may read, or null for all of them. */
export async function listSites(ctx: ActingContext, page: Page, query: { query?: string; sort_by?: string; order?: string }) {
  const visible = ctx.actor.targetsOf('site.read');
  const where = and(textSearch(query.query, [sites.uid, sites.name]), visible ? inArray(sites.uid, visible.length ? visible : ['']) : undefined);
  const rows = await ctx.db.select({ ...selection, total: totalCount }).from(sites).leftJoin(realms, eq(realms.id, sites.realmId)).where(where)
    .orderBy(orderOf(SORTABLE, query, sites.updatedAt, 'desc'), desc(sites.id)).limit(page.perPage).offset(page.offset);
  const total = await totalOf(rows, page, ctx.db, sites, where);
  return { items: rows.map(siteBody), total };
}

/** Creating a site needs site.write from an account role: a site role reaches only its own site. */
export async function createSite(ctx: ActingContext, input: Input): Promise<SiteBody> {
  if (!ctx.actor.holdsEverywhere('site.write')) throw forbidden('Creating a site needs an account role');
  const checked = checkInput(ctx, input, null);
  const { realmId } = await resolveReferences(ctx, checked, null);
  const now = ctx.clock.now();
  const [site] = await ctx.db.insert(sites).values({
    uid: checked.uid!, name: checked.name!, defaultLocale: checked.defaultLocale!, locales: checked.locales!, realmId: realmId ?? null,
    spaceUids: checked.spaceUids ?? [], customDomain: checked.customDomain ?? null, requireReview: input.require_review ?? false,
    active: input.active ?? true, createdAt: now, updatedAt: now,
  }).returning().catch(refusedWrite);
  await syncSiteClient(ctx, site.id);
  sitesChanged(ctx, site.id);
  return siteBody({ site, realmUid: checked.realmUid ?? null, publishedNumber: null });
}

/** PUT is partial. A new uid is followed by the role assignments that named the old one. */
export async function updateSite(ctx: ActingContext, uid: string, input: Input): Promise<SiteBody> {
  const { site } = await requireSite(ctx, uid, 'site.write');
  const checked = checkInput(ctx, input, site);
  assertAccountWide(ctx, checked, site);
  if (input.require_review !== undefined && input.require_review !== site.requireReview && !ctx.actor.holdsOn('site.publish', site.uid)) {
    throw forbidden('Changing require_review needs site.publish');
  }
  const { realmId } = await resolveReferences(ctx, checked, site.id);
  await lockSiteRow(ctx, site.id);
  const renamed = checked.uid !== undefined && checked.uid !== site.uid;
  await ctx.db.update(sites).set({
    uid: checked.uid, name: checked.name, defaultLocale: checked.defaultLocale, locales: checked.locales, realmId,
    spaceUids: checked.spaceUids, customDomain: checked.customDomain, requireReview: input.require_review, active: input.active,
    updatedAt: ctx.clock.now(),
  }).where(eq(sites.id, site.id)).catch(refusedWrite);
  if (renamed) await retarget(ctx.db, 'site', site.uid, checked.uid!);
  if (checked.realmUid !== undefined || checked.customDomain !== undefined) await syncSiteClient(ctx, site.id);
  // Site roles reach the site's spaces by its uid: who may do what changes with either.
  if (renamed || checked.spaceUids) ctx.caches.changed('access');
  sitesChanged(ctx, site.id);
  return siteBody((await findSite(ctx, checked.uid ?? site.uid))!);
}

/** Deletes the site with its drafts and versions, its OAuth client, and the role assignments that named it. */
export async function deleteSite(ctx: ActingContext, uid: string): Promise<void> {
  const { site } = await requireSite(ctx, uid, 'site.write');
  if (!ctx.actor.holdsEverywhere('site.write')) throw forbidden('Deleting a site needs an account role');
  await dropTarget(ctx.db, 'site', site.uid);
  await ctx.db.delete(sites).where(eq(sites.id, site.id));
  // The site's own OAuth client of its realm goes with it.
  if (site.oauthClientId !== null) await ctx.db.delete(oauthClients).where(eq(oauthClients.id, site.oauthClientId));
  ctx.caches.changed('access');
  sitesChanged(ctx, site.id);
}

/** What every instance serves of the site is read again (the cache-notice channel). */
export function sitesChanged(ctx: Context, siteId: number): void {
  ctx.caches.changed('sites', `site:${siteId}`, 'domains');
}
