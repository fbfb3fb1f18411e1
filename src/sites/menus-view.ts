import type { MenuItem } from '../tables/sites.js';

/** A menu as Liquid and headless front ends read it, in one locale: labels resolved, page targets as addresses. */
export interface MenuView {
  uid: string;
  name: string;
  items: MenuItemView[];
}

export interface MenuItemView {
  label: string;
  /** Where the item leads; null for a content entry (the front end decides where an entry is shown). */
  url: string | null;
  page_id: number | null;
  entry: { space_uid: string; type_uid: string; uuid: string } | null;
  children: MenuItemView[];
}

export interface MenuContext {
  locale: string;
  defaultLocale: string;
  /** page id → its path in `locale`, for the pages the version serves. */
  pathOf(pageId: number): string | undefined;
  /** Prepended to page paths: `/sites/{uid}` under the base address, nothing on the site's own domain. */
  root: string;
}

/** The items of a menu in a locale; an item whose page is gone renders nothing (with its children). */
export function menuItemsView(items: MenuItem[], m: MenuContext): MenuItemView[] {
  return items.flatMap((item): MenuItemView[] => {
    const label = item.labels[m.locale] ?? item.labels[m.defaultLocale] ?? '';
    const children = menuItemsView(item.children, m);
    const target = item.target;
    if ('page_id' in target) {
      const path = m.pathOf(target.page_id);
      return path === undefined ? [] : [{ label, url: `${m.root}${path}`, page_id: target.page_id, entry: null, children }];
    }
    if ('url' in target) return [{ label, url: target.url, page_id: null, entry: null, children }];
    return [{ label, url: null, page_id: null, entry: { space_uid: target.space_uid, type_uid: target.type_uid, uuid: target.entry_uuid }, children }];
  });
}
