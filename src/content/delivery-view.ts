import { sql } from 'drizzle-orm';
import type { DeliveryType } from './delivery-query.js';
import { contentEntries as entries, contentEntryVersions as versions } from './tables.js';

/** What the delivery API reads of a published version to show it: the version, its entry's uuid, and its published locales. */
export const deliveredColumns = {
  version: versions,
  uuid: entries.uuid,
  entryCreatedAt: entries.createdAt,
  availableLocales: sql<string[]>`array(select o.locale from ${versions} as o where o.entry_id = ${versions.entryId} and o.state = 'published' order by o.locale)`,
};

export interface DeliveredRow {
  version: typeof versions.$inferSelect;
  uuid: string;
  entryCreatedAt: Date;
  availableLocales: string[];
}

const iso = (at: Date | null) => at?.toISOString() ?? null;

// TODO(View): replaced by the entry view of src/content/entry-view.ts once it is merged.
export function deliveredView(row: DeliveredRow, type: Pick<DeliveryType, 'spaceUid' | 'typeUid'>) {
  const v = row.version;
  return {
    meta: {
      uuid: row.uuid, space: type.spaceUid, name: v.name, slug: v.slug, type: type.typeUid, private: v.private, category: v.category,
      tags: v.tags, locale: v.locale, available_locales: row.availableLocales, created_at: iso(row.entryCreatedAt)!, updated_at: iso(v.updatedAt)!,
      published_at: iso(v.publishedAt), unpublished_at: iso(v.unpublishedAt), version_type: v.state,
    },
    fields: v.fields,
  };
}
