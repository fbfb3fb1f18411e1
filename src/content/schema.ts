import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../http/models.js';
import { OnlyQuery } from '../http/only.js';
import { ListQuery } from '../http/list-query.js';

export const FIELD_TYPES = ['text', 'rich_text', 'integer', 'decimal', 'boolean', 'date', 'dropdown', 'checkbox', 'location', 'asset', 'entry', 'entries'] as const;
export type FieldType = typeof FIELD_TYPES[number];

/** Field types whose values have an order the content API can sort by. */
export const SORTABLE_FIELD_TYPES: readonly FieldType[] = ['text', 'integer', 'decimal', 'boolean', 'date', 'dropdown'];
export const FILTERABLE_FIELD_TYPES: readonly FieldType[] = ['text', 'integer', 'decimal', 'boolean', 'date', 'dropdown', 'asset', 'entry'];
/** Field types whose values are chosen among `options`. */
export const CHOICE_FIELD_TYPES: readonly FieldType[] = ['dropdown', 'checkbox'];

export const LIMITS = { name: 255, uid: 100, locales: 20, fields: 100, fieldName: 64, label: 100, options: 100, option: 100 } as const;

export const SpaceUidParam = Type.Object({ space_uid: Type.String({ description: 'The space\'s uid' }) });
export const TypeParams = Type.Object({
  space_uid: Type.String({ description: 'The space\'s uid' }),
  type_uid: Type.String({ description: 'The content type\'s uid' }),
});

const uidDescription = `Lower-case letters, digits, "-" and "_", starting with a letter or digit (at most ${LIMITS.uid})`;
const localeDescription = 'A language tag: a language (`en`), optionally with a script and a region (`pt-BR`, `zh-Hant-TW`)';

export const SpaceModel = Type.Object({
  uid: Type.String({ description: uidDescription }),
  name: Type.String(),
  default_locale: Type.String({ description: localeDescription }),
  locales: Type.Array(Type.String(), { description: 'Every locale entries may be written in; the default one is always among them, first' }),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'ContentSpace', description: 'A content space: content types and their entries, in the locales it offers' });

export const SpaceListItem = Type.Partial(SpaceModel, { $id: 'ContentSpaceListItem', description: 'A space in a list: trimmed to the attributes `only` names' });

const spaceInputFields = {
  uid: Type.String({ maxLength: 1000, description: uidDescription }),
  name: Type.String({ maxLength: 1000, description: `At most ${LIMITS.name} characters` }),
  default_locale: Type.String({ maxLength: 100, description: localeDescription }),
  locales: Type.Array(Type.String({ maxLength: 100 }), {
    maxItems: 100, description: `At most ${LIMITS.locales}; the default locale is added when missing. Default: the default locale alone`,
  }),
};

export const SpaceInput = Type.Object({
  ...spaceInputFields,
  locales: Type.Optional(spaceInputFields.locales),
}, { additionalProperties: false });

export const SpaceUpdate = Type.Partial(Type.Object(spaceInputFields), { additionalProperties: false });

export type SpaceInputBody = Static<typeof SpaceUpdate>;

const labelsDescription = 'The field\'s display name by locale (each a locale of the space), for editors: the entry editor shows it instead of `name`';

export const FieldModel = Type.Object({
  name: Type.String({ description: 'An identifier: a lower-case letter, then lower-case letters, digits and "_"; what the content API names the field by' }),
  labels: Type.Record(Type.String(), Type.String(), { description: `${labelsDescription}; empty when it has none` }),
  type: Type.Union(FIELD_TYPES.map((t) => Type.Literal(t))),
  required: Type.Boolean(),
  localized: Type.Boolean({ description: 'Each locale has its own value; otherwise one value is shared by every locale' }),
  sortable: Type.Boolean({ description: 'The content API may sort by it (text, integer, decimal, boolean, date and dropdown fields)' }),
  filterable: Type.Boolean({
    description: 'The content API\'s lists filtered on it are read from an index of the field (text, integer, decimal, boolean, date, dropdown, asset '
      + 'and entry fields); every field can be filtered on, a field without an index by reading each entry of the type',
  }),
  options: Type.Array(Type.String(), { description: 'The choices of a dropdown or checkbox; empty for the other types' }),
}, { $id: 'ContentField', description: 'A field of a content type' });

export const TypeModel = Type.Object({
  uid: Type.String({ description: uidDescription }),
  name: Type.String(),
  fields: Type.Array(Type.Unsafe<Static<typeof FieldModel>>({ $ref: 'ContentField#' })),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'ContentType', description: 'A content type: the fields its entries have' });

export const TypeListItem = Type.Partial(TypeModel, { $id: 'ContentTypeListItem', description: 'A content type in a list: trimmed to the attributes `only` names' });

const FieldInput = Type.Object({
  name: Type.String({ maxLength: 1000 }),
  labels: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 1000 }), {
    maxProperties: 100, description: `${labelsDescription}; each at most ${LIMITS.label} characters. Default: none`,
  })),
  type: Type.String({ maxLength: 100, description: FIELD_TYPES.join(', ') }),
  required: Type.Optional(Type.Boolean({ description: 'Default false' })),
  localized: Type.Optional(Type.Boolean({ description: 'Default false' })),
  sortable: Type.Optional(Type.Boolean({ description: 'Default false' })),
  filterable: Type.Optional(Type.Boolean({ description: 'Default false' })),
  options: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), {
    maxItems: 1000, description: `Dropdown and checkbox only: 1 to ${LIMITS.options} distinct choices of at most ${LIMITS.option} characters`,
  })),
}, { additionalProperties: false });

const typeInputFields = {
  uid: Type.String({ maxLength: 1000, description: uidDescription }),
  name: Type.String({ maxLength: 1000, description: `At most ${LIMITS.name} characters` }),
  fields: Type.Array(FieldInput, { maxItems: 1000, description: `At most ${LIMITS.fields} fields with distinct names` }),
};

export const TypeInput = Type.Object({ ...typeInputFields, fields: Type.Optional(typeInputFields.fields) }, { additionalProperties: false });
export const TypeUpdate = Type.Partial(Type.Object(typeInputFields), { additionalProperties: false });
export type TypeInputBody = Static<typeof TypeUpdate>;
export type FieldInputBody = Static<typeof FieldInput>;

/** The query of the space and type lists. */
export const ContentListQuery = ListQuery({ searched: 'the uid or name', sortable: ['uid', 'name', 'created_at', 'updated_at'], by: 'updated_at', order: 'desc' }, OnlyQuery);
