import { Type } from '@sinclair/typebox';
import { ErrorBody } from '../../http/errors.js';
import { DateTime, ref, Nullable } from '../../http/models.js';
import { PageQuery } from '../../http/pagination.js';


export const DeliveredEntryModel = Type.Object({
  meta: Type.Optional(Type.Object({
    uuid: Type.Optional(Type.String({ format: 'uuid' })),
    space: Type.Optional(Type.String({ description: 'The space\'s uid' })),
    name: Type.Optional(Type.String()),
    slug: Type.Optional(Type.String()),
    type: Type.Optional(Type.String({ description: 'The content type\'s uid' })),
    private: Type.Optional(Type.Boolean()),
    category: Type.Optional(Nullable(Type.String({ description: 'A path such as news/sports' }))),
    tags: Type.Optional(Type.Array(Type.String())),
    locale: Type.Optional(Type.String({ description: 'The locale of this version: the one asked for, or the fallback locale' })),
    available_locales: Type.Optional(Type.Array(Type.String(), { description: 'The locales the entry is published in' })),
    created_at: Type.Optional(DateTime),
    updated_at: Type.Optional(DateTime),
    published_at: Type.Optional(Nullable(DateTime)),
    unpublished_at: Type.Optional(Nullable(DateTime)),
    version_type: Type.Optional(Type.String({ description: 'Always `published` here' })),
  })),
  fields: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'The values of the content type\'s fields in this locale' })),
}, {
  $id: 'DeliveredEntry',
  description: 'A published entry. Every part is present unless `fields=<JSONPath>` trimmed it away; with `include`, '
    + 'reference fields hold the entries and assets they name instead of their uuids.',
});

export const DeliveredListModel = Type.Object({
  meta: Type.Unsafe({ $ref: 'Meta#' }),
  entries: Type.Array(ref(DeliveredEntryModel)),
}, { $id: 'DeliveredList', description: 'A page of published entries' });

export const QueryErrorModel = Type.Object({
  error: Type.Object({
    query: Type.Record(Type.String(), Type.Array(Type.String()), {
      description: 'By parameter: `Unknown parameter`, `Key not sortable`, `must be asc or desc`, `Locale not available`, a value of the '
        + 'wrong type for the field (`must be a number`, ...), `Invalid JSONPath: ...`',
    }),
  }),
}, { $id: 'ContentQueryError', description: 'The query cannot be answered: each parameter at fault with its problems' });

export const QueryPlanModel = Type.Object({
  page: Type.Array(Type.String(), { description: 'EXPLAIN of the page\'s statement, line by line' }),
  count: Type.Array(Type.String(), { description: 'EXPLAIN of the count behind `meta.total_entries`' }),
  indexes: Type.Array(Type.Object({ field: Type.String(), ready: Type.Boolean({ description: 'False while the index is being built' }) }), {
    description: 'The filterable fields\' indexes',
  }),
}, { $id: 'ContentQueryPlan', description: 'How the database would read a delivery list' });

export const DeliveryTokenErrorModel = Type.Object({
  error: Type.Object({ delivery_token: Type.Array(Type.String()) }),
}, { $id: 'DeliveryTokenError', description: 'The delivery token is not one of ours, or has expired: get a new one from the customers API' });

export const DeliveryTokenModel = Type.Object({
  token: Type.String({ description: 'A JWT (HS256) to send as the Delivery-Token header, or the delivery_token query parameter, of the content API' }),
  expires_at: DateTime,
}, { $id: 'DeliveryToken', description: 'A delivery token for the signed-in user\'s private entries, valid one hour' });

export const EntriesParams = Type.Object({
  space_uid: Type.String({ maxLength: 255 }),
  type_uid: Type.String({ maxLength: 255 }),
});

export const EntryParams = Type.Object({
  space_uid: Type.String({ maxLength: 255 }),
  type_uid: Type.String({ maxLength: 255 }),
  uuid: Type.String({ maxLength: 64 }),
});

const one = {
  locale: Type.Optional(Type.String({ description: 'One of the space\'s locales (default: its default locale)' })),
  fallback_locale: Type.Optional(Type.String({ description: 'The locale whose version is answered where an entry has none in `locale`' })),
  fields: Type.Optional(Type.String({ description: 'A JSONPath each entry is trimmed to, such as `$.fields.title` or `$.meta[uuid,name]`; script expressions are refused', examples: ['$.fields'] })),
  include: Type.Optional(Type.String({ description: '0 (default), 1 or 2: depth of referenced entries and assets embedded', examples: ['1'] })),
  delivery_token: Type.Optional(Type.String({ description: 'A delivery token, when the Delivery-Token header cannot be sent' })),
};

export const EntryQuery = Type.Object(one);

export const EntriesQuery = Type.Object({
  ...PageQuery,
  sort_by: Type.Optional(Type.String({ description: '`meta.published_at` (default), `meta.created_at`, `meta.updated_at`, `meta.name`, or `fields.<name>` of a sortable field' })),
  order: Type.Optional(Type.String({ description: '`asc` or `desc` (default desc for dates, asc for names and fields)' })),
  ...one,
}, { additionalProperties: true });

export const contentFailures = {
  400: Type.Union([ref(QueryErrorModel), ref(ErrorBody)], { description: 'The query cannot be answered (`error.query`), or the URL is malformed (`errors`)' }),
  401: { ...ref(DeliveryTokenErrorModel), description: 'The delivery token is not valid or has expired' },
  404: { ...ref(ErrorBody), description: 'No such space, content type, or published entry visible to this reader' },
};
