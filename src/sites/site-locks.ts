import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import type { Lockable, Lockables } from '../locks/lockables.js';
import { assertUnlocked } from '../locks/locks.js';
import { siteFiles, siteMenus, sitePages, sites, siteTemplates } from '../tables/sites.js';

/** A site item found by its numeric id, locked in the scope of its site's uid. */
function byId(table: PgTable & { id: PgColumn; siteId: PgColumn }): Lockable {
  return {
    read: 'site.read', write: 'site.write', takeOver: 'site.publish',
    find: async (ctx: Context, id: string) => {
      if (!/^\d{1,9}$/.test(id)) return null;
      const [row] = await ctx.db.select({ scope: sites.uid }).from(table).innerJoin(sites, eq(sites.id, table.siteId)).where(eq(table.id, Number(id)) as SQL);
      return row ? { id: String(Number(id)), scope: row.scope } : null;
    },
  };
}

/**
 * The site items an editor locks: layouts and snippets (`site_template`), files, pages by their id, and
 * menus by `{site_uid}/{menu_uid}`. The publishers of a site take its locks over.
 */
export const SITE_LOCKABLES: Lockables = {
  site_template: byId(siteTemplates),
  site_file: byId(siteFiles),
  layout_page: byId(sitePages),
  menu: {
    read: 'site.read', write: 'site.write', takeOver: 'site.publish',
    find: async (ctx: Context, id: string) => {
      const [siteUid, menuUid, ...rest] = id.split('/');
      if (!siteUid || !menuUid || rest.length) return null;
      const [row] = await ctx.db.select({ id: siteMenus.id }).from(siteMenus).innerJoin(sites, eq(sites.id, siteMenus.siteId))
        .where(and(eq(sites.uid, siteUid), eq(siteMenus.uid, menuUid)));
      return row ? { id: `${siteUid}/${menuUid}`, scope: siteUid } : null;
    },
  },
};

export type SiteLockKind = 'site_template' | 'site_file' | 'layout_page' | 'menu';

/** In a write's transaction: someone else's live edit lock on the item refuses it (409 ATR_LOCKED) unless overridden; the writer's own is renewed. */
export const assertSiteItemUnlocked = (ctx: ActingContext, type: SiteLockKind, id: string, override: boolean) =>
  assertUnlocked(ctx, SITE_LOCKABLES, { type, id }, override);
