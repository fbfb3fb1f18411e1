import { sql } from 'drizzle-orm';
import { availableLocales, entryView, type EntryBody, type EntryVersion } from '../entries/view.js';
import { contentEntries as entries, contentEntryVersions as versions, type ContentFieldDefinition } from '../../tables/content.js';

/** What the delivery API selects of a published version to show it with the entry view, the entries joined. */
export const deliveredColumns = { version: versions, uuid: entries.uuid, availableLocales };

/**
 * The same without the join: the uuid read by a subquery, which PostgreSQL evaluates after the sort and
 * the limit (as it does the locales), so a page joins ten entries rather than every match. With the
 * join before the sort, a filter matching a thousand entries made the planner prefer reading the
 * type's whole order to using the field's index.
 */
export const deliveredColumnsAlone = {
  version: versions, availableLocales,
  uuid: sql<string>`(select e.uuid from ${entries} e where e.id = ${sql.raw('"content_entry_versions"."entry_id"')})`,
};

export interface DeliveredRow {
  version: EntryVersion;
  uuid: string;
  availableLocales: string[];
}

export function deliveredView(row: DeliveredRow, spaceUid: string, typeUid: string, definitions: readonly ContentFieldDefinition[]): EntryBody {
  return entryView({ uuid: row.uuid, spaceUid, typeUid, version: row.version, availableLocales: row.availableLocales, definitions });
}
