import type { MessageKey } from '../../i18n/catalogue';
import type { Translate } from '../../i18n/i18n';

/** Every operator of the segment filters, with the message that says it in words ("is at least", "es al menos"). */
const OPERATOR_MESSAGES = {
  eq: 'engagement.opEq', neq: 'engagement.opNeq', contains: 'engagement.opContains', starts_with: 'engagement.opStartsWith',
  in: 'engagement.opIn', lt: 'engagement.opLt', gt: 'engagement.opGt', lte: 'engagement.opLte', gte: 'engagement.opGte',
  between: 'engagement.opBetween', before: 'engagement.opBefore', after: 'engagement.opAfter', on: 'engagement.opOn',
  within_last_days: 'engagement.opWithinLastDays', is: 'engagement.opIs', is_set: 'engagement.opIsSet', is_not_set: 'engagement.opIsNotSet',
} as const satisfies Record<string, MessageKey>;

export type Operator = keyof typeof OPERATOR_MESSAGES;

/** An operator in words; one the console does not know (never sent by the server) stays as it is. */
export function operatorLabel(t: Translate, operator: string): string {
  return Object.hasOwn(OPERATOR_MESSAGES, operator) ? t(OPERATOR_MESSAGES[operator as Operator]) : operator;
}
