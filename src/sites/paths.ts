import type { PageLocale } from '../tables/sites.js';

/** What the paths of a site's pages depend on. */
export interface TreePage {
  id: number;
  parentId: number | null;
  position: number;
  locales: Record<string, PageLocale>;
}

export interface SiteLocales {
  defaultLocale: string;
  locales: string[];
}

/** Names a slug cannot take at the top of a site: the site's own addresses. */
export const RESERVED_SLUGS = ['sitemap.xml', 'robots.txt', '_assets', '_auth', '_preview', 'logout'];
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;

/** A page's words in a locale: its own, else the default locale's (a new locale leaves every page whole). */
export const wordsIn = (page: Pick<TreePage, 'locales'>, locale: string, site: SiteLocales): PageLocale =>
  (Object.hasOwn(page.locales, locale) ? page.locales[locale] : page.locales[site.defaultLocale]) ?? { title: '', description: '', slug: '' };

/** The ancestors of a page, itself last; null when the chain loops or names a missing page. */
export function chainOf(byId: Map<number, TreePage>, page: TreePage): TreePage[] | null {
  const chain: TreePage[] = [];
  const seen = new Set<number>();
  for (let p: TreePage | undefined = page; p; p = p.parentId === null ? undefined : byId.get(p.parentId)) {
    if (seen.has(p.id)) return null;
    seen.add(p.id);
    chain.unshift(p);
    if (p.parentId !== null && !byId.has(p.parentId)) return null;
  }
  return chain;
}

/** The path of a page in a locale: its ancestors' slugs joined, under `/{locale}` for a locale other than the default. */
export function pathOf(chain: TreePage[], locale: string, site: SiteLocales): string {
  const slugs = chain.map((p) => wordsIn(p, locale, site).slug).filter(Boolean);
  const prefix = locale === site.defaultLocale ? '' : `/${locale}`;
  return slugs.length ? `${prefix}/${slugs.join('/')}` : `${prefix}/`;
}

/** Every page's path in every locale of the site: page id → locale → path. */
export function sitePaths(pages: TreePage[], site: SiteLocales): Map<number, Record<string, string>> {
  const byId = new Map(pages.map((p) => [p.id, p]));
  const paths = new Map<number, Record<string, string>>();
  for (const page of pages) {
    const chain = chainOf(byId, page);
    if (!chain) continue;
    paths.set(page.id, Object.fromEntries(site.locales.map((locale) => [locale, pathOf(chain, locale, site)])));
  }
  return paths;
}

/** The first path two pages share in one locale, if any. */
export function firstClash(paths: Map<number, Record<string, string>>): { path: string; locale: string } | null {
  const seen = new Set<string>();
  for (const byLocale of paths.values()) {
    for (const [locale, path] of Object.entries(byLocale)) {
      const key = `${locale}\u0000${path}`;
      if (seen.has(key)) return { path, locale };
      seen.add(key);
    }
  }
  return null;
}

/** The pages in tree order: each parent before its children, siblings by position. */
export function treeOrder<T extends TreePage>(pages: T[]): T[] {
  const children = new Map<number | null, T[]>();
  for (const page of pages) {
    const list = children.get(page.parentId) ?? [];
    list.push(page);
    children.set(page.parentId, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.position - b.position || a.id - b.id);
  const ordered: T[] = [];
  const walk = (parent: number | null) => {
    for (const page of children.get(parent) ?? []) {
      ordered.push(page);
      walk(page.id);
    }
  };
  walk(null);
  return ordered;
}
