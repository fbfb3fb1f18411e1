import type { MessageKey } from '../../i18n/catalogue';
import type { Translate } from '../../i18n/i18n';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

const STATUS_WORDS: Record<string, MessageKey> = {
  pending: 'identity.delivery_pending', succeeded: 'identity.delivery_succeeded', failed: 'identity.delivery_failed',
};
const OUTCOME_WORDS: Record<string, MessageKey> = {
  succeeded: 'identity.outcome_succeeded', failed: 'identity.outcome_failed', timeout: 'identity.outcome_timeout',
  refused: 'identity.outcome_refused', error: 'identity.outcome_error',
};

const wordOf = (words: Record<string, MessageKey>, code: string, t: Translate) => (Object.hasOwn(words, code) ? t(words[code]!) : code);

/** A webhook delivery's status in words (a status this console does not know yet, as the server says it). */
export const deliveryStatusWord = (status: string, t: Translate) => wordOf(STATUS_WORDS, status, t);

/** An attempt's outcome in words. */
export const attemptOutcomeWord = (outcome: string, t: Translate) => wordOf(OUTCOME_WORDS, outcome, t);
