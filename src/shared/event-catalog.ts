import type { Locale } from '../i18n/locale.js';

/**
 * The built-in business event types (facts page, "Business event types"), named `<category>_<action>`,
 * with their translated titles. Events of any other (custom) type have an empty title.
 */
export const EVENT_TYPES = {
  user_login_log: { en: 'Login', es: 'Inicio de sesión' },
  user_logout_log: { en: 'Logout', es: 'Cerrar sesión' },
  user_login_attempt_failed_log: { en: 'Failed login attempt', es: 'Intento de inicio de sesión fallido' },
  user_otp_login_log: { en: 'Login with code', es: 'Inicio de sesión con código' },
  user_signup_log: { en: 'Sign up', es: 'Registro' },
  user_password_reset_log: { en: 'User password reset', es: 'Restaurar contraseña' },
  user_password_changed_log: { en: 'Password changed', es: 'Cambio de contraseña' },
  user_updated_log: { en: 'Profile updated', es: 'Perfil actualizado' },
  notification_opened_log: { en: 'Notification opened', es: 'Notificación abierta' },
  form_response_created_log: { en: 'Form answered', es: 'Formulario respondido' },
  origination_submission_started_log: { en: 'Application started', es: 'Solicitud iniciada' },
  origination_submission_completed_log: { en: 'Application completed', es: 'Solicitud completada' },
} as const;

export type BuiltInEventType = keyof typeof EVENT_TYPES;

export const isBuiltInEventType = (type: string): type is BuiltInEventType => Object.hasOwn(EVENT_TYPES, type);

/** The translated title of a type; empty for a custom type. */
export function eventTitle(type: string, locale: Locale = 'en'): string {
  return isBuiltInEventType(type) ? EVENT_TYPES[type][locale] : '';
}

const REALM_LABEL: Record<Locale, string> = { en: 'Realm', es: 'Dominio' };

/** Names the realm where the event happened, as in `Realm: Personal Banking`. */
export function eventDescription(realmName: string, locale: Locale = 'en'): string {
  return `${REALM_LABEL[locale]}: ${realmName}`;
}
