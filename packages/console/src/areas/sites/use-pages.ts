import { useQuery } from '@tanstack/react-query';
import { admin } from '../../api/client';
import type { LayoutPage } from './page-tree';

export const PAGES_KEY = 'site-pages';

/** Every page of a site in tree order, read 100 at a time. */
export function usePages(siteUid: string) {
  return useQuery({
    queryKey: [PAGES_KEY, siteUid],
    queryFn: async (): Promise<LayoutPage[]> => {
      const pages: LayoutPage[] = [];
      for (let page = 1; ; page++) {
        const { data } = await admin.GET('/sites/{site_uid}/layout_pages', { params: { path: { site_uid: siteUid }, query: { page: String(page), per_page: '100' } } });
        pages.push(...data!.layout_pages);
        if (page >= data!.meta.total_pages) return pages;
      }
    },
  });
}

/** The page's title in a locale, falling back to any it has. */
export const titleOf = (page: LayoutPage, locale: string) =>
  page.locales[locale]?.title || Object.values(page.locales)[0]?.title || `#${page.id}`;
