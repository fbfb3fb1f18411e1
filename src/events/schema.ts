import { Type } from '@sinclair/typebox';
import { DateTime, Id, ref, Nullable } from '../http/models.js';
import { PageQuery } from '../http/pagination.js';
import { LOCALES } from '../i18n/locale.js';

/** `<category>_<action>`: a lowercase letter, then 2 to 63 lowercase letters, digits or `_`. */
export const EVENT_TYPE_PATTERN = '^[a-z][a-z0-9_]{2,63}$';

export const MAX_PROPERTIES_BYTES = 8 * 1024;
export const MAX_PROPERTIES_DEPTH = 5;

export const UserEventModel = Type.Object({
  title: Type.String({ description: 'The translated name of the event\'s type; empty for events of custom types' }),
  description: Type.String({ description: 'Names the realm where the event happened, translated: `Realm: Personal Banking`' }),
  created_at: DateTime,
}, { $id: 'UserEvent', additionalProperties: false, description: 'A business event of the signed-in user (spec 2.8): no identifier and no type' });

export const UserEventQuery = Type.Object({
  ...PageQuery,
  sort_by: Type.Optional(Type.String({ description: '`created_at` (default) or `type`; any other value sorts by `created_at`' })),
  order: Type.Optional(Type.String({ description: '`asc` or `desc` (default); any other value is `desc`' })),
  not_impersonated: Type.Optional(Type.String({
    description: 'Present with any value, even empty: leaves out the events recorded while an admin impersonated the user',
  })),
});

export const AdminEventModel = Type.Object({
  id: Id(),
  type: Type.String({ description: 'A built-in `<category>_<action>` type or a custom one' }),
  title: Type.String({ description: 'The English title of a built-in type; empty for a custom type' }),
  user: Type.Union([Type.Object({ id: Id(), email: Type.String() }), Type.Null()], { description: 'Null when the event names no user' }),
  impersonated: Type.Boolean({ description: 'Whether it happened while an admin impersonated the user' }),
  impersonator_id: Nullable(Id(), 'The team member who impersonated the user; null when not impersonated or when that member was deleted since'),
  properties: Type.Record(Type.String(), Type.Unknown(), { description: 'What the event carries: a JSON object, empty when none' }),
  created_at: DateTime,
}, { $id: 'BusinessEvent', description: 'A business event of a realm\'s log' });

const dateTime = (description: string) => Type.Optional(Type.String({
  format: 'date-time', description: `${description}: an ISO 8601 date-time with an offset, e.g. 2025-01-31T09:00:00Z (422 otherwise)`,
}));

export const RealmEventQuery = Type.Object({
  ...PageQuery,
  type: Type.Optional(Type.String({
    pattern: EVENT_TYPE_PATTERN,
    description: 'Only events of this type, built-in or custom. A well-formed type no event has gives an empty list; one not of the '
      + `form ${EVENT_TYPE_PATTERN} answers 422`,
  })),
  user_id: Type.Optional(Id({ description: 'Only events of this user' })),
  from: dateTime('Only events recorded at or after this moment'),
  to: dateTime('Only events recorded before this moment'),
});

export const CustomEventInput = Type.Object({
  type: Type.String({
    pattern: EVENT_TYPE_PATTERN,
    description: `A custom type, ${EVENT_TYPE_PATTERN} (by convention \`<category>_<action>\`). The names of the built-in types `
      + '(user_login_log, user_updated_log, ...) are refused with 422: those are recorded only where they happen.',
  }),
  properties: Type.Optional(Type.Record(Type.String(), Type.Unknown(), {
    description: `A JSON object (default {}): at most ${MAX_PROPERTIES_BYTES} bytes written as compact JSON (UTF-8), objects and `
      + `arrays nested at most ${MAX_PROPERTIES_DEPTH} deep (the object itself is the first level), text in well-formed Unicode. 422 otherwise.`,
  })),
}, { additionalProperties: false });

export const EventTypeModel = Type.Object({
  type: Type.String({ description: 'The `<category>_<action>` name events of this type carry' }),
  title: Type.String({ description: 'The title of a built-in type in the language asked for (English by default); empty for a custom type' }),
  built_in: Type.Boolean({ description: 'Whether the platform records it; custom types are those recorded through the admin API' }),
}, { $id: 'EventType', additionalProperties: false, description: 'A type of business event a segment can count' });

export const EventTypeQuery = Type.Object({
  locale: Type.Optional(Type.Union(LOCALES.map((l) => Type.Literal(l)), { description: 'The language of the titles; English when left out' })),
});

export const EventTypeList = Type.Object({ event_types: Type.Array(ref(EventTypeModel)) }, { description: 'The event types of a realm' });
