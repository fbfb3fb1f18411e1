import type { SegmentField } from './segment-fields';
import { valuelessOperators, type Rule } from './segment-query';

const toNumber = (value: unknown) => (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value);
const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * A condition's value as the server reads it: a list for "is one of", a pair for "is between", one value otherwise
 * (what an earlier operator left is reshaped), numbers as numbers for a number attribute and a number of days.
 */
export function typedValue(field: SegmentField | undefined, operator: string, value: unknown): unknown {
  const numeric = field?.kind === 'number' || operator === 'within_last_days';
  const typed = (one: unknown) => (numeric ? toNumber(one) : one);
  if (operator === 'in') return (Array.isArray(value) ? value : blank(value) ? [] : [value]).map(typed);
  if (operator === 'between') return Array.isArray(value) ? [typed(value[0] ?? ''), typed(value[1] ?? '')] : [typed(value ?? ''), ''];
  return typed(Array.isArray(value) ? value[0] ?? '' : value);
}

/** Whether a condition still lacks its value (an empty text, list or bound): the builder says so instead of asking the server. */
export function lacksValue(operator: string, value: unknown): boolean {
  if (valuelessOperators.has(operator)) return false;
  if (Array.isArray(value)) return value.length === 0 || value.some(blank);
  return blank(value);
}

/** A condition as the server reads it: its value typed, and a period (`within_last_days`) only while it counts events. */
export function typedRule(field: SegmentField | undefined, rule: Rule): Rule {
  const { within_last_days: period, ...rest } = rule;
  const typed = { ...rest, value: typedValue(field, rule.operator, rule.value) };
  return period !== undefined && /^events\..+\.count$/.test(rule.field) ? { ...typed, within_last_days: period } : typed;
}
