import { isCalendarDate, MAX_IN_VALUES, MAX_TEXT_LENGTH, type Comparison, type ListOperator } from '../../db/filters.js';
import type { Page } from '../../db/paging.js';
import { AppError, declare } from '../../errors/index.js';
import { pageOf } from '../../http/pagination.js';
import type { ContentFieldDefinition } from '../../tables/content.js';
import { fieldKindOf, type FieldKind } from '../field-values.js';
import { checkJsonPath } from './trim.js';

/**
 * The content delivery API's query string, read against a content type: every filter cast to the type
 * of what it compares (a field's type from the content type, or a meta attribute's), the sort key, the
 * locales, the JSONPath and the include depth. Anything it cannot use is a `QueryProblems` (400
 * `{"error":{"query":{"<param>":["..."]}}}`), all problems of the request at once.
 */

/** What a content type offers the delivery API: its space's locales and its fields. */
export interface DeliveryType {
  spaceId: number;
  spaceUid: string;
  defaultLocale: string;
  locales: string[];
  typeId: number;
  typeUid: string;
  fields: ContentFieldDefinition[];
}

export const META_DATES = ['created_at', 'updated_at', 'published_at', 'unpublished_at'] as const;
export type MetaDate = (typeof META_DATES)[number];
export type MetaText = 'name' | 'slug' | 'uuid';

/** What a filter compares: a meta attribute, or a field of the type read from the entry's `fields`. */
export type Target =
  | { meta: 'tags' }
  | { meta: 'category' }
  | { meta: MetaText }
  | { meta: MetaDate }
  | { field: ContentFieldDefinition; kind: FieldKind };

export type Test =
  | { operator: 'exists'; value: boolean }
  | { kind: 'text' | 'number' | 'boolean' | 'timestamp'; comparison: Comparison }
  | { kind: 'list'; operator: ListOperator; values: string[] }
  | { kind: 'category'; negated: boolean; values: string[] };

export interface EntryFilter {
  param: string;
  target: Target;
  test: Test;
}

export type SortKey = { meta: 'published_at' | 'created_at' | 'updated_at' | 'name' } | { field: ContentFieldDefinition; kind: FieldKind };

export interface DeliveryQuery {
  filters: EntryFilter[];
  sort: SortKey;
  descending: boolean;
  page: Page;
  locale: string;
  fallbackLocale: string | null;
  /** The JSONPath each entry is trimmed to, checked. */
  fieldsPath: string | null;
  include: 0 | 1 | 2;
}

const QUERY_REFUSED = declare({ code: 'ATR_CONTENT_QUERY', kind: 'bad_request', description: 'The query cannot be answered: `error.query` names each parameter at fault', catalogs: ['content'] });

/** The problems of a request's query, by parameter: answered 400 as a whole. */
export class QueryProblems {
  private readonly byParam = new Map<string, string[]>();

  add(param: string, message: string): void {
    const messages = this.byParam.get(param);
    if (messages) messages.push(message);
    else this.byParam.set(param, [message]);
  }

  get any(): boolean {
    return this.byParam.size > 0;
  }

  /** `{"error":{"query":{"<param>":["..."]}}}`, the facts page's shape. */
  error(): AppError {
    const query = Object.fromEntries(this.byParam);
    return new AppError(QUERY_REFUSED, [...this.byParam].map(([param, messages]) => `${param}: ${messages.join(', ')}`), { body: { error: { query } } });
  }
}

export const UNKNOWN_PARAMETER = 'Unknown parameter';
export const NOT_SORTABLE = 'Key not sortable';

/** Which operators (`''` for plain equality) each kind of value takes. */
const ALLOWED: Record<FieldKind | 'tags' | 'category' | MetaText | 'timestamp', readonly string[]> = {
  text: ['', 'ne', 'in', 'nin', 'search', 'exists'],
  reference: ['', 'ne', 'in', 'nin', 'exists'],
  number: ['', 'ne', 'gt', 'lt', 'gte', 'lte', 'in', 'nin', 'exists'],
  boolean: ['', 'ne', 'exists'],
  date: ['', 'ne', 'gt', 'lt', 'gte', 'lte', 'exists'],
  list: ['', 'in', 'nin', 'has', 'exists'],
  references: ['', 'in', 'nin', 'has', 'exists'],
  none: ['exists'],
  tags: ['', 'in', 'nin', 'has', 'exists'],
  category: ['', 'ne', 'in', 'nin', 'exists'],
  name: ['', 'ne', 'in', 'nin', 'search'],
  slug: ['', 'ne', 'in', 'nin', 'search'],
  uuid: ['', 'ne', 'in', 'nin'],
  timestamp: ['', 'ne', 'gt', 'lt', 'gte', 'lte'],
};

const LIST_OPERATORS = new Set(['in', 'nin', 'has']);
const KNOWN = new Set(['page', 'per_page', 'sort_by', 'order', 'locale', 'fallback_locale', 'fields', 'include', 'delivery_token']);
/** Parameters of a single entry: no filters, sorting or pages. */
const KNOWN_FOR_ONE = new Set(['locale', 'fallback_locale', 'fields', 'include', 'delivery_token']);
const FILTER_KEY = /^(meta|fields)\.([^[\]]+)(?:\[([a-z_]*)\])?(\[\])?$/;
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** An instant: a calendar date (midnight UTC) or a date and time, with an offset when it has a time. */
const INSTANT = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_FILTERS = 30;

type Raw = Record<string, unknown>;

function texts(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return value === undefined ? [] : [String(value)];
}

/** One value of a parameter given once. */
function single(raw: Raw, param: string, problems: QueryProblems): string | undefined {
  const values = texts(raw[param]);
  if (values.length > 1) problems.add(param, 'must be given once');
  return values[0];
}

/** A single entry's query: only the locales, the JSONPath, the include depth and the token. */
export function parseEntryQuery(raw: Raw, type: DeliveryType): DeliveryQuery {
  const problems = new QueryProblems();
  for (const param of Object.keys(raw)) if (!KNOWN_FOR_ONE.has(param)) problems.add(param, UNKNOWN_PARAMETER);
  const query = commonParts(raw, type, problems);
  if (problems.any) throw problems.error();
  return { ...query, filters: [], sort: { meta: 'published_at' }, descending: true, page: pageOf({}) };
}

export function parseListQuery(raw: Raw, type: DeliveryType): DeliveryQuery {
  const problems = new QueryProblems();
  const fields = new Map(type.fields.map((f) => [f.name, f]));
  const filters: EntryFilter[] = [];
  for (const param of Object.keys(raw)) {
    if (KNOWN.has(param)) continue;
    const key = FILTER_KEY.exec(param);
    if (!key) {
      problems.add(param, UNKNOWN_PARAMETER);
      continue;
    }
    const filter = parseFilter(param, key, texts(raw[param]), fields, problems);
    if (filter) filters.push(filter);
  }
  if (filters.length > MAX_FILTERS) problems.add('query', `has more than ${MAX_FILTERS} filters`);
  const common = commonParts(raw, type, problems);
  const sortBy = single(raw, 'sort_by', problems);
  const sort = sortKey(sortBy, fields, problems);
  const order = single(raw, 'order', problems)?.toLowerCase();
  if (order !== undefined && order !== 'asc' && order !== 'desc') problems.add('order', 'must be asc or desc');
  if (problems.any || !sort) throw problems.error();
  // Dates newest first unless asked otherwise; names and fields in ascending order.
  const descending = order ? order === 'desc' : 'meta' in sort && sort.meta !== 'name';
  return { ...common, filters, sort, descending, page: pageOf({ page: single(raw, 'page', problems), per_page: single(raw, 'per_page', problems) }) };
}

function commonParts(raw: Raw, type: DeliveryType, problems: QueryProblems) {
  const locale = single(raw, 'locale', problems) ?? type.defaultLocale;
  if (!type.locales.includes(locale)) problems.add('locale', 'Locale not available');
  const fallback = single(raw, 'fallback_locale', problems) ?? null;
  if (fallback !== null && !type.locales.includes(fallback)) problems.add('fallback_locale', 'Locale not available');
  const fieldsPath = single(raw, 'fields', problems) ?? null;
  if (fieldsPath !== null) {
    const problem = checkJsonPath(fieldsPath);
    if (problem) problems.add('fields', problem);
  }
  const includeText = single(raw, 'include', problems) ?? '0';
  if (!['0', '1', '2'].includes(includeText)) problems.add('include', 'must be 0, 1 or 2');
  return {
    locale, fallbackLocale: fallback === locale ? null : fallback, fieldsPath, include: Number(includeText) as 0 | 1 | 2,
  };
}

const SORTABLE_META = new Set(['published_at', 'created_at', 'updated_at', 'name']);
const SORTABLE_KINDS = new Set<FieldKind>(['text', 'number', 'boolean', 'date']);

function sortKey(sortBy: string | undefined, fields: Map<string, ContentFieldDefinition>, problems: QueryProblems): SortKey | undefined {
  if (sortBy === undefined) return { meta: 'published_at' };
  if (sortBy.startsWith('meta.') && SORTABLE_META.has(sortBy.slice(5))) return { meta: sortBy.slice(5) as 'name' };
  const field = sortBy.startsWith('fields.') ? fields.get(sortBy.slice(7)) : undefined;
  if (field?.sortable && SORTABLE_KINDS.has(fieldKindOf(field))) return { field, kind: fieldKindOf(field) };
  problems.add('sort_by', NOT_SORTABLE);
  return undefined;
}

function targetOf(scope: string, name: string, fields: Map<string, ContentFieldDefinition>): { target: Target; allowed: string } | undefined {
  if (scope === 'fields') {
    const field = fields.get(name);
    return field && { target: { field, kind: fieldKindOf(field) }, allowed: fieldKindOf(field) };
  }
  if (name === 'tags' || name === 'category' || name === 'name' || name === 'slug' || name === 'uuid') return { target: { meta: name }, allowed: name };
  if ((META_DATES as readonly string[]).includes(name)) return { target: { meta: name as MetaDate }, allowed: 'timestamp' };
  return undefined;
}

function parseFilter(
  param: string, key: RegExpExecArray, values: string[], fields: Map<string, ContentFieldDefinition>, problems: QueryProblems,
): EntryFilter | undefined {
  const [, scope, name, operator = '', brackets] = key;
  const found = targetOf(scope, name, fields);
  if (!found) {
    problems.add(param, UNKNOWN_PARAMETER);
    return undefined;
  }
  const allowed = ALLOWED[found.allowed as keyof typeof ALLOWED];
  // `unpublished_at` is the only meta date an entry may lack.
  const mayBeAbsent = !('meta' in found.target) || found.target.meta === 'tags' || found.target.meta === 'category' || found.target.meta === 'unpublished_at';
  if (!allowed.includes(operator) && !(operator === 'exists' && mayBeAbsent)) {
    problems.add(param, operator ? 'Unknown operator for this key' : 'Cannot be compared for equality');
    return undefined;
  }
  const list = LIST_OPERATORS.has(operator);
  if (brackets && !list) {
    problems.add(param, 'Unknown operator for this key');
    return undefined;
  }
  if (!list && values.length > 1) {
    problems.add(param, 'must be given once');
    return undefined;
  }
  if (list && (values.length < 1 || values.length > MAX_IN_VALUES)) {
    problems.add(param, `must be given 1 to ${MAX_IN_VALUES} times`);
    return undefined;
  }
  const long = values.find((v) => v.length > MAX_TEXT_LENGTH);
  if (long !== undefined) {
    problems.add(param, `is too long (maximum is ${MAX_TEXT_LENGTH} characters)`);
    return undefined;
  }
  const test = testOf(found.target, operator, values, (message) => problems.add(param, message));
  return test && { param, target: found.target, test };
}

const FIELD_VALUE_KINDS = {
  text: 'text', reference: 'text', number: 'number', boolean: 'boolean', date: 'timestamp', list: 'list', references: 'list', none: 'none',
} as const satisfies Record<FieldKind, string>;

/** The kind a target's values are read as. */
function valueKind(target: Target): 'text' | 'number' | 'boolean' | 'timestamp' | 'list' | 'category' | 'none' {
  if ('field' in target) return FIELD_VALUE_KINDS[target.kind];
  if (target.meta === 'tags') return 'list';
  if (target.meta === 'category') return 'category';
  if (target.meta === 'name' || target.meta === 'slug' || target.meta === 'uuid') return 'text';
  return 'timestamp';
}

const EXACT_DATE = { '': 'at', ne: 'not_at', lt: 'earlier', gt: 'later', lte: 'at_or_earlier', gte: 'at_or_later' } as const;
const NUMBER_OPERATORS = { '': 'eq', ne: 'neq', lt: 'lt', gt: 'gt', lte: 'lte', gte: 'gte' } as const;

function testOf(target: Target, operator: string, values: string[], fail: (message: string) => void): Test | undefined {
  if (operator === 'exists') {
    if (values[0] !== 'true' && values[0] !== 'false') return void fail('must be true or false');
    return { operator: 'exists', value: values[0] === 'true' };
  }
  const kind = valueKind(target);
  switch (kind) {
    case 'list': {
      if (values.some((v) => !v)) return void fail("can't be blank");
      if ('field' in target && target.kind === 'references' && values.some((v) => !UUID.test(v))) return void fail('must be a uuid');
      const listOperator = operator === 'in' ? 'any' : operator === 'nin' ? 'none' : 'all';
      return { kind: 'list', operator: listOperator, values };
    }
    case 'category': {
      const paths = values.map((v) => v.replace(/^\/+|\/+$/g, ''));
      if (paths.some((p) => !p)) return void fail("can't be blank");
      return { kind: 'category', negated: operator === 'ne' || operator === 'nin', values: paths };
    }
    case 'text': {
      const uuids = 'meta' in target ? target.meta === 'uuid' : target.kind === 'reference';
      if (uuids && values.some((v) => !UUID.test(v))) return void fail('must be a uuid');
      if (operator === 'search') return values[0] ? { kind, comparison: { operator: 'contains', value: values[0] } } : void fail("can't be blank");
      if (operator === 'in' || operator === 'nin') return { kind, comparison: { operator: operator === 'in' ? 'in' : 'not_in', value: values } };
      return { kind, comparison: { operator: operator === 'ne' ? 'neq' : 'eq', value: values[0] } };
    }
    case 'number': {
      const numbers = values.map((v) => (NUMBER.test(v.trim()) ? Number(v) : NaN));
      if (numbers.some((n) => !Number.isFinite(n))) return void fail('must be a number');
      if (operator === 'in' || operator === 'nin') return { kind, comparison: { operator: operator === 'in' ? 'in' : 'not_in', value: numbers } };
      return { kind, comparison: { operator: NUMBER_OPERATORS[operator as keyof typeof NUMBER_OPERATORS], value: numbers[0] } as Comparison };
    }
    case 'boolean': {
      if (values[0] !== 'true' && values[0] !== 'false') return void fail('must be true or false');
      return { kind, comparison: { operator: 'is', value: (values[0] === 'true') !== (operator === 'ne') } };
    }
    case 'timestamp': {
      const at = INSTANT.test(values[0]) && isCalendarDate(values[0].slice(0, 10)) ? new Date(values[0].length === 10 ? `${values[0]}T00:00:00Z` : values[0]) : null;
      if (!at || Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1000 || at.getUTCFullYear() > 9999) {
        return void fail('must be a date (YYYY-MM-DD, midnight UTC) or a date and time with an offset (ISO 8601)');
      }
      return { kind, comparison: { operator: EXACT_DATE[operator as keyof typeof EXACT_DATE], value: at.toISOString() } };
    }
    case 'none': return void fail('Unknown operator for this key');
  }
}
