import { and, asc, eq } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import { checkedName, checkedUid } from '../content/checks.js';
import { uniqueViolation } from '../db/unique.js';
import { linkProblem } from '../http/links.js';
import { FieldErrors, invalidField, notFound } from '../errors/index.js';
import { siteMenus, sitePages, type MenuItem } from '../tables/sites.js';
import { SITE_LIMITS, type MenuInput, type MenuModel } from './schema.js';
import { draftChanged, requireSite, type Site } from './sites.js';
import { assertSiteItemUnlocked } from './site-locks.js';

type Menu = typeof siteMenus.$inferSelect;
export type MenuBody = Static<typeof MenuModel>;
type ItemInput = Record<string, unknown> & { labels: Record<string, string>; children?: ItemInput[] };

/** Items as answered: a page target that no longer exists is flagged `broken` (it renders nothing). */
function shownItems(items: MenuItem[], pageIds: Set<number>): unknown[] {
  return items.map((item) => ({
    labels: item.labels,
    ...item.target,
    ...('page_id' in item.target && !pageIds.has(item.target.page_id) ? { broken: true } : {}),
    children: shownItems(item.children, pageIds),
  }));
}

const menuBody = (menu: Menu, pageIds: Set<number>): MenuBody => ({
  uid: menu.uid, name: menu.name, items: shownItems(menu.items, pageIds) as MenuBody['items'],
  created_at: menu.createdAt.toISOString(), updated_at: menu.updatedAt.toISOString(),
});

const pageIdsOf = async (ctx: ActingContext, siteId: number) =>
  new Set((await ctx.db.select({ id: sitePages.id }).from(sitePages).where(eq(sitePages.siteId, siteId))).map((p) => p.id));

export async function listMenus(ctx: ActingContext, siteUid: string): Promise<MenuBody[]> {
  const { site } = await requireSite(ctx, siteUid, 'site.read');
  const ids = await pageIdsOf(ctx, site.id);
  return (await ctx.db.select().from(siteMenus).where(eq(siteMenus.siteId, site.id)).orderBy(asc(siteMenus.uid))).map((m) => menuBody(m, ids));
}

async function requireMenu(ctx: ActingContext, siteUid: string, menuUid: string, permission: 'site.read' | 'site.write') {
  const { site } = await requireSite(ctx, siteUid, permission);
  const [menu] = await ctx.db.select().from(siteMenus).where(and(eq(siteMenus.siteId, site.id), eq(siteMenus.uid, menuUid)));
  if (!menu) throw notFound('Menu');
  return { site, menu };
}

export async function showMenu(ctx: ActingContext, siteUid: string, menuUid: string): Promise<MenuBody> {
  const { site, menu } = await requireMenu(ctx, siteUid, menuUid, 'site.read');
  return menuBody(menu, await pageIdsOf(ctx, site.id));
}

/**
 * Items as stored: one target each (a page of the site, an http(s) address or a path, or a content
 * entry), a label in the default locale, at most SITE_LIMITS.menuDepth levels and menuItems in all.
 * Nested items cannot form a cycle: an item's children are inside it.
 */
function checkedItems(errors: FieldErrors, raw: ItemInput[], site: Site, pageIds: Set<number>): MenuItem[] {
  let count = 0;
  const walk = (items: ItemInput[], at: string, depth: number): MenuItem[] => items.map((item, i) => {
    const here = `${at}.${i}`;
    count += 1;
    if (depth > SITE_LIMITS.menuDepth) errors.add(here, `nests deeper than ${SITE_LIMITS.menuDepth} levels`);
    const labels: Record<string, string> = {};
    for (const [locale, label] of Object.entries(item.labels ?? {})) {
      if (!site.locales.includes(locale)) errors.add(`${here}.labels`, `names ${locale.slice(0, 20)}, not a locale of the site`);
      else if (label.trim().length > SITE_LIMITS.label) errors.add(`${here}.labels.${locale}`, `is too long (maximum is ${SITE_LIMITS.label} characters)`);
      else if (label.trim()) labels[locale] = label.trim();
    }
    if (!labels[site.defaultLocale]) errors.add(`${here}.labels.${site.defaultLocale}`, "can't be blank");
    const targets = ['page_id', 'url', 'entry_uuid'].filter((key) => item[key] !== undefined);
    let target: MenuItem['target'] = { url: '/' };
    if (targets.length !== 1) errors.add(here, 'needs exactly one target: page_id, url or a content entry');
    else if (item.page_id !== undefined) {
      if (!pageIds.has(item.page_id as number)) errors.add(`${here}.page_id`, 'is not a page of this site');
      target = { page_id: item.page_id as number };
    } else if (item.url !== undefined) {
      const problem = linkProblem(item.url as string, { max: SITE_LIMITS.url, schemes: ['http', 'https'] });
      if (problem) errors.add(`${here}.url`, problem);
      target = { url: item.url as string };
    } else {
      const [space, type, entry] = [item.space_uid, item.type_uid, item.entry_uuid] as string[];
      if (!space || !type) errors.add(here, 'a content entry target needs space_uid, type_uid and entry_uuid');
      else if (!site.spaceUids.includes(space)) errors.add(`${here}.space_uid`, 'is not one of the site\'s content spaces');
      target = { space_uid: space, type_uid: type, entry_uuid: entry };
    }
    return { labels, target, children: walk(item.children ?? [], `${here}.children`, depth + 1) };
  });
  const items = walk(raw, 'items', 1);
  if (count > SITE_LIMITS.menuItems) errors.add('items', `are too many (maximum is ${SITE_LIMITS.menuItems})`);
  return items;
}

const uidTaken = (err: unknown): never => {
  if (uniqueViolation(err) !== null) throw invalidField('uid', 'has already been taken');
  throw err;
};

export async function createMenu(ctx: ActingContext, siteUid: string, input: Static<typeof MenuInput>): Promise<MenuBody> {
  const { site } = await requireSite(ctx, siteUid, 'site.write');
  const errors = new FieldErrors();
  const uid = checkedUid(errors, input.uid, true);
  const name = checkedName(errors, input.name, true);
  const ids = await pageIdsOf(ctx, site.id);
  const items = checkedItems(errors, (input.items ?? []) as ItemInput[], site, ids);
  errors.throwIfAny();
  if (await ctx.db.$count(siteMenus, eq(siteMenus.siteId, site.id)) >= SITE_LIMITS.menus) throw invalidField('base', `a site holds at most ${SITE_LIMITS.menus} menus`);
  const now = ctx.clock.now();
  const [menu] = await ctx.db.insert(siteMenus).values({ siteId: site.id, uid: uid!, name: name!, items, createdAt: now, updatedAt: now }).returning().catch(uidTaken);
  await draftChanged(ctx, site.id);
  return menuBody(menu, ids);
}

export async function updateMenu(ctx: ActingContext, siteUid: string, menuUid: string, input: Static<typeof MenuInput>, override = false): Promise<MenuBody> {
  const { site, menu } = await requireMenu(ctx, siteUid, menuUid, 'site.write');
  await assertSiteItemUnlocked(ctx, 'menu', `${site.uid}/${menu.uid}`, override);
  const errors = new FieldErrors();
  const uid = checkedUid(errors, input.uid, false);
  const name = checkedName(errors, input.name, false);
  const ids = await pageIdsOf(ctx, site.id);
  const items = input.items === undefined ? undefined : checkedItems(errors, input.items as ItemInput[], site, ids);
  errors.throwIfAny();
  const [row] = await ctx.db.update(siteMenus).set({ uid, name, items, updatedAt: ctx.clock.now() }).where(eq(siteMenus.id, menu.id)).returning().catch(uidTaken);
  await draftChanged(ctx, site.id);
  return menuBody(row, ids);
}

export async function deleteMenu(ctx: ActingContext, siteUid: string, menuUid: string, override = false): Promise<void> {
  const { site, menu } = await requireMenu(ctx, siteUid, menuUid, 'site.write');
  await assertSiteItemUnlocked(ctx, 'menu', `${site.uid}/${menu.uid}`, override);
  await ctx.db.delete(siteMenus).where(eq(siteMenus.id, menu.id));
  await draftChanged(ctx, site.id);
}
