import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable } from '../../http/models.js';
import { OnlyQuery } from '../../http/only.js';
import { ListQuery } from '../../http/list-query.js';
import { EntryMetaModel } from './view.js';

export const EntryParams = Type.Object({
  space_uid: Type.String({ description: 'The space\'s uid' }),
  type_uid: Type.String({ description: 'The content type\'s uid' }),
});

export const EntryUuidParams = Type.Object({
  ...EntryParams.properties,
  uuid: Type.String({ description: 'The entry\'s uuid' }),
});

const Uuid = Type.String({ format: 'uuid' });

export const AdminEntryModel = Type.Object({
  meta: Type.Unsafe<Static<typeof EntryMetaModel>>({ $ref: 'ContentEntryMeta#' }),
  fields: Type.Unsafe<Record<string, unknown>>({ $ref: 'ContentEntryFields#' }),
  segment_uuids: Type.Array(Uuid, { description: 'The segments whose users may read the entry when it is private (any one suffices)' }),
  publish_at: Nullable(DateTime, 'When the schedule publishes the drafts of every locale; null when not scheduled'),
  unpublish_at: Nullable(DateTime, 'When the schedule unpublishes every locale; null when not scheduled'),
}, {
  $id: 'ContentAdminEntry',
  description: 'One locale of an entry, as a draft or as published: `meta` and `fields` exactly as the content API shows them, '
    + 'plus what only the administration sees (allowed segments, schedule)',
});

export type AdminEntryBody = Static<typeof AdminEntryModel>;

export const AdminEntryListItem = Type.Partial(AdminEntryModel, {
  $id: 'ContentAdminEntryListItem', description: 'An entry version in a list: trimmed to the attributes `only` names (meta, fields, segment_uuids, publish_at, unpublish_at)',
});

const Fields = Type.Object({}, {
  additionalProperties: true,
  description: 'Values by field name, checked against the type\'s fields (unknown names: 422). text, rich_text (Markdown), dropdown: a text; '
    + 'integer: a safe integer; decimal: a number; boolean; date: `YYYY-MM-DD` or a date-time with its offset; checkbox: an array of options; '
    + 'location: {"lat": -90..90, "lon": -180..180}; asset, entry: {"uuid": "..."} (or the bare uuid) of the same space; entries: an array '
    + 'of those. null empties a field. A field that is not localized is written to every locale\'s draft.',
  examples: [{ title: 'Hello', price: 9.5 }],
});

export const EntryInput = Type.Object({
  name: Type.Optional(Type.String({ description: 'Required on creation; at most 255 characters' })),
  slug: Type.Optional(Type.String({
    description: 'Lower-case letters, digits, `-` and `_`, at most 200; made from the name when left out on creation. Unique within the type, locale and state (422 otherwise)',
  })),
  locale: Type.Optional(Type.String({
    description: 'The locale whose draft is written; one of the space\'s. Default: the space\'s default locale (on a change, the entry\'s first locale when it has no draft in the default one). A locale the entry has no draft in yet gets one, started from the default locale\'s draft',
  })),
  fields: Type.Optional(Fields),
  tags: Type.Optional(Type.Array(Type.String(), { maxItems: 50, description: 'At most 50, each at most 100 characters' })),
  category: Type.Optional(Nullable(Type.String(), 'A path such as `news/sports`; null or "" for none')),
  private: Type.Optional(Type.Boolean({ description: 'Shown by the content API only to a delivery token of one of `segment_uuids`; the same in every locale' })),
  segment_uuids: Type.Optional(Type.Array(Type.String(), { maxItems: 100, description: 'Segments (of any realm) whose users may read a private entry; needed when private' })),
}, { additionalProperties: false });

export type EntryInputBody = Static<typeof EntryInput>;

export const VersionQuery = Type.Object({
  locale: Type.Optional(Type.String({ description: 'Default: the space\'s default locale, or the entry\'s first when it has none in it' })),
  version: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('published')], { description: 'draft (default) or published' })),
});

export const EntryListQuery = ListQuery({
  searched: 'the name or slug', sortable: ['name', 'slug', 'created_at', 'updated_at', 'published_at'], by: 'updated_at', order: 'desc',
}, {
  ...OnlyQuery,
  ...VersionQuery.properties,
  locale: Type.Optional(Type.String({ description: 'Only the versions in this locale (default: every locale, one item per locale)' })),
});

export const LocaleInput = Type.Object({
  locale: Type.Optional(Type.String({ description: 'Only this locale (default: every locale the entry has a draft in)' })),
}, { additionalProperties: false });

export const ScheduleInput = Type.Object({
  publish_at: Type.Optional(Nullable(DateTime, 'When to publish the drafts of every locale; null cancels')),
  unpublish_at: Type.Optional(Nullable(DateTime, 'When to unpublish every locale; null cancels')),
}, { additionalProperties: false });
