import { availableLocales, entryView, type EntryBody, type EntryVersion } from '../entries/view.js';
import { contentEntries as entries, contentEntryVersions as versions, type ContentFieldDefinition } from '../../tables/content.js';

/** What the delivery API selects of a published version to show it with the entry view. */
export const deliveredColumns = { version: versions, uuid: entries.uuid, availableLocales };

export interface DeliveredRow {
  version: EntryVersion;
  uuid: string;
  availableLocales: string[];
}

export function deliveredView(row: DeliveredRow, spaceUid: string, typeUid: string, definitions: readonly ContentFieldDefinition[]): EntryBody {
  return entryView({ uuid: row.uuid, spaceUid, typeUid, version: row.version, availableLocales: row.availableLocales, definitions });
}
