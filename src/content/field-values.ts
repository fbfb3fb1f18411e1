import { sql, type SQL } from 'drizzle-orm';
import { contentEntryVersions as versions, type ContentFieldDefinition } from '../tables/content.js';

/**
 * How a field's stored value reads in SQL: what the delivery API's filters and orders compare, and what
 * a filterable field's index holds. Both are built here, so that the planner sees the same expression.
 */

/** How a field's stored value is compared. */
export type FieldKind = 'text' | 'number' | 'boolean' | 'date' | 'list' | 'reference' | 'references' | 'none';

const FIELD_KINDS: Record<ContentFieldDefinition['type'], FieldKind> = {
  text: 'text', rich_text: 'text', dropdown: 'text', integer: 'number', decimal: 'number', boolean: 'boolean', date: 'date',
  checkbox: 'list', entries: 'references', entry: 'reference', asset: 'reference', location: 'none',
};

export const fieldKindOf = (field: ContentFieldDefinition): FieldKind => FIELD_KINDS[field.type] ?? 'none';

const JSON_TYPES: Partial<Record<FieldKind, string>> = {
  text: 'string', reference: 'object', number: 'number', boolean: 'boolean', date: 'string', list: 'array', references: 'array',
};

/** A stored date: `2026-01-15` (midnight UTC) or a date-time in UTC, as the entry checks keep them. */
const STORED_DATE = '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?Z)?$';

/**
 * A text written into the statement (a field's name, which FIELD_NAME keeps to letters, digits and `_`, or a constant of
 * the expression): so that a statement compiled once and run with other values still names the field, and the planner
 * matches it to the field's index without knowing any parameter.
 */
const literal = (text: string) => sql.raw(`'${text.replace(/'/g, "''")}'`);

/**
 * A field's stored value, read as its type, with whether it is there: null, or a value of another JSON
 * type (or a date not in the stored form), reads as absent, and the value is then NULL. References are
 * `{"uuid"}`, compared by uuid. Dates go through `atrium_stored_instant` (migration 0020), immutable
 * where a cast of text to a timestamp is not, so that an index can hold them.
 */
export function fieldValue(name: string, kind: FieldKind): { present: SQL; value: SQL } {
  const json = sql`(${versions.fields} -> ${literal(name)})`;
  const text = sql`(${versions.fields} ->> ${literal(name)})`;
  const jsonType = JSON_TYPES[kind];
  // Never NULL, so that `not present` holds where the field is missing from the stored fields.
  const present = jsonType ? sql`(coalesce(jsonb_typeof(${json}), 'null') = ${literal(jsonType)})` : sql`coalesce(${json} <> 'null'::jsonb, false)`;
  const when = (then: SQL) => sql`(case when ${present} then ${then} end)`;
  switch (kind) {
    case 'number': return { present, value: when(sql`(${json})::numeric`) };
    case 'boolean': return { present, value: when(sql`(${json})::boolean`) };
    case 'list': return { present, value: when(sql`array(select jsonb_array_elements_text(${json}))`) };
    case 'references': return { present, value: when(sql`array(select r ->> 'uuid' from jsonb_array_elements(${json}) r)`) };
    case 'reference': return { present, value: when(sql`(${json} ->> 'uuid')`) };
    case 'date': {
      const stored = sql`(${present} and ${text} ~ ${literal(STORED_DATE)})`;
      return { present: stored, value: sql`(case when ${stored} then atrium_stored_instant(${text}) end)` };
    }
    default: return { present, value: when(text) };
  }
}
