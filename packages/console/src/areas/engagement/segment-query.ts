/**
 * Atrium's segment filter tree ↔ react-querybuilder's query, as two pure functions (no React, no I/O).
 * A group maps to a rule group ({all} → "and", {any} → "or"); {not: group} sets the group's `not`;
 * a condition maps to a rule. A negated condition, or a bare condition at the root, is wrapped in a
 * one-rule group, which reads back as {all: [condition]}: the same users match.
 */

export interface Condition {
  attribute: string;
  operator: string;
  value?: unknown;
  within_last_days?: number;
}
export type SegmentTree = { all: SegmentTree[] } | { any: SegmentTree[] } | { not: SegmentTree } | Condition;

export interface Rule {
  id?: string;
  field: string;
  operator: string;
  value: unknown;
  within_last_days?: number;
}
export interface RuleGroup {
  id?: string;
  combinator: string;
  not?: boolean;
  rules: (Rule | RuleGroup)[];
}

/** Operators that take no value. */
export const valuelessOperators: ReadonlySet<string> = new Set(['is_set', 'is_not_set']);

const isGroup = (node: Rule | RuleGroup): node is RuleGroup => 'rules' in node;

/** Every condition of a query, groups flattened, in order. */
export const rulesOf = (group: RuleGroup): Rule[] => group.rules.flatMap((node) => (isGroup(node) ? rulesOf(node) : [node]));

function toRule(condition: Condition): Rule {
  const rule: Rule = { field: condition.attribute, operator: condition.operator, value: condition.value ?? '' };
  if (condition.within_last_days !== undefined) rule.within_last_days = condition.within_last_days;
  return rule;
}

function toNode(tree: SegmentTree): Rule | RuleGroup {
  if ('attribute' in tree) return toRule(tree);
  return toQuery(tree);
}

/** The query the builder edits for a segment tree (always a group at the root). */
export function toQuery(tree: SegmentTree): RuleGroup {
  if ('all' in tree) return { combinator: 'and', rules: tree.all.map(toNode) };
  if ('any' in tree) return { combinator: 'or', rules: tree.any.map(toNode) };
  if ('not' in tree) return { ...toQuery(tree.not), not: true };
  return { combinator: 'and', rules: [toRule(tree)] };
}

function toCondition(rule: Rule): Condition {
  const condition: Condition = { attribute: rule.field, operator: rule.operator };
  if (!valuelessOperators.has(rule.operator)) condition.value = rule.value;
  if (rule.within_last_days !== undefined) condition.within_last_days = rule.within_last_days;
  return condition;
}

/** The segment tree the server takes for the builder's query. */
export function toTree(query: RuleGroup): SegmentTree {
  const children = query.rules.map((node) => (isGroup(node) ? toTree(node) : toCondition(node)));
  const group: SegmentTree = query.combinator === 'or' ? { any: children } : { all: children };
  return query.not ? { not: group } : group;
}

/** The builder path ([1, 0]) of the node a 422 names (`filters.all[1].any[0].value`). */
export function pathOfField(field: string): number[] | null {
  if (!field.startsWith('filters')) return null;
  return [...field.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
}
