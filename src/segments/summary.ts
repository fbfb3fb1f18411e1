import type { Comparison } from '../db/filters.js';
import { attributeLabel } from './attributes.js';
import type { FilterNode } from './filters.js';

/**
 * A filter tree in plain English: `first name contains "Ana" and (country is "CL" or country is "AR")`.
 * A group inside another is put in parentheses when it has more than one member. The recursion is
 * bounded by the tree's depth limit.
 */
export function filtersSummary(node: FilterNode): string {
  switch (node.op) {
    case 'all': return node.children.length ? node.children.map(member).join(' and ') : 'every user';
    case 'any': return node.children.length ? node.children.map(member).join(' or ') : 'no user';
    case 'not': return `not ${member(node.child)}`;
    case 'condition': return conditionSummary(node);
  }
}

const member = (node: FilterNode) => {
  const text = filtersSummary(node);
  return (node.op === 'all' || node.op === 'any') && node.children.length > 1 ? `(${text})` : text;
};

const quoted = (text: string) => JSON.stringify(text);

const PHRASES: Record<string, string> = {
  eq: 'is', neq: 'is not', contains: 'contains', starts_with: 'starts with', in: 'is one of',
  lt: 'is less than', gt: 'is more than', lte: 'is at most', gte: 'is at least', between: 'is between',
  before: 'is before', after: 'is after', on: 'is on', within_last_days: 'is within the last', is: 'is',
  is_set: 'is set', is_not_set: 'is not set',
};

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** Texts are quoted; numbers, dates (YYYY-MM-DD) and true or false are not. */
function valueText(comparison: Comparison, quote: boolean): string {
  const { operator, value } = comparison;
  if (operator === 'within_last_days') return days(value);
  const one = (v: unknown) => (quote ? quoted(v as string) : String(v));
  if (operator === 'between') return `${one(value[0])} and ${one(value[1])}`;
  if (operator === 'in') return value.map(one).join(', ');
  return one(value);
}

function conditionSummary(node: Extract<FilterNode, { op: 'condition' }>): string {
  const label = attributeLabel(node.attribute);
  const subject = node.withinLastDays === undefined ? label : `${label} in the last ${days(node.withinLastDays)}`;
  const phrase = PHRASES[node.test.operator];
  return 'value' in node.test ? `${subject} ${phrase} ${valueText(node.test, node.attribute.kind === 'text')}` : `${subject} ${phrase}`;
}
