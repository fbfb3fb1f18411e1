import { sql, type SQL } from 'drizzle-orm';
import { containing, startingWith } from './like.js';
import { asParameter, type Bind } from './bindings.js';

/**
 * Typed comparisons compiled to SQL, shared by every feature that filters rows by a client's
 * conditions (segments, content delivery). Each kind has its operators; a value is checked here once,
 * and the SQL a comparison compiles to is a parameterized predicate on an expression that the caller
 * has already found present: given a non-null expression it is never NULL, so the caller's
 * `present AND predicate` is two-valued.
 */
export type ValueKind = 'text' | 'number' | 'date' | 'timestamp' | 'boolean';

export const OPERATORS = {
  text: ['eq', 'neq', 'contains', 'starts_with', 'in'],
  number: ['eq', 'lt', 'gt', 'lte', 'gte', 'between'],
  date: ['before', 'after', 'on', 'between', 'within_last_days'],
  timestamp: ['before', 'after', 'on', 'between', 'within_last_days'],
  boolean: ['is'],
} as const satisfies Record<ValueKind, readonly string[]>;

/** A comparison whose value fits its operator: what `checkComparison` gives and `comparisonSql` takes. */
export type Comparison =
  | { operator: 'eq' | 'neq' | 'contains' | 'starts_with'; value: string }
  | { operator: 'in'; value: string[] }
  | { operator: 'eq' | 'lt' | 'gt' | 'lte' | 'gte'; value: number }
  | { operator: 'between'; value: [number, number] }
  | { operator: 'before' | 'after' | 'on'; value: string }
  | { operator: 'between'; value: [string, string] }
  | { operator: 'within_last_days'; value: number }
  | { operator: 'is'; value: boolean }
  | ExactComparison;

/**
 * Comparisons the content delivery API adds, which segments do not offer (so `OPERATORS` leaves them
 * out): a text or a number outside a list, a number unequal; and dates compared exactly, a
 * `timestamp` to an instant (ISO 8601 with an offset) and a calendar `date` to a day (YYYY-MM-DD),
 * rather than as whole days.
 */
export type ExactComparison =
  | { operator: 'not_in'; value: string[] }
  | { operator: 'neq'; value: number }
  | { operator: 'in' | 'not_in'; value: number[] }
  | { operator: 'at' | 'not_at' | 'earlier' | 'later' | 'at_or_earlier' | 'at_or_later'; value: string };

export const MAX_TEXT_LENGTH = 1_000;
export const MAX_IN_VALUES = 1_000;
export const MAX_DAYS = 36_500;

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date written YYYY-MM-DD (years 1000 to 9999, so that the text sorts as the date does). */
export function isCalendarDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match || match[1] < '1000') return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export type Checked = { ok: true; comparison: Comparison } | { ok: false; message: string };

const fail = (message: string): Checked => ({ ok: false, message });

function checkText(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a text';
  if (!value) return "can't be blank";
  if (value.length > MAX_TEXT_LENGTH) return `is too long (maximum is ${MAX_TEXT_LENGTH} characters)`;
  return null;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isPair = (value: unknown): value is [unknown, unknown] => Array.isArray(value) && value.length === 2;

/** Whether `value` fits `operator` on a value of `kind`; the operator is known to belong to the kind. */
export function checkComparison(kind: ValueKind, operator: string, value: unknown): Checked {
  if (kind === 'text') {
    if (operator === 'in') {
      if (!Array.isArray(value) || !value.length || value.length > MAX_IN_VALUES) return fail(`must be a list of 1 to ${MAX_IN_VALUES} texts`);
      const problem = value.map(checkText).find(Boolean);
      return problem ? fail(`must hold only texts of 1 to ${MAX_TEXT_LENGTH} characters`) : { ok: true, comparison: { operator, value: value as string[] } };
    }
    const problem = checkText(value);
    return problem ? fail(problem) : { ok: true, comparison: { operator, value } as Comparison };
  }
  if (kind === 'number') {
    if (operator === 'between') {
      if (!isPair(value) || !isNumber(value[0]) || !isNumber(value[1]) || value[0] > value[1]) return fail('must be [low, high], two numbers with low ≤ high');
      return { ok: true, comparison: { operator, value: [value[0], value[1]] } };
    }
    return isNumber(value) ? { ok: true, comparison: { operator, value } as Comparison } : fail('must be a number');
  }
  if (kind === 'boolean') {
    return typeof value === 'boolean' ? { ok: true, comparison: { operator: 'is', value } } : fail('must be true or false');
  }
  if (operator === 'within_last_days') {
    return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_DAYS
      ? { ok: true, comparison: { operator, value: value as number } }
      : fail(`must be a whole number of days from 1 to ${MAX_DAYS}`);
  }
  if (operator === 'between') {
    if (!isPair(value) || typeof value[0] !== 'string' || typeof value[1] !== 'string' || !isCalendarDate(value[0]) || !isCalendarDate(value[1]) || value[0] > value[1]) {
      return fail('must be [first, last], two dates YYYY-MM-DD with first ≤ last');
    }
    return { ok: true, comparison: { operator, value: [value[0], value[1]] } };
  }
  return typeof value === 'string' && isCalendarDate(value)
    ? { ok: true, comparison: { operator, value } as Comparison }
    : fail('must be a date in the form YYYY-MM-DD');
}

/** The UTC calendar date of an instant, YYYY-MM-DD. */
export const dateOf = (instant: Date) => instant.toISOString().slice(0, 10);

/** The UTC calendar date `days` before `now`'s. */
export const daysBefore = (now: Date, days: number) => dateOf(new Date(now.getTime() - days * DAY_MS));

/** Whether a number is sent as an integer (an integer column is then compared, and indexed, as it is) rather than a numeric. */
export const isInt4 = (n: number) => Number.isInteger(n) && Math.abs(n) <= 2147483647;

const instant = (at: Date, bind: Bind) => sql`${bind(at.toISOString())}::timestamptz`;
/** Midnight UTC starting the day `date` (YYYY-MM-DD), `plusDays` later. */
const dayStart = (date: string, bind: Bind, plusDays: 0 | 1 = 0) => sql`((${bind(date)}::date + ${sql.raw(String(plusDays))})::timestamp at time zone 'UTC')`;
const day = (date: string, bind: Bind) => sql`(${bind(date)}::text collate "C")`;

/**
 * The predicate of a comparison on `expr`, an expression of the comparison's kind that is not null.
 * Dates are calendar days in UTC: `before` a day is before its first instant, `after` it is from the
 * next day on, `between` takes both days whole; `within_last_days` N is from N days before `now` up to
 * `now` (for a calendar date: from the date N days before today to today).
 */
export function comparisonSql(kind: ValueKind, expr: SQL, comparison: Comparison, now: Date, bind: Bind = asParameter): SQL {
  const { operator, value } = comparison;
  switch (kind) {
    case 'text':
      switch (operator) {
        case 'eq': return sql`${expr} = ${bind(value)}`;
        case 'neq': return sql`${expr} <> ${bind(value)}`;
        case 'contains': return sql`${expr} ilike ${bind(containing(value as string))}`;
        case 'starts_with': return sql`${expr} ilike ${bind(startingWith(value as string))}`;
        // One parameter whatever the list's length, in a form an index of the text can answer.
        case 'in': return sql`${expr} = any(${textArray(value as string[], bind)})`;
        case 'not_in': return sql`not (${expr} = any(${textArray(value as string[], bind)}))`;
      }
      break;
    case 'number': {
      const number = (n: number) => (isInt4(n) ? sql`${bind(n)}::integer` : sql`${bind(String(n))}::numeric`);
      switch (operator) {
        case 'eq': return sql`${expr} = ${number(value as number)}`;
        case 'lt': return sql`${expr} < ${number(value as number)}`;
        case 'gt': return sql`${expr} > ${number(value as number)}`;
        case 'lte': return sql`${expr} <= ${number(value as number)}`;
        case 'gte': return sql`${expr} >= ${number(value as number)}`;
        case 'between': {
          const [low, high] = value as [number, number];
          return sql`${expr} between ${number(low)} and ${number(high)}`;
        }
        case 'neq': return sql`${expr} <> ${number(value as number)}`;
        // One parameter whatever the list's length, as for texts.
        case 'in': return sql`${expr} = any(${bind(`{${(value as number[]).join(',')}}`)}::numeric[])`;
        case 'not_in': return sql`${expr} <> all(${bind(`{${(value as number[]).join(',')}}`)}::numeric[])`;
      }
      break;
    }
    case 'boolean':
      return sql`${expr} = ${bind(value as boolean)}`;
    case 'date':
      switch (operator) {
        case 'before': return sql`${expr} < ${day(value as string, bind)}`;
        case 'after': return sql`${expr} > ${day(value as string, bind)}`;
        case 'on': return sql`${expr} = ${day(value as string, bind)}`;
        case 'between': {
          const [first, last] = value as [string, string];
          return sql`${expr} between ${day(first, bind)} and ${day(last, bind)}`;
        }
        case 'within_last_days':
          return sql`${expr} between ${day(daysBefore(now, value as number), bind)} and ${day(dateOf(now), bind)}`;
        default: return exactSql(expr, operator, day(value as string, bind));
      }
      break;
    case 'timestamp':
      switch (operator) {
        case 'before': return sql`${expr} < ${dayStart(value as string, bind)}`;
        case 'after': return sql`${expr} >= ${dayStart(value as string, bind, 1)}`;
        case 'on': return sql`(${expr} >= ${dayStart(value as string, bind)} and ${expr} < ${dayStart(value as string, bind, 1)})`;
        case 'between': {
          const [first, last] = value as [string, string];
          return sql`(${expr} >= ${dayStart(first, bind)} and ${expr} < ${dayStart(last, bind, 1)})`;
        }
        case 'within_last_days':
          return sql`(${expr} >= ${instant(new Date(now.getTime() - (value as number) * DAY_MS), bind)} and ${expr} <= ${instant(now, bind)})`;
        default: return exactSql(expr, operator, sql`${bind(value as string)}::timestamptz`);
      }
      break;
  }
  throw new Error(`no ${operator} comparison for ${kind}`);
}

const EXACT = { at: '=', not_at: '<>', earlier: '<', later: '>', at_or_earlier: '<=', at_or_later: '>=' } as const;

/** An exact comparison of a date or timestamp with `bound`; an operator of another comparison throws below. */
function exactSql(expr: SQL, operator: string, bound: SQL): SQL {
  if (!Object.hasOwn(EXACT, operator)) throw new Error(`no ${operator} comparison for dates`);
  return sql`${expr} ${sql.raw(EXACT[operator as keyof typeof EXACT])} ${bound}`;
}

/** What a list of texts (a `text[]` expression, never null) is asked: to hold any, all or none of `values`. */
export type ListOperator = 'any' | 'all' | 'none';

/** A `text[]` parameter: one, whatever the number of values. */
const textArray = (values: readonly string[], bind: Bind): SQL => sql`${bind(`{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`)}::text[]`;

export function listComparisonSql(expr: SQL, operator: ListOperator, values: readonly string[], bind: Bind = asParameter): SQL {
  const wanted = textArray(values, bind);
  switch (operator) {
    case 'any': return sql`${expr} && ${wanted}`;
    case 'all': return sql`${expr} @> ${wanted}`;
    case 'none': return sql`not (${expr} && ${wanted})`;
  }
}

/** Whether a number comparison holds for `n`: how a count's compiler knows whether a user with none matches. */
export function numberHolds(comparison: Comparison, n: number): boolean {
  const { operator, value } = comparison;
  switch (operator) {
    case 'eq': return n === value;
    case 'lt': return n < (value as number);
    case 'gt': return n > (value as number);
    case 'lte': return n <= (value as number);
    case 'gte': return n >= (value as number);
    case 'between': return n >= (value as [number, number])[0] && n <= (value as [number, number])[1];
    default: throw new Error(`${operator} is not a number comparison`);
  }
}
