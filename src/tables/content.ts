import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { moment, timestamps } from '../db/columns.js';

/** A content space: a set of content types and their entries, in the locales it offers. */
export const contentSpaces = pgTable('content_spaces', {
  id: serial('id').primaryKey(),
  uid: text('uid').notNull(),
  name: text('name').notNull(),
  defaultLocale: text('default_locale').notNull(),
  /** Every locale entries may be written in, the default one included. */
  locales: text('locales').array().notNull(),
  ...timestamps,
}, (t) => [uniqueIndex('content_spaces_uid_key').on(t.uid)]);

/** How one field of a content type is defined. */
export interface ContentFieldDefinition {
  name: string;
  /** The display name by locale of the space; absent in types stored before labels existed. */
  labels?: Record<string, string>;
  type: 'text' | 'rich_text' | 'integer' | 'decimal' | 'boolean' | 'date' | 'dropdown' | 'checkbox' | 'location' | 'asset' | 'entry' | 'entries';
  required: boolean;
  localized: boolean;
  sortable: boolean;
  /** Lists filtered on it are read from an index of its own (content/types/field-indexes.ts); absent in types stored before it existed. */
  filterable?: boolean;
  /** The choices of a dropdown or checkbox; empty for the other types. */
  options: string[];
}

export const contentTypes = pgTable('content_types', {
  id: serial('id').primaryKey(),
  spaceId: integer('space_id').notNull().references(() => contentSpaces.id, { onDelete: 'cascade' }),
  uid: text('uid').notNull(),
  name: text('name').notNull(),
  fields: jsonb('fields').$type<ContentFieldDefinition[]>().notNull(),
  ...timestamps,
}, (t) => [uniqueIndex('content_types_space_uid_key').on(t.spaceId, t.uid)]);

/**
 * An entry of a content type: what does not change per locale or version. Its content lives in
 * `content_entry_versions`, one row per locale and state. A scheduled publish or unpublish is run by a
 * background job once its moment has passed.
 */
export const contentEntries = pgTable('content_entries', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  spaceId: integer('space_id').notNull().references(() => contentSpaces.id, { onDelete: 'cascade' }),
  typeId: integer('type_id').notNull().references(() => contentTypes.id, { onDelete: 'cascade' }),
  publishAt: moment('publish_at'),
  unpublishAt: moment('unpublish_at'),
  ...timestamps,
}, (t) => [
  uniqueIndex('content_entries_uuid_key').on(t.uuid),
  index('content_entries_type_idx').on(t.typeId),
  index('content_entries_publish_due_idx').on(t.publishAt).where(sql`${t.publishAt} is not null`),
  index('content_entries_unpublish_due_idx').on(t.unpublishAt).where(sql`${t.unpublishAt} is not null`),
]);

/**
 * One locale of an entry in one state: `draft` (what writers save) or `published` (what the content API
 * serves, a copy of the draft taken when an editor publishes). Everything the public API shows of an
 * entry is here, so a list reads one row per entry. `fields` holds every field of the type for this
 * locale; a field that is not localized holds the same value in every locale of the same state.
 * `type_id` is copied from the entry so that slugs are unique per type, locale and state, and a
 * list is one index range.
 */
export const contentEntryVersions = pgTable('content_entry_versions', {
  id: serial('id').primaryKey(),
  entryId: integer('entry_id').notNull().references(() => contentEntries.id, { onDelete: 'cascade' }),
  typeId: integer('type_id').notNull().references(() => contentTypes.id, { onDelete: 'cascade' }),
  locale: text('locale').notNull(),
  state: text('state').$type<'draft' | 'published'>().notNull(),
  name: text('name').notNull(),
  slug: text('slug').notNull(),
  fields: jsonb('fields').$type<Record<string, unknown>>().notNull(),
  tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
  /** A path such as `news/sports`, or null. */
  category: text('category'),
  private: boolean('private').notNull().default(false),
  /** The segments whose users may read a private entry (any one of them suffices). */
  segmentUuids: uuid('segment_uuids').array().notNull().default(sql`'{}'::uuid[]`),
  publishedAt: moment('published_at'),
  unpublishedAt: moment('unpublished_at'),
  ...timestamps,
}, (t) => [
  uniqueIndex('content_entry_versions_entry_key').on(t.entryId, t.locale, t.state),
  uniqueIndex('content_entry_versions_slug_key').on(t.typeId, t.locale, t.state, t.slug),
  index('content_entry_versions_listed_idx').on(t.typeId, t.locale, t.publishedAt.desc()).where(sql`${t.state} = 'published'`),
  index('content_entry_versions_tags_idx').using('gin', t.tags).where(sql`${t.state} = 'published'`),
]);

/** An uploaded image or file of a space, served publicly at its URL; its bytes are in the storage. */
export const contentAssets = pgTable('content_assets', {
  id: serial('id').primaryKey(),
  uuid: uuid('uuid').notNull().defaultRandom(),
  spaceId: integer('space_id').notNull().references(() => contentSpaces.id, { onDelete: 'cascade' }),
  fileName: text('file_name').notNull(),
  contentType: text('content_type').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  storageKey: text('storage_key').notNull(),
  title: text('title'),
  ...timestamps,
}, (t) => [uniqueIndex('content_assets_uuid_key').on(t.uuid), index('content_assets_space_idx').on(t.spaceId)]);
