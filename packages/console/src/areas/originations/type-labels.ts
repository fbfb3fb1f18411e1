import { useI18n } from '../../i18n/i18n';
import type { MessageKey } from '../../i18n/catalogue';

const TASK: Record<string, MessageKey> = {
  input: 'originations.taskInput', pending_review: 'originations.taskPendingReview', validation: 'originations.taskValidation', confirmation: 'originations.taskConfirmation',
};
const QUESTION: Record<string, MessageKey> = {
  text: 'originations.questionText', number: 'originations.questionNumber', date: 'originations.questionDate', choice: 'originations.questionChoice', file: 'originations.questionFile',
};
const STATUS: Record<string, MessageKey> = {
  not_started: 'originations.statusNotStarted', pending: 'originations.statusPending', completed: 'originations.statusCompleted', canceled: 'originations.statusCanceled',
};

/** The translated names of task types, question types and statuses; an unknown value shows as it is. */
export function useTypeLabels() {
  const { t } = useI18n();
  const label = (keys: Record<string, MessageKey>) => (value: string) => (keys[value] ? t(keys[value]) : value);
  return { taskType: label(TASK), questionType: label(QUESTION), status: label(STATUS) };
}

/** A status badge's colour (dark enough for the contrast of its white text). */
export const STATUS_COLORS: Record<string, string> = { not_started: 'gray.7', pending: 'blue.8', completed: 'teal.9', canceled: 'red.9' };
