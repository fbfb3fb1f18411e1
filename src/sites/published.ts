import type { Liquid, Template } from 'liquidjs';
import { hashedName } from './files.js';
import { siteEngine } from './liquid.js';
import { menuItemsView, type MenuView } from './menus-view.js';
import { sitePaths, wordsIn, type SiteLocales } from './paths.js';
import type { Snapshot, SnapshotPage } from './snapshot.js';

/** Where a path leads in a version: a page, a redirect to where a page went, or nothing. */
export type Found =
  | { kind: 'page'; page: SnapshotPage; locale: string }
  | { kind: 'redirect'; pageId: number; locale: string }
  | { kind: 'none'; locale: string };

/** Reading `user` makes a page personal: such a page is rendered for each request and never cached. */
const READS_USER = /\buser\b/;

/**
 * A published version made ready to serve, kept while its version is current: the engine with the
 * snippets, the layouts parsed once, each page's paths, and which pages read `user`.
 */
export class CompiledSite {
  readonly engine: Liquid;
  private readonly layouts = new Map<string, Template[] | null>();
  readonly paths: Map<number, Record<string, string>>;
  private readonly byPath = new Map<string, SnapshotPage>();
  private readonly personal = new Set<number>();
  private readonly filesByServedName = new Map<string, { body: string; type: string }>();

  constructor(readonly versionId: number, readonly snapshot: Snapshot, readonly site: SiteLocales) {
    this.engine = siteEngine(snapshot.snippets);
    for (const [name, source] of Object.entries(snapshot.layouts)) {
      try {
        this.layouts.set(name, this.engine.parse(source));
      } catch {
        this.layouts.set(name, null);
      }
    }
    this.paths = sitePaths(snapshot.pages, site);
    const byId = new Map(snapshot.pages.map((p) => [p.id, p]));
    for (const [id, byLocale] of this.paths) {
      for (const [locale, path] of Object.entries(byLocale)) this.byPath.set(`${locale}\u0000${path}`, byId.get(id)!);
    }
    const sharedReadsUser = Object.values(snapshot.snippets).some((s) => READS_USER.test(s));
    for (const page of snapshot.pages) {
      const layout = Object.hasOwn(snapshot.layouts, page.layout) ? snapshot.layouts[page.layout] : '';
      // A form block carries a single-use form token: a cached copy would hand every visitor the same one.
      const blocks = page.blocks.some((b) => (b.type === 'liquid' && READS_USER.test(String(b.source))) || b.type === 'form');
      if (sharedReadsUser || READS_USER.test(layout) || blocks) this.personal.add(page.id);
    }
    for (const [name, file] of Object.entries(snapshot.files)) {
      this.filesByServedName.set(hashedName(name, file.hash), { body: file.body, type: name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8' });
    }
  }

  /** The locale a path is in (its first segment when that is a locale other than the default) and the path as the page tree names it. */
  find(path: string): Found {
    const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
    const first = normalized.split('/')[1] ?? '';
    const locale = first !== this.site.defaultLocale && this.site.locales.includes(first) ? first : this.site.defaultLocale;
    const key = locale !== this.site.defaultLocale && normalized === `/${locale}` ? `/${locale}/` : normalized;
    const page = this.byPath.get(`${locale}\u0000${key}`);
    if (page) return { kind: 'page', page, locale };
    const redirects = Object.hasOwn(this.snapshot.redirects, locale) ? this.snapshot.redirects[locale] : {};
    if (Object.hasOwn(redirects, key) && this.paths.has(redirects[key])) return { kind: 'redirect', pageId: redirects[key], locale };
    return { kind: 'none', locale };
  }

  layout(name: string): Template[] | null {
    return this.layouts.get(name) ?? null;
  }

  readsUser(pageId: number): boolean {
    return this.personal.has(pageId);
  }

  file(servedName: string): { body: string; type: string } | undefined {
    return this.filesByServedName.get(servedName);
  }

  assetUrls(root: string): Record<string, string> {
    return Object.fromEntries(Object.entries(this.snapshot.files).map(([name, f]) => [name, `${root}/_assets/${hashedName(name, f.hash)}`]));
  }

  menus(locale: string, root: string): Record<string, MenuView> {
    const m = { locale, defaultLocale: this.site.defaultLocale, root, pathOf: (id: number) => this.paths.get(id)?.[locale] };
    return Object.fromEntries(Object.entries(this.snapshot.menus).map(([uid, menu]) => [uid, { uid, name: menu.name, items: menuItemsView(menu.items, m) }]));
  }

  /** The public pages in every locale, for the sitemap. */
  publicPaths(): { locale: string; path: string }[] {
    return this.snapshot.pages.filter((p) => p.visibility === 'public')
      .flatMap((p) => Object.entries(this.paths.get(p.id) ?? {}).map(([locale, path]) => ({ locale, path })));
  }

  words(page: SnapshotPage, locale: string) {
    return wordsIn(page, locale, this.site);
  }
}
