import { eq } from 'drizzle-orm';
import type { Context } from '../context.js';
import { siteFiles, siteMenus, sitePages, siteTemplates, type MenuItem, type PageBlock, type PageLocale } from '../tables/sites.js';
import { fileHash } from './files.js';
import { sitePaths, type SiteLocales } from './paths.js';

export interface SnapshotPage {
  id: number;
  parentId: number | null;
  position: number;
  layout: string;
  visibility: 'public' | 'realm_users';
  locales: Record<string, PageLocale>;
  blocks: PageBlock[];
}

/** Everything a version serves: what the drafts were when it was published, and the old paths that still lead to a page. */
export interface Snapshot {
  layouts: Record<string, string>;
  snippets: Record<string, string>;
  files: Record<string, { body: string; hash: string }>;
  pages: SnapshotPage[];
  menus: Record<string, { name: string; items: MenuItem[] }>;
  /** locale → old path → page id: a published path a page left answers 301 to where the page is now. */
  redirects: Record<string, Record<string, number>>;
}

export const EMPTY_SNAPSHOT: Snapshot = { layouts: {}, snippets: {}, files: {}, pages: [], menus: {}, redirects: {} };

/** The site's drafts as a snapshot, with the redirects carried over from the version before. */
export async function draftSnapshot(ctx: Context, siteId: number, site: SiteLocales, previous: Snapshot): Promise<Snapshot> {
  const [templates, files, pages, menus] = [
    await ctx.db.select().from(siteTemplates).where(eq(siteTemplates.siteId, siteId)),
    await ctx.db.select().from(siteFiles).where(eq(siteFiles.siteId, siteId)),
    await ctx.db.select().from(sitePages).where(eq(sitePages.siteId, siteId)),
    await ctx.db.select().from(siteMenus).where(eq(siteMenus.siteId, siteId)),
  ];
  const byKind = (kind: string) => Object.fromEntries(templates.filter((t) => t.kind === kind).map((t) => [t.name, t.source]));
  const snapshot: Snapshot = {
    layouts: byKind('layout'),
    snippets: byKind('snippet'),
    files: Object.fromEntries(files.map((f) => [f.name, { body: f.body, hash: fileHash(f.body) }])),
    pages: pages.sort((a, b) => a.id - b.id).map((p) => ({
      id: p.id, parentId: p.parentId, position: p.position, layout: p.layout, visibility: p.visibility, locales: p.locales, blocks: p.blocks,
    })),
    menus: Object.fromEntries(menus.map((m) => [m.uid, { name: m.name, items: m.items }])),
    redirects: {},
  };
  snapshot.redirects = carriedRedirects(previous, snapshot, site);
  return snapshot;
}

/**
 * The redirects of a new version: the old ones whose page still exists, and every path a published page
 * leaves; a path a page now has is served, not redirected.
 */
function carriedRedirects(previous: Snapshot, next: Snapshot, site: SiteLocales): Snapshot['redirects'] {
  const before = sitePaths(previous.pages, site);
  const after = sitePaths(next.pages, site);
  const live = new Set([...after.values()].flatMap((byLocale) => Object.entries(byLocale).map(([locale, path]) => `${locale}\u0000${path}`)));
  const redirects: Snapshot['redirects'] = {};
  const add = (locale: string, path: string, pageId: number) => {
    if (!after.has(pageId) || live.has(`${locale}\u0000${path}`) || !site.locales.includes(locale)) return;
    (redirects[locale] ??= {})[path] = pageId;
  };
  for (const [locale, paths] of Object.entries(previous.redirects)) for (const [path, id] of Object.entries(paths)) add(locale, path, id);
  for (const [id, byLocale] of before) for (const [locale, path] of Object.entries(byLocale)) if (after.get(id)?.[locale] !== path) add(locale, path, id);
  return redirects;
}

export interface Change {
  kind: 'layout' | 'snippet' | 'file' | 'page' | 'menu';
  key: string;
  change: 'added' | 'changed' | 'removed';
  before: unknown;
  after: unknown;
}

/** JSON with keys in order: a snapshot read back from jsonb has its keys reordered. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function diffMaps(kind: Change['kind'], before: Record<string, unknown>, after: Record<string, unknown>): Change[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.flatMap((key): Change[] => {
    const [a, b] = [Object.hasOwn(before, key) ? before[key] : undefined, Object.hasOwn(after, key) ? after[key] : undefined];
    if (a === undefined) return [{ kind, key, change: 'added', before: null, after: b }];
    if (b === undefined) return [{ kind, key, change: 'removed', before: a, after: null }];
    return canonical(a) === canonical(b) ? [] : [{ kind, key, change: 'changed', before: a, after: b }];
  });
}

/** What differs between two snapshots, item by item (redirects follow from the pages and are not listed). */
export function changesBetween(before: Snapshot, after: Snapshot): Change[] {
  const pages = (s: Snapshot) => Object.fromEntries(s.pages.map((p) => [String(p.id), p]));
  return [
    ...diffMaps('layout', before.layouts, after.layouts),
    ...diffMaps('snippet', before.snippets, after.snippets),
    ...diffMaps('file', before.files, after.files),
    ...diffMaps('page', pages(before), pages(after)),
    ...diffMaps('menu', before.menus, after.menus),
  ];
}
