import { sql, type SQL } from 'drizzle-orm';
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable } from '../../http/models.js';
import { contentEntryVersions, type ContentFieldDefinition } from '../../tables/content.js';

/**
 * How an entry is shown, by the admin API (its drafts) and by the public content API (what is published):
 * `{meta, fields}`, the shape of the facts page's content delivery API.
 *
 * What the rows mean, for every reader of them:
 * - a version row is one locale of an entry in one state, `draft` or `published`;
 * - every `published` row is live: unpublishing deletes the published rows, so the public API serves
 *   `state = 'published'` rows and needs no other condition (privacy aside);
 * - a published row's `unpublished_at` is the moment a scheduled unpublish will take it down (null when none
 *   is scheduled); a draft row's `published_at`/`unpublished_at` say when its locale was last published and
 *   last taken down;
 * - `fields` holds the stored values as shown here: references to assets and entries are `{"uuid": "..."}`
 *   (an `entries` field an array of them), a location `{"lat", "lon"}`, a date its ISO text.
 */

export type VersionType = 'draft' | 'published';

export const EntryMetaModel = Type.Object({
  uuid: Type.String({ format: 'uuid', description: 'The entry\'s uuid, the same in every locale and state' }),
  space: Type.String({ description: 'The space\'s uid' }),
  name: Type.String(),
  slug: Type.String({ description: 'Unique within the type, the locale and the state' }),
  type: Type.String({ description: 'The content type\'s uid' }),
  private: Type.Boolean({ description: 'Shown only to a delivery token whose segments meet the entry\'s' }),
  category: Nullable(Type.String(), 'A category path such as `news/sports`'),
  tags: Type.Array(Type.String()),
  locale: Type.String({ description: 'The locale of this version' }),
  available_locales: Type.Array(Type.String(), { description: 'The locales the entry has a version of in the same state (this one included)' }),
  created_at: DateTime,
  updated_at: DateTime,
  published_at: Nullable(DateTime, 'When this locale was last published'),
  unpublished_at: Nullable(DateTime, 'Published version: when a scheduled unpublish takes it down (null when none is); draft: when it was last taken down'),
  version_type: Type.Union([Type.Literal('draft'), Type.Literal('published')]),
}, { $id: 'ContentEntryMeta', description: 'What describes an entry version, besides its fields' });

export const EntryFieldsModel = Type.Object({}, {
  additionalProperties: true,
  $id: 'ContentEntryFields',
  description: 'Every field of the content type by name, null when empty. text, rich_text (Markdown), date (ISO 8601) and dropdown: a string; '
    + 'integer and decimal: a number; boolean; checkbox: an array of strings; location: {"lat", "lon"}; asset and entry: {"uuid"}; '
    + 'entries: an array of {"uuid"}.',
});

/** The models an entry's schema refers to, to register (`useModels`) in each catalog that shows entries. */
export const ENTRY_MODELS = [EntryMetaModel, EntryFieldsModel];

export type EntryMeta = Static<typeof EntryMetaModel>;
export type EntryBody = { meta: EntryMeta; fields: Record<string, unknown> };
export type EntryVersion = typeof contentEntryVersions.$inferSelect;

/** A reference to an asset or an entry, as stored and shown without `include`. */
export interface Reference {
  uuid: string;
}

export interface Location {
  lat: number;
  lon: number;
}

/** What an entry version is shown from: its row and what surrounds it. */
export interface EntryViewSource {
  /** The entry's uuid (content_entries.uuid). */
  uuid: string;
  spaceUid: string;
  typeUid: string;
  version: Pick<EntryVersion, 'locale' | 'state' | 'name' | 'slug' | 'fields' | 'tags' | 'category' | 'private'
    | 'publishedAt' | 'unpublishedAt' | 'createdAt' | 'updatedAt'>;
  /** The locales of the entry with a version in the same state (see `availableLocales`). */
  availableLocales: string[];
  /** The type's fields: the view shows these, in this order, null when a version has no value. */
  definitions: readonly ContentFieldDefinition[];
}

/** The fields of the type as the version holds them; values of fields the type no longer has are left out. */
export function fieldsView(stored: Record<string, unknown>, definitions: readonly ContentFieldDefinition[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const { name } of definitions) fields[name] = Object.hasOwn(stored, name) ? stored[name] ?? null : null;
  return fields;
}

export function entryView(source: EntryViewSource): EntryBody {
  const { version } = source;
  return {
    meta: {
      uuid: source.uuid,
      space: source.spaceUid,
      name: version.name,
      slug: version.slug,
      type: source.typeUid,
      private: version.private,
      category: version.category,
      tags: version.tags,
      locale: version.locale,
      available_locales: source.availableLocales,
      created_at: version.createdAt.toISOString(),
      updated_at: version.updatedAt.toISOString(),
      published_at: version.publishedAt?.toISOString() ?? null,
      unpublished_at: version.unpublishedAt?.toISOString() ?? null,
      version_type: version.state,
    },
    fields: fieldsView(version.fields, source.definitions),
  };
}

/**
 * `available_locales` of the version rows a query reads, in the same statement: the locales of the same
 * entry in the same state, sorted. Select it beside `contentEntryVersions` columns, in a query that reads
 * the table under its own name (not aliased): the outer row is named in full, since drizzle leaves the
 * columns of a one-table query unqualified.
 */
export const availableLocales: SQL<string[]> = sql<string[]>`array(select l.locale from ${contentEntryVersions} l
  where l.entry_id = ${sql.raw('"content_entry_versions"."entry_id"')} and l.state = ${sql.raw('"content_entry_versions"."state"')} order by l.locale)`;
