import { sql } from 'drizzle-orm';
import type { ActingContext } from '../admin-auth/principal.js';
import { rowsOf } from '../db/rows.js';
import type { Locale } from '../i18n/locale.js';
import type { Realm } from '../realms/realms.js';
import { EVENT_TYPES, isBuiltInEventType } from '../shared/event-catalog.js';

/** How many custom types one answer lists at most: the builder's vocabulary, not a log. */
export const CUSTOM_TYPES_MAX = 500;

export interface EventTypeBody {
  type: string;
  title: string;
  built_in: boolean;
}

/**
 * The built-in types (titled in `locale`), then the custom types the realm's users have events of, by name. The distinct
 * types are read by skipping through the per-type counts index (one probe a type, not a scan of the log).
 */
export async function eventTypesOf(ctx: ActingContext, realm: Realm, locale: Locale = 'en'): Promise<EventTypeBody[]> {
  ctx.actor.assertHolds('segments.read', realm.uid);
  const rows = rowsOf<{ type: string }>(await ctx.db.execute(sql`
    with recursive found(type) as (
      (select type from business_event_type_counts where realm_id = ${realm.id} order by type limit 1)
      union all
      select (select c.type from business_event_type_counts c where c.realm_id = ${realm.id} and c.type > found.type order by c.type limit 1)
      from found where found.type is not null
    )
    select type from found where type is not null limit ${CUSTOM_TYPES_MAX + Object.keys(EVENT_TYPES).length}`));
  const custom = rows.map((row) => row.type).filter((type) => !isBuiltInEventType(type)).slice(0, CUSTOM_TYPES_MAX);
  return [
    ...Object.entries(EVENT_TYPES).map(([type, titles]) => ({ type, title: titles[locale], built_in: true })),
    ...custom.map((type) => ({ type, title: '', built_in: false })),
  ];
}
