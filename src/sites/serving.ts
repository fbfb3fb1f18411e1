import { strongEtag } from '../http/etag.js';
import { eq, type SQL } from 'drizzle-orm';
import type { Context } from '../context.js';
import { fieldsOf } from '../realms/custom-fields.js';
import type { Customer } from '../realms/credential.js';
import { userName } from '../realms/users.js';
import { renderSync } from '../shared/liquid.js';
import { realms } from '../tables/realms.js';
import { sites, siteVersions } from '../tables/sites.js';
import { blockHtml, type BlockScope } from './blocks-html.js';
import { RENDER_LIMITS, type RenderInternals } from './liquid.js';
import { CompiledSite } from './published.js';
import type { Snapshot, SnapshotPage } from './snapshot.js';

/** What serving needs of a site, read once per two seconds per process and dropped on every instance when the site changes. */
export interface ServedSite {
  id: number;
  uid: string;
  name: string;
  defaultLocale: string;
  locales: string[];
  realmUid: string | null;
  customDomain: string | null;
  versionId: number | null;
}

/**
 * A served site found by a condition, kept two seconds under `key` and dropped on every instance when the
 * site changes; a miss is kept under `missTag` (a host that is no site's: dropped by any site's change).
 */
async function keptSite(ctx: Context, key: string, where: SQL, missTag: string[]): Promise<ServedSite | null> {
  const cache = ctx.caches.of<ServedSite | null>('sites');
  const now = ctx.clock.now();
  const cached = cache.get(key, now);
  if (cached !== undefined) return cached;
  const [row] = await ctx.db.select({
    id: sites.id, uid: sites.uid, name: sites.name, defaultLocale: sites.defaultLocale, locales: sites.locales, realmUid: realms.uid,
    customDomain: sites.customDomain, versionId: sites.publishedVersionId, active: sites.active,
  }).from(sites).leftJoin(realms, eq(realms.id, sites.realmId)).where(where);
  const served = row?.active ? { ...row } : null;
  cache.set(key, served, now, served ? [`site:${served.id}`] : missTag);
  return served;
}

export const servedSite = (ctx: Context, uid: string) => keptSite(ctx, `uid:${uid}`, eq(sites.uid, uid), []);

/*
 * The kept* functions answer from what this process keeps, synchronously, and undefined when it keeps nothing: a
 * cached page is then served without one await (each is a promise and a turn of the microtask queue).
 */

/** The served site kept for `uid` (null: kept as no active site), undefined when not kept. */
export const keptServedSite = (ctx: Context, uid: string) => ctx.caches.of<ServedSite | null>('sites').get(`uid:${uid}`, ctx.clock.now());

/** The active site whose custom domain a host is, if any. */
export const siteOfDomain = (ctx: Context, host: string) => keptSite(ctx, `host:${host}`, eq(sites.customDomain, host), ['domains']);

/**
 * Compiled versions by id and locales: a version never changes, so one is compiled once per process. Kept
 * per database (its context's caches), since version ids are only unique within one.
 */
const compiledByDatabase = new WeakMap<object, Map<string, CompiledSite>>();
const COMPILED_KEPT = 32;

const versionKey = (site: ServedSite) => `${site.versionId}:${site.defaultLocale}:${site.locales.join(',')}`;

/** The site's published version if compiled already (null before its first publish), undefined if not. */
export function keptVersion(ctx: Context, site: ServedSite): CompiledSite | null | undefined {
  if (site.versionId === null) return null;
  return compiledByDatabase.get(ctx.caches)?.get(versionKey(site));
}

/** The site's published version, ready to serve; null before its first publish. */
export async function compiledVersion(ctx: Context, site: ServedSite): Promise<CompiledSite | null> {
  if (site.versionId === null) return null;
  const found = keptVersion(ctx, site);
  if (found) return found;
  const key = versionKey(site);
  let compiled = compiledByDatabase.get(ctx.caches);
  if (!compiled) compiledByDatabase.set(ctx.caches, compiled = new Map());
  const [row] = await ctx.db.select({ snapshot: siteVersions.snapshot }).from(siteVersions).where(eq(siteVersions.id, site.versionId));
  if (!row) return null;
  const result = new CompiledSite(site.versionId, row.snapshot as Snapshot, site);
  if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, result);
  return result;
}

/** A rendered page: its bytes and their strong ETag. */
export interface RenderedPage {
  body: string;
  etag: string;
}

async function userScope(ctx: Context, customer: Customer | null): Promise<Record<string, unknown> | null> {
  if (!customer) return null;
  const { user } = customer;
  const visible = (await fieldsOf(ctx, customer.realm.id)).filter((f) => f.visible);
  const values = user.customFields as Record<string, unknown>;
  return {
    id: user.id, name: userName(user), first_name: user.firstName, last_name: user.lastName, email: user.email, username: user.username,
    custom_fields: Object.fromEntries(visible.map((f) => [f.key, Object.hasOwn(values, f.key) ? values[f.key] : null])),
  };
}

/**
 * Renders a page of a version in a locale: each block into its zone, then the page's layout around them.
 * Throws the template's error when the layout is missing or cannot be rendered within the limits.
 */
export async function renderPage(ctx: Context, site: ServedSite, version: CompiledSite, page: SnapshotPage, locale: string, root: string, customer: Customer | null): Promise<RenderedPage> {
  const layout = version.layout(page.layout);
  if (!layout) throw new Error(`the layout ${page.layout} is missing or does not parse`);
  const words = version.words(page, locale);
  const paths = version.paths.get(page.id) ?? {};
  const menus = version.menus(locale, root);
  const scope: Record<string, unknown> = {
    site: { uid: site.uid, name: site.name, locales: site.locales, default_locale: site.defaultLocale, url: `${root}/` },
    page: {
      id: page.id, title: words.title, description: words.description, slug: words.slug, path: paths[locale], url: `${root}${paths[locale]}`,
      visibility: page.visibility, alternates: Object.entries(paths).map(([l, path]) => ({ locale: l, url: `${root}${path}` })),
    },
    locale,
    menus,
    user: await userScope(ctx, customer),
  };
  const blocks: BlockScope = { ctx, engine: version.engine, locale, defaultLocale: site.defaultLocale, menus, scope };
  const zones: Record<string, string> = {};
  for (const block of page.blocks) zones[block.zone] = (zones[block.zone] ?? '') + await blockHtml(blocks, block);
  const internals: RenderInternals = { _zones: zones, _assets: version.assetUrls(root) };
  const body = renderSync(version.engine, layout, { ...scope, ...internals }, RENDER_LIMITS);
  return { body, etag: strongEtag(body) };
}

/** A public page that does not read `user`, kept per version, locale and path until the site changes (every instance) or two seconds pass. */
export async function cachedPage(ctx: Context, site: ServedSite, version: CompiledSite, page: SnapshotPage, locale: string, root: string): Promise<RenderedPage> {
  const kept = keptPage(ctx, version, page, locale, root);
  if (kept) return kept;
  const now = ctx.clock.now();
  const rendered = await renderPage(ctx, site, version, page, locale, root, null);
  ctx.caches.of<RenderedPage>('sites').set(pageKey(version, page, locale, root), rendered, now, [`site:${site.id}`]);
  return rendered;
}

const pageKey = (version: CompiledSite, page: SnapshotPage, locale: string, root: string) => `page:${version.versionId}:${locale}:${page.id}:${root}`;

/** The rendered public page kept for these, undefined when not kept. */
export const keptPage = (ctx: Context, version: CompiledSite, page: SnapshotPage, locale: string, root: string) =>
  ctx.caches.of<RenderedPage>('sites').get(pageKey(version, page, locale, root), ctx.clock.now());
