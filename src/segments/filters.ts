import { checkComparison, MAX_DAYS, OPERATORS, type Comparison } from '../db/filters.js';
import { FieldErrors, invalidField } from '../errors/index.js';
import { isPersonal, resolveAttribute, SUBMISSION_STATUSES, type Attribute, type FieldType } from './attributes.js';

/**
 * A segment's filter tree, checked: `{all: [...]}`, `{any: [...]}`, `{not: f}` or a condition
 * `{attribute, operator, value}` (plus `within_last_days` on an event count).
 */
export type FilterNode =
  | { op: 'all' | 'any'; children: FilterNode[] }
  | { op: 'not'; child: FilterNode }
  | { op: 'condition'; attribute: Attribute; test: Test; withinLastDays?: number };

export type Test = { operator: 'is_set' | 'is_not_set' } | Comparison;

/** How big a tree may be: nesting of `all`, `any` and `not` (the root is level 1), and nodes in all. */
export const MAX_DEPTH = 10;
export const MAX_NODES = 200;

const PRESENCE = new Set(['is_set', 'is_not_set']);
const GROUP_KEYS = ['all', 'any', 'not'] as const;
const CONDITION_KEYS = new Set(['attribute', 'operator', 'value', 'within_last_days']);

/**
 * `input` checks a client's tree: every problem is a 422 naming the path of the bad node
 * (`filters.all[2].value`). `stored` reads a tree saved earlier, when the realm's custom fields may
 * have changed since: a condition on a field that is gone, or whose new type does not fit the
 * condition, reads as one on a value nobody has.
 */
export type Reading = 'input' | 'stored';

interface Pending {
  raw: unknown;
  path: string;
  depth: number;
  place(node: FilterNode): void;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a tree with a stack of its own, in one pass that refuses a tree past the limits before
 * walking further into it: a tree ten thousand levels deep or wide costs a few steps, not the stack.
 */
export function parseFilters(raw: unknown, fields: readonly FieldType[], reading: Reading = 'input', root = 'filters'): FilterNode {
  const errors = new FieldErrors();
  let result: FilterNode | null = null;
  let nodes = 1;
  const pending: Pending[] = [{ raw, path: root, depth: 1, place: (node) => { result = node; } }];
  const tooBig = () => invalidField(root, `has more than ${MAX_NODES} conditions and groups`);
  while (pending.length) {
    const { raw: value, path, depth, place } = pending.pop()!;
    if (!isObject(value)) {
      errors.add(path, 'must be an object with all, any, not or attribute');
      continue;
    }
    const group = GROUP_KEYS.find((key) => Object.hasOwn(value, key));
    if (!group) {
      const condition = parseCondition(value, path, fields, reading, errors);
      if (condition) place(condition);
      continue;
    }
    const extra = Object.keys(value).find((key) => key !== group);
    if (extra !== undefined) {
      errors.add(`${path}.${extra}`, `is not allowed beside ${group}`);
      continue;
    }
    const inner = value[group];
    if (depth >= MAX_DEPTH) throw invalidField(`${path}.${group}`, `nests more than ${MAX_DEPTH} levels deep`);
    if (group === 'not') {
      if (++nodes > MAX_NODES) throw tooBig();
      const node: FilterNode = { op: 'not', child: null as unknown as FilterNode };
      place(node);
      pending.push({ raw: inner, path: `${path}.not`, depth: depth + 1, place: (child) => { node.child = child; } });
      continue;
    }
    if (!Array.isArray(inner)) {
      errors.add(`${path}.${group}`, 'must be a list of conditions and groups');
      continue;
    }
    nodes += inner.length;
    if (nodes > MAX_NODES) throw tooBig();
    const node: FilterNode = { op: group, children: new Array<FilterNode>(inner.length) };
    place(node);
    for (let i = inner.length - 1; i >= 0; i--) {
      pending.push({ raw: inner[i], path: `${path}.${group}[${i}]`, depth: depth + 1, place: (child) => { node.children[i] = child; } });
    }
  }
  errors.throwIfAny();
  return result!;
}

/** Whether some condition of a checked tree reads a personal attribute (see `isPersonal`). */
export function namesPersonalData(tree: FilterNode): boolean {
  const pending = [tree];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.op === 'condition' && isPersonal(node.attribute)) return true;
    if (node.op === 'not') pending.push(node.child);
    else if (node.op !== 'condition') pending.push(...node.children);
  }
  return false;
}

/** An exact comparison of submission statuses names only statuses that exist: a typo would silently match nobody. */
function knownStatuses(comparison: Comparison): boolean {
  const { operator, value } = comparison;
  if (operator === 'in') return (value as string[]).every((v) => SUBMISSION_STATUSES.includes(v));
  return operator === 'eq' || operator === 'neq' ? SUBMISSION_STATUSES.includes(value as string) : true;
}

const REMOVED = (key: string): Attribute => ({ source: 'removed_field', key, kind: null });

function parseCondition(
  value: Record<string, unknown>, path: string, fields: readonly FieldType[], reading: Reading, errors: FieldErrors,
): FilterNode | null {
  const before = errors.all.length;
  for (const key of Object.keys(value)) {
    if (!CONDITION_KEYS.has(key)) errors.add(`${path}.${key}`, 'is not a known key: a condition has attribute, operator, value and, on an event count, within_last_days');
  }
  const name = value.attribute;
  const operator = value.operator;
  if (typeof name !== 'string') errors.add(`${path}.attribute`, 'must be a text naming an attribute');
  if (typeof operator !== 'string') errors.add(`${path}.operator`, 'must be a text naming an operator');
  if (typeof name !== 'string' || typeof operator !== 'string') return null;
  let attribute = resolveAttribute(name, fields);
  const storedField = reading === 'stored' && name.startsWith('custom_fields.');
  if (!attribute) {
    if (!storedField) {
      errors.add(`${path}.attribute`, name.startsWith('custom_fields.') ? 'is not a custom field of this realm' : 'is not a known attribute');
      return null;
    }
    attribute = REMOVED(name.slice('custom_fields.'.length));
  }
  const withinLastDays = value.within_last_days;
  if (withinLastDays !== undefined) {
    if (attribute.source !== 'event_count') errors.add(`${path}.within_last_days`, 'applies only to an event count (events.<type>.count)');
    else if (!Number.isInteger(withinLastDays) || (withinLastDays as number) < 1 || (withinLastDays as number) > MAX_DAYS) {
      errors.add(`${path}.within_last_days`, `must be a whole number of days from 1 to ${MAX_DAYS}`);
    }
  }
  let test: Test | null = null;
  if (PRESENCE.has(operator)) {
    if (value.value !== undefined && value.value !== null) errors.add(`${path}.value`, `must be left out for ${operator}`);
    else test = { operator: operator as 'is_set' | 'is_not_set' };
  } else if (attribute.kind !== null) {
    const allowed: readonly string[] = OPERATORS[attribute.kind];
    if (!allowed.includes(operator)) {
      if (storedField) attribute = REMOVED(name.slice('custom_fields.'.length));
      else errors.add(`${path}.operator`, `must be one of ${[...allowed, ...PRESENCE].join(', ')} for ${name}`);
    }
    if (attribute.kind !== null) {
      const checked = checkComparison(attribute.kind, operator, value.value);
      if (checked.ok && attribute.source === 'submission_status' && !knownStatuses(checked.comparison)) {
        errors.add(`${path}.value`, `must name statuses among ${SUBMISSION_STATUSES.join(', ')}`);
      } else if (checked.ok) test = checked.comparison;
      else if (storedField) attribute = REMOVED(name.slice('custom_fields.'.length));
      else if (allowed.includes(operator)) errors.add(`${path}.value`, checked.message);
    }
  }
  if (attribute.source === 'removed_field' && !test) test = { operator: operator === 'is_not_set' ? 'is_not_set' : 'is_set' };
  if (errors.all.length > before || !test) return null;
  return { op: 'condition', attribute, test, ...(attribute.source === 'event_count' && withinLastDays !== undefined ? { withinLastDays: withinLastDays as number } : {}) };
}
