import type { MessageKey } from '../../i18n/catalogue';
import type { Translate } from '../../i18n/i18n';

/** The built-in event types (src/shared/event-catalog.ts) in words; a custom type has only its key. */
const WORDS: Record<string, MessageKey> = {
  user_login_log: 'realms.event_user_login_log',
  user_logout_log: 'realms.event_user_logout_log',
  user_login_attempt_failed_log: 'realms.event_user_login_attempt_failed_log',
  user_otp_login_log: 'realms.event_user_otp_login_log',
  user_signup_log: 'realms.event_user_signup_log',
  user_password_reset_log: 'realms.event_user_password_reset_log',
  user_password_changed_log: 'realms.event_user_password_changed_log',
  user_updated_log: 'realms.event_user_updated_log',
  notification_opened_log: 'realms.event_notification_opened_log',
  form_response_created_log: 'realms.event_form_response_created_log',
  origination_submission_started_log: 'realms.event_origination_submission_started_log',
  origination_submission_completed_log: 'realms.event_origination_submission_completed_log',
};

/** A built-in event type's words; null for a custom type (its key is its name). */
export const eventTypeWord = (type: string, t: Translate): string | null => (Object.hasOwn(WORDS, type) ? t(WORDS[type]!) : null);
