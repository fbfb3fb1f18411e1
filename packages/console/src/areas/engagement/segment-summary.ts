import type { Translate } from '../../i18n/i18n';
import type { SegmentField } from './segment-fields';
import { operatorLabel } from './segment-operators';
import type { Condition, SegmentTree } from './segment-query';

/**
 * A filter tree in the console's language, with the builder's own words: `Email contains "ana" y (País es "Chile" o …)`.
 * A group inside another is put in parentheses when it has more than one member (as the server's English summary does).
 */
export function segmentSummary(tree: SegmentTree, fields: readonly SegmentField[], t: Translate): string {
  const member = (node: SegmentTree): string => {
    const text = summary(node);
    const size = 'all' in node ? node.all.length : 'any' in node ? node.any.length : 0;
    return size > 1 ? `(${text})` : text;
  };
  const summary = (node: SegmentTree): string => {
    if ('all' in node) return node.all.length ? node.all.map(member).join(` ${t('engagement.sumAnd')} `) : t('engagement.sumEveryUser');
    if ('any' in node) return node.any.length ? node.any.map(member).join(` ${t('engagement.sumOr')} `) : t('engagement.sumNoUser');
    if ('not' in node) return `${t('engagement.sumNot')} ${member(node.not)}`;
    return conditionSummary(node, fields.find((field) => field.name === node.attribute), t);
  };
  return summary(tree);
}

/** An attribute the realm's fields do not name (not read yet, or not readable by this member): its key, or its event type's. */
function keyLabel(attribute: string, t: Translate): string {
  const event = /^events\.(.+)\.(count|last_at)$/.exec(attribute);
  if (event) return t(event[2] === 'count' ? 'engagement.eventCount' : 'engagement.eventLastAt', { event: event[1]! });
  return attribute.replace(/^custom_fields\./, '');
}

function conditionSummary(condition: Condition, field: SegmentField | undefined, t: Translate): string {
  const label = field ? String(field.label) : keyLabel(condition.attribute, t);
  const subject = condition.within_last_days === undefined ? label : `${label} ${t('engagement.inLastDays', { count: String(condition.within_last_days) })}`;
  const words = (value: unknown) => field?.choices?.find((choice) => choice.value === value)?.label ?? String(value);
  const one = (value: unknown) => (typeof value === 'boolean' ? t(value ? 'engagement.yes' : 'engagement.no')
    : field?.kind === 'text' ? `"${words(value)}"` : String(value));
  const { operator, value } = condition;
  if (operator === 'within_last_days') return t('engagement.sumWithinLastDays', { subject, count: String(value) });
  const phrase = `${subject} ${operatorLabel(t, operator)}`;
  if (!('value' in condition)) return phrase;
  if (operator === 'between' && Array.isArray(value)) return `${phrase} ${t('engagement.sumBetween', { low: one(value[0]), high: one(value[1]) })}`;
  if (Array.isArray(value)) return `${phrase} ${value.map(one).join(', ')}`;
  return `${phrase} ${one(value)}`;
}
