import type { Context } from '../../context.js';
import { notFound } from '../../errors/index.js';
import type { FieldDefinition } from './fields.js';
import { findSpace, type Space } from '../spaces.js';
import { findType, type ContentType } from './types.js';

/** A JSON Schema document or subschema (draft 2020-12), as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

export const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

const string = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
const dateTime = string({ format: 'date-time' });
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

/**
 * A reference to an asset or an entry as the content API answers it without `include`: `{"uuid": "..."}`
 * (the entries and delivery code store and show it so). With `include` the object carries the referenced
 * asset or entry besides its uuid, hence the open object.
 */
const reference = (what: string): JsonSchema => ({
  type: 'object',
  description: `A reference to ${what}: {"uuid"} without include; with include the ${what} itself`,
  properties: { uuid: string({ format: 'uuid' }) },
  required: ['uuid'],
});

function valueSchema(field: FieldDefinition): JsonSchema {
  switch (field.type) {
    case 'text': return string();
    case 'rich_text': return string({ contentMediaType: 'text/markdown' });
    case 'integer': return { type: 'integer' };
    case 'decimal': return { type: 'number' };
    case 'boolean': return { type: 'boolean' };
    // Entries keep a date as written (`2026-01-15`) and a date-time in UTC ISO text.
    case 'date': return string({ anyOf: [{ format: 'date' }, { format: 'date-time' }] });
    case 'dropdown': return string({ enum: [...field.options] });
    case 'checkbox': return { type: 'array', items: string({ enum: [...field.options] }), uniqueItems: true };
    case 'location': return {
      type: 'object',
      properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lon: { type: 'number', minimum: -180, maximum: 180 } },
      required: ['lat', 'lon'],
      additionalProperties: false,
    };
    case 'asset': return reference('an asset');
    case 'entry': return reference('an entry');
    case 'entries': return { type: 'array', items: reference('an entry') };
  }
}

function fieldSchema(field: FieldDefinition): JsonSchema {
  const flags = [field.required ? 'required' : 'optional (null when empty)', field.localized ? 'localized' : 'the same in every locale'];
  if (field.sortable) flags.push('sortable');
  if (field.filterable) flags.push('filterable (indexed)');
  const value = valueSchema(field);
  return { ...(field.required ? value : nullable(value)), description: `${field.type}: ${flags.join(', ')}` };
}

function metaSchema(space: Space, type: ContentType): JsonSchema {
  const locale = string({ enum: [...space.locales] });
  const properties: JsonSchema = {
    uuid: string({ format: 'uuid' }),
    space: { const: space.uid },
    name: string(),
    slug: string(),
    type: { const: type.uid },
    private: { type: 'boolean' },
    category: nullable(string({ description: 'A category path such as news/sports' })),
    tags: { type: 'array', items: string() },
    locale,
    available_locales: { type: 'array', items: locale },
    created_at: dateTime,
    updated_at: dateTime,
    published_at: nullable(dateTime),
    unpublished_at: nullable(dateTime),
    version_type: string({ enum: ['draft', 'published'] }),
  };
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/**
 * The JSON Schema of an entry of the type, `{meta, fields}`, as the content API answers it. Every field
 * is present in `fields` (`required` lists them all); a field that is not required may be null.
 */
export function entrySchema(space: Space, type: ContentType, id: string): JsonSchema {
  const fields = Object.fromEntries(type.fields.map((field) => [field.name, fieldSchema(field)]));
  return {
    $schema: DRAFT_2020_12,
    $id: id,
    title: type.name,
    description: `An entry of the content type ${type.uid} of the space ${space.uid}, as the content API answers it without include`,
    type: 'object',
    properties: {
      meta: metaSchema(space, type),
      fields: { type: 'object', properties: fields, required: Object.keys(fields), additionalProperties: false },
    },
    required: ['meta', 'fields'],
    additionalProperties: false,
  };
}

/** The schema the content API serves; an unknown space or type is a 404 like the delivery routes'. */
export async function typeSchema(ctx: Context, spaceUid: string, typeUid: string): Promise<JsonSchema> {
  const space = await findSpace(ctx, spaceUid);
  const type = space && await findType(ctx, space.id, typeUid);
  if (!space || !type) throw notFound('Content type');
  return entrySchema(space, type, `${ctx.config.baseUrl}/api/content/spaces/${space.uid}/types/${type.uid}/schema`);
}
