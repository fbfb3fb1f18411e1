import { and, eq } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Page } from '../db/paging.js';
import { FieldErrors, invalidField, notFound, pageHasChildren, pathTaken } from '../errors/index.js';
import { sitePages, siteTemplates, type PageBlock, type PageLocale } from '../tables/sites.js';
import { checkBlocks } from './blocks.js';
import { chainOf, firstClash, RESERVED_SLUGS, sitePaths, SLUG, treeOrder, type TreePage } from './paths.js';
import { SITE_LIMITS, type PageInput, type PageModel } from './schema.js';
import { draftChanged, lockSiteRow, requireSite, type Site } from './sites.js';
import { assertSiteItemUnlocked } from './site-locks.js';

export type SitePage = typeof sitePages.$inferSelect;
export type PageBody = Static<typeof PageModel>;
type Input = Static<typeof PageInput>;

export const pageBody = (page: SitePage, paths: Record<string, string>): PageBody => ({
  id: page.id,
  parent_id: page.parentId,
  position: page.position,
  layout: page.layout,
  visibility: page.visibility,
  locales: page.locales,
  paths,
  blocks: page.blocks as PageBody['blocks'],
  created_at: page.createdAt.toISOString(),
  updated_at: page.updatedAt.toISOString(),
});

const pagesOf = (ctx: ActingContext, siteId: number) => ctx.db.select().from(sitePages).where(eq(sitePages.siteId, siteId));

/** The pages of a site in tree order, each parent before its children; `parent`: only the children of one page (null: top level). */
export async function listPages(ctx: ActingContext, siteUid: string, page: Page, parent?: number | null) {
  const { site } = await requireSite(ctx, siteUid, 'site.read');
  const pages = treeOrder(await pagesOf(ctx, site.id));
  const paths = sitePaths(pages, site);
  const chosen = parent === undefined ? pages : pages.filter((p) => p.parentId === parent);
  return { items: chosen.slice(page.offset, page.offset + page.perPage).map((p) => pageBody(p, paths.get(p.id) ?? {})), total: chosen.length };
}

export async function requirePage(ctx: ActingContext, siteUid: string, id: number, permission: 'site.read' | 'site.write') {
  const { site } = await requireSite(ctx, siteUid, permission);
  const [page] = await ctx.db.select().from(sitePages).where(and(eq(sitePages.id, id), eq(sitePages.siteId, site.id)));
  if (!page) throw notFound('Page');
  return { site, page };
}

export async function showPage(ctx: ActingContext, siteUid: string, id: number): Promise<PageBody> {
  const { site, page } = await requirePage(ctx, siteUid, id, 'site.read');
  return pageBody(page, sitePaths(await pagesOf(ctx, site.id), site).get(page.id) ?? {});
}

function checkedLocales(errors: FieldErrors, site: Site, input: Input['locales'], current: Record<string, PageLocale> | null, isRoot: boolean) {
  if (input === undefined) return current ?? undefined;
  const merged: Record<string, PageLocale> = { ...(current ?? {}) };
  for (const [locale, words] of Object.entries(input)) {
    if (!site.locales.includes(locale)) {
      errors.add('locales', `names ${locale.slice(0, 20)}, not a locale of the site`);
      continue;
    }
    const before = merged[locale] ?? { title: '', description: '', slug: '' };
    const next = { title: words.title?.trim() ?? before.title, description: words.description?.trim() ?? before.description, slug: words.slug?.trim().toLowerCase() ?? before.slug };
    const at = `locales.${locale}`;
    if (!next.title) errors.add(`${at}.title`, "can't be blank");
    if (next.title.length > SITE_LIMITS.title) errors.add(`${at}.title`, `is too long (maximum is ${SITE_LIMITS.title} characters)`);
    if (next.description.length > SITE_LIMITS.description) errors.add(`${at}.description`, `is too long (maximum is ${SITE_LIMITS.description} characters)`);
    if (RESERVED_SLUGS.includes(next.slug) || site.locales.includes(next.slug)) errors.add(`${at}.slug`, `is reserved: ${next.slug}`);
    else if (next.slug === '' ? !isRoot : !SLUG.test(next.slug)) {
      errors.add(`${at}.slug`, next.slug === '' ? "can't be blank (only a top-level page, the home page, may have an empty slug)" : 'may contain only lower-case letters, digits and "-"');
    }
    merged[locale] = next;
  }
  if (!merged[site.defaultLocale]) errors.add(`locales.${site.defaultLocale}`, "can't be blank: the site's default locale names every page");
  return merged;
}

/** Checks a page as it would be after the write against the whole tree: the place, the limits, the paths. */
function checkTree(pages: TreePage[], changed: TreePage, site: Site): void {
  const all = [...pages.filter((p) => p.id !== changed.id), changed];
  const byId = new Map(all.map((p) => [p.id, p]));
  if (changed.parentId !== null) {
    if (!byId.has(changed.parentId)) throw invalidField('parent_id', 'is not a page of this site');
    const chain = chainOf(byId, changed);
    if (!chain) throw invalidField('parent_id', 'would put the page under itself');
    if (chain.length > SITE_LIMITS.depth) throw invalidField('parent_id', `would nest pages deeper than ${SITE_LIMITS.depth} levels`);
    const deepest = Math.max(...all.map((p) => chainOf(byId, p)?.length ?? 0));
    if (deepest > SITE_LIMITS.depth) throw invalidField('parent_id', `would nest pages deeper than ${SITE_LIMITS.depth} levels`);
  }
  if (all.filter((p) => p.parentId === changed.parentId).length > SITE_LIMITS.children) {
    throw invalidField('parent_id', `would give a page more than ${SITE_LIMITS.children} children`);
  }
  const clash = firstClash(sitePaths(all, site));
  if (clash) throw pathTaken(clash.path, clash.locale);
}

async function layoutExists(ctx: ActingContext, siteId: number, name: string): Promise<boolean> {
  const [row] = await ctx.db.select({ id: siteTemplates.id }).from(siteTemplates)
    .where(and(eq(siteTemplates.siteId, siteId), eq(siteTemplates.kind, 'layout'), eq(siteTemplates.name, name)));
  return Boolean(row);
}


async function checkedPage(ctx: ActingContext, site: Site, input: Input, current: SitePage | null) {
  const errors = new FieldErrors();
  const parentId = input.parent_id === undefined ? current?.parentId ?? null : input.parent_id;
  const locales = checkedLocales(errors, site, input.locales, current?.locales ?? null, parentId === null);
  const layout = input.layout?.trim() ?? current?.layout;
  if (!layout) errors.add('layout', "can't be blank");
  else if (input.layout !== undefined && !await layoutExists(ctx, site.id, layout)) errors.add('layout', 'is not a layout of this site');
  const blocks = input.blocks === undefined ? undefined : checkBlocks(errors, input.blocks as PageBlock[], site);
  errors.throwIfAny();
  return { parentId, locales: locales!, layout: layout!, blocks };
}

export async function createPage(ctx: ActingContext, siteUid: string, input: Input): Promise<PageBody> {
  const { site } = await requireSite(ctx, siteUid, 'site.write');
  const checked = await checkedPage(ctx, site, input, null);
  await lockSiteRow(ctx, site.id);
  const pages = await pagesOf(ctx, site.id);
  if (pages.length >= SITE_LIMITS.pages) throw invalidField('base', `a site holds at most ${SITE_LIMITS.pages} pages`);
  const position = input.position ?? Math.max(-1, ...pages.filter((p) => p.parentId === checked.parentId).map((p) => p.position)) + 1;
  checkTree(pages, { id: 0, parentId: checked.parentId, position, locales: checked.locales }, site);
  const now = ctx.clock.now();
  const [page] = await ctx.db.insert(sitePages).values({
    siteId: site.id, parentId: checked.parentId, position, layout: checked.layout, visibility: input.visibility ?? 'public',
    locales: checked.locales, blocks: checked.blocks ?? [], createdAt: now, updatedAt: now,
  }).returning();
  await draftChanged(ctx, site.id);
  return pageBody(page, sitePaths([...pages, page], site).get(page.id) ?? {});
}

/** PUT is partial; `parent_id` and `position` move the page with its subtree. */
export async function updatePage(ctx: ActingContext, siteUid: string, id: number, input: Input, override = false): Promise<PageBody> {
  const { site, page } = await requirePage(ctx, siteUid, id, 'site.write');
  await assertSiteItemUnlocked(ctx, 'layout_page', String(page.id), override);
  const checked = await checkedPage(ctx, site, input, page);
  await lockSiteRow(ctx, site.id);
  const pages = await pagesOf(ctx, site.id);
  const position = input.position ?? page.position;
  checkTree(pages, { id: page.id, parentId: checked.parentId, position, locales: checked.locales }, site);
  const [row] = await ctx.db.update(sitePages).set({
    parentId: checked.parentId, position, layout: checked.layout, visibility: input.visibility, locales: checked.locales, blocks: checked.blocks,
    updatedAt: ctx.clock.now(),
  }).where(eq(sitePages.id, page.id)).returning();
  await draftChanged(ctx, site.id);
  return pageBody(row, sitePaths(pages.map((p) => (p.id === row.id ? row : p)), site).get(row.id) ?? {});
}

export async function deletePage(ctx: ActingContext, siteUid: string, id: number, override = false): Promise<void> {
  const { site, page } = await requirePage(ctx, siteUid, id, 'site.write');
  await assertSiteItemUnlocked(ctx, 'layout_page', String(page.id), override);
  await lockSiteRow(ctx, site.id);
  const [child] = await ctx.db.select({ id: sitePages.id }).from(sitePages).where(eq(sitePages.parentId, page.id)).limit(1);
  if (child) throw pageHasChildren();
  await ctx.db.delete(sitePages).where(eq(sitePages.id, page.id));
  await draftChanged(ctx, site.id);
}
