import { sql, type SQL } from 'drizzle-orm';
import { asParameter, type Bind } from '../../db/bindings.js';
import { comparisonSql, isInt4, listComparisonSql, type Comparison } from '../../db/filters.js';
import { fieldValue } from '../field-values.js';
import type { DeliveryQuery, EntryFilter, SortKey, Target, Test } from './query.js';
import { contentEntries as entries, contentEntryVersions as versions } from '../../tables/content.js';

/**
 * The SQL of the delivery API, in one place: which published versions a request sees (locale with its
 * fallback, private entries), its filters and its order. Values are parameters, through `bind`
 * (`db/bindings.ts`: a list's statement is compiled once per shape of query); names of fields are written in
 * (`fields -> 'price'`), checked by FIELD_NAME, as the field's index has them. No text of a client's is part of
 * the statement.
 */

/** Who reads: the segments a valid delivery token carries (none without a token). */
export interface Reader {
  segments: string[];
}

const other = sql`content_entry_versions_other`;

/** A version of this locale, or of the fallback locale where the entry has no published version in this one. */
function localeCondition(locale: string, fallback: string | null, bind: Bind): SQL {
  if (!fallback) return sql`${versions.locale} = ${bind(locale)}`;
  const asked = bind(locale);
  return sql`(${versions.locale} = ${asked} or (${versions.locale} = ${bind(fallback)} and not exists (
    select 1 from ${versions} as ${other} where ${other}.entry_id = ${versions.entryId} and ${other}.state = 'published' and ${other}.locale = ${asked})))`;
}

/**
 * Published, not past a scheduled unpublish (the job that removes the row may come up to a minute
 * later), and not private unless one of the reader's segments is among the entry's.
 */
export function visibleCondition(reader: Reader, now: Date, bind: Bind = asParameter): SQL {
  const published = sql`${versions.state} = 'published' and (${versions.unpublishedAt} is null or ${versions.unpublishedAt} > ${bind(now.toISOString())}::timestamptz)`;
  if (!reader.segments.length) return sql`(${published} and not ${versions.private})`;
  return sql`(${published} and (not ${versions.private} or ${versions.segmentUuids} && ${bind(`{${reader.segments.join(',')}}`)}::uuid[]))`;
}

/** The versions a list or a lookup by uuid may answer. */
export function servedCondition(typeId: number | null, query: Pick<DeliveryQuery, 'locale' | 'fallbackLocale'>, reader: Reader, now: Date, bind: Bind = asParameter): SQL {
  return sql.join([
    ...(typeId === null ? [] : [sql`${versions.typeId} = ${bind(typeId)}`]),
    localeCondition(query.locale, query.fallbackLocale, bind),
    visibleCondition(reader, now, bind),
  ], sql` and `);
}

export const META_COLUMNS = {
  created_at: versions.createdAt, updated_at: versions.updatedAt, published_at: versions.publishedAt, unpublished_at: versions.unpublishedAt,
  name: versions.name, slug: versions.slug,
};

/** What a filter reads, with whether the entry has it. */
function targetSql(target: Target): { present: SQL; value: SQL } {
  if ('field' in target) return fieldValue(target.field.name, target.kind);
  switch (target.meta) {
    case 'tags': return { present: sql`(cardinality(${versions.tags}) > 0)`, value: sql`${versions.tags}` };
    case 'category': return { present: sql`(${versions.category} is not null)`, value: sql`${versions.category}` };
    case 'uuid': return { present: sql`true`, value: sql`${entries.uuid}` }; // its filters are uuidSql's
    case 'unpublished_at': return { present: sql`(${versions.unpublishedAt} is not null)`, value: sql`${versions.unpublishedAt}` };
    default: return { present: sql`true`, value: sql`${META_COLUMNS[target.meta]}` };
  }
}

/** A category path matches itself and every path below it: `news` matches `news` and `news/sports`, not `newsroom`. */
function categorySql(value: SQL, paths: string[], bind: Bind): SQL {
  return sql`(${sql.join(paths.map((p) => sql`(${value} = ${bind(p)} or starts_with(${value}, ${bind(`${p}/`)}))`), sql` or `)})`;
}

/**
 * A filter's condition. A comparison reads a value that is NULL where the entry lacks it, so that it
 * holds for no such entry (`[ne]` included) without a presence test beside it: one expression the
 * planner estimates as it is, rather than a product of guesses that sends an ordered list to a sort.
 */
function testSql(test: Test, present: SQL, value: SQL, now: Date, bind: Bind): SQL {
  if ('operator' in test && test.operator === 'exists') return test.value ? present : sql`(not ${present})`;
  const checked = test as Exclude<Test, { operator: 'exists' }>;
  switch (checked.kind) {
    // An entry without the list holds none of the values.
    case 'list': return checked.operator === 'none'
      ? sql`(not ${present} or ${listComparisonSql(value, checked.operator, checked.values, bind)})`
      : listComparisonSql(value, checked.operator, checked.values, bind);
    case 'category': {
      const matches = categorySql(value, checked.values, bind);
      return sql`(${present} and ${checked.negated ? sql`not ${matches}` : matches})`;
    }
    default: return comparisonSql(checked.kind, value, checked.comparison as Comparison, now, bind);
  }
}

/**
 * `meta.uuid` against the entry's uuid column itself, so that its unique index answers (compared as text, it read every
 * entry of the type). The query checked each value is a uuid, in either case.
 */
function uuidSql(comparison: Comparison, bind: Bind): SQL {
  const list = (values: string[]) => sql`${bind(`{${values.join(',')}}`)}::uuid[]`;
  switch (comparison.operator) {
    case 'eq': return sql`${entries.uuid} = ${bind(comparison.value)}::uuid`;
    case 'neq': return sql`${entries.uuid} <> ${bind(comparison.value)}::uuid`;
    case 'in': return sql`${entries.uuid} = any(${list(comparison.value as string[])})`;
    default: return sql`not (${entries.uuid} = any(${list(comparison.value as string[])}))`;
  }
}

/** Every filter of the query, all to hold. */
export function filtersCondition(filters: EntryFilter[], now: Date, bind: Bind = asParameter): SQL {
  if (!filters.length) return sql`true`;
  return sql.join(filters.map((f) => {
    if ('meta' in f.target && f.target.meta === 'uuid' && 'comparison' in f.test) return uuidSql(f.test.comparison, bind);
    const { present, value } = targetSql(f.target);
    return testSql(f.test, present, value, now, bind);
  }), sql` and `);
}

/** The ORDER BY of a list: the key, absent values last, then the version's id in the same direction so that pages are stable. */
export function orderSql(sort: SortKey, descending: boolean): SQL {
  const direction = sql.raw(descending ? 'desc' : 'asc');
  if ('meta' in sort) {
    // As content_entry_versions_listed_idx orders published_at (DESC NULLS LAST, read backwards for asc), so that
    // a page of the default order is read from the index instead of sorting every match; a published version has
    // no null there anyway.
    const nulls = sql.raw(descending ? 'nulls last' : 'nulls first');
    return sql`${META_COLUMNS[sort.meta]} ${direction} ${nulls}, ${versions.id} ${direction}`;
  }
  const { value } = fieldValue(sort.field.name, sort.kind);
  return sql`${value} ${direction} nulls last, ${versions.id} ${direction}`;
}

/**
 * What of a list's query and reader the text of its statement depends on, its values bound (`db/bindings.ts`): the
 * filters' targets and operators, and of their values only what the text differs by (a number sent as an integer or
 * not, how many paths a category filter lists; every list's length and every flag is kept, which may tell apart
 * shapes that need not be); the order; whether a fallback locale and the reader's segments are read.
 */
export function shapeOf(query: DeliveryQuery, reader: Reader): string {
  return JSON.stringify([query.filters, query.sort, query.descending, query.fallbackLocale !== null, reader.segments.length > 0], (key, value) => {
    if (key === 'param') return undefined;
    if (key === 'field') return (value as { name: string }).name;
    return key === 'value' || key === 'values' ? valueShape(value) : value;
  });
}

const valueShape = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(valueShape);
  if (typeof value === 'number') return isInt4(value) ? 'int' : 'numeric';
  return typeof value === 'string' ? 'text' : value;
};
