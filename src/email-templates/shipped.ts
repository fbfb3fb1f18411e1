import type { Locale } from '../i18n/locale.js';
import type { TemplateKind } from './kinds.js';

/** One language of a template, in Liquid. An empty `html` sends the text alone. */
export interface LocaleContent {
  subject: string;
  html: string;
  text: string;
}

/** A template: its HTML body's format and its content in every language. */
export interface TemplateContent {
  format: 'html' | 'mjml';
  locales: Record<Locale, LocaleContent>;
}

/**
 * The text, paragraphs apart by a blank line, exactly as the mails were written before templates; no HTML
 * part (an admin who wants one writes it), so a mail nobody customized reads as it always has.
 */
const mail = (subject: string, ...paragraphs: string[]): LocaleContent => ({ subject, text: `${paragraphs.join('\n\n')}\n`, html: '' });

const STYLE = 'body { margin: 0; padding: 24px; font-family: Arial, Helvetica, sans-serif; }';

const R = '{{ realm.name }}';

const FORM_EN = {
  notification: mail('New response to {{ form.name }}',
    'A new response to {{ form.name }} arrived{% if response.email %} from {{ response.email }}{% endif %}.',
    '{% for answer in response.answers %}{{ answer.label }}: {{ answer.value }}\n{% endfor %}'),
  confirmation: mail('We received your response to {{ form.name }}',
    'Thank you: we received your response to {{ form.name }}.',
    '{% for answer in response.answers %}{{ answer.label }}: {{ answer.value }}\n{% endfor %}'),
};
const FORM_ES = {
  notification: mail('Nueva respuesta a {{ form.name }}',
    'Llegó una nueva respuesta a {{ form.name }}{% if response.email %} de {{ response.email }}{% endif %}.',
    '{% for answer in response.answers %}{{ answer.label }}: {{ answer.value }}\n{% endfor %}'),
  confirmation: mail('Recibimos tu respuesta a {{ form.name }}',
    'Gracias: recibimos tu respuesta a {{ form.name }}.',
    '{% for answer in response.answers %}{{ answer.label }}: {{ answer.value }}\n{% endfor %}'),
};

const LAYOUT: LocaleContent = {
  subject: '',
  text: '',
  html: `<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<style>\n${STYLE}\n</style>\n</head>\n<body>\n{{ content | raw }}\n</body>\n</html>\n`,
};

/** The wording of every mail before templates existed, in English and Spanish: what a kind sends with no template saved. */
export const SHIPPED: Record<TemplateKind, TemplateContent> = {
  one_time_code: {
    format: 'html',
    locales: {
      en: mail(`Your ${R} sign-in code`, `Your sign-in code for ${R} is {{ code }}.`,
        'It is valid for {{ valid_for }} and works once. If you did not ask for it, you can ignore this mail.'),
      es: mail(`Tu código de inicio de sesión de ${R}`, `Tu código de inicio de sesión de ${R} es {{ code }}.`,
        'Es válido durante {{ valid_for }} y funciona una sola vez. Si no lo pediste, puedes ignorar este correo.'),
    },
  },
  password_reset: {
    format: 'html',
    locales: {
      en: mail(`Reset your ${R} password`, `To choose a new password for ${R}, open this link:`, '{{ url }}',
        'It is valid for {{ valid_for }} and works once. If you did not ask for it, you can ignore this mail: your password stays as it is.'),
      es: mail(`Restaurar contraseña de ${R}`, `Para elegir una nueva contraseña de ${R}, abre este enlace:`, '{{ url }}',
        'Es válido durante {{ valid_for }} y funciona una sola vez. Si no lo pediste, puedes ignorar este correo: tu contraseña no cambia.'),
    },
  },
  activation: {
    format: 'html',
    locales: {
      en: mail(`Confirm your ${R} account`, `To confirm your email address and activate your ${R} account, open this link:`, '{{ url }}',
        'It is valid for {{ valid_for }} and works once. If you did not create this account, you can ignore this mail.'),
      es: mail(`Confirma tu cuenta de ${R}`, `Para confirmar tu dirección de correo electrónico y activar tu cuenta de ${R}, abre este enlace:`, '{{ url }}',
        'Es válido durante {{ valid_for }} y funciona una sola vez. Si no creaste esta cuenta, puedes ignorar este correo.'),
    },
  },
  invitation: {
    format: 'html',
    locales: {
      en: mail(`You are invited to ${R}`, `You are invited to create a ${R} account with this address. To create it, open this link:`, '{{ url }}',
        'It is valid for {{ valid_for }} and works once. If you do not want an account, you can ignore this mail.'),
      es: mail(`Invitación a ${R}`, `Te invitaron a crear una cuenta de ${R} con esta dirección. Para crearla, abre este enlace:`, '{{ url }}',
        'Es válido durante {{ valid_for }} y funciona una sola vez. Si no quieres una cuenta, puedes ignorar este correo.'),
    },
  },
  email_change: {
    format: 'html',
    locales: {
      en: mail(`Confirm your new ${R} email address`, `To make this the email address of your ${R} account, open this link:`, '{{ url }}',
        'It is valid for {{ valid_for }} and works once. If you did not ask for it, you can ignore this mail: nothing changes.'),
      es: mail(`Confirma tu nueva dirección de correo electrónico de ${R}`,
        `Para que esta sea la dirección de correo electrónico de tu cuenta de ${R}, abre este enlace:`, '{{ url }}',
        'Es válido durante {{ valid_for }} y funciona una sola vez. Si no lo pediste, puedes ignorar este correo: no cambia nada.'),
    },
  },
  email_change_notice: {
    format: 'html',
    locales: {
      en: mail(`A change of your ${R} email address was requested`,
        `Someone signed in to your ${R} account asked to change its email address to {{ new_email }}.`,
        'Nothing changes unless the link we sent to that address is opened within {{ valid_for }}. If it was not you, choose a new password '
          + 'from the sign-in page ("Forgot your password?"): that signs everyone else out and cancels the change if its link was not used yet.'),
      es: mail(`Se pidió cambiar tu dirección de correo electrónico de ${R}`,
        `Alguien con la sesión iniciada en tu cuenta de ${R} pidió cambiar su dirección de correo electrónico a {{ new_email }}.`,
        'No cambia nada salvo que se abra en {{ valid_for }} el enlace que enviamos a esa dirección. Si no fuiste tú, elige una contraseña nueva '
          + 'desde la página de inicio de sesión ("¿Olvidaste tu contraseña?"): eso cierra las demás sesiones y anula el cambio si su enlace aún no se usó.'),
    },
  },
  member_invitation: {
    format: 'html',
    locales: {
      en: mail('You are invited to {{ account.name }}', 'You are invited to the team of {{ account.name }}. To accept, open this link:', '{{ url }}',
        'It is valid for {{ valid_for }} and works once.'),
      es: mail('Invitación a {{ account.name }}', 'Te invitaron al equipo de {{ account.name }}. Para aceptar, abre este enlace:', '{{ url }}',
        'Es válido durante {{ valid_for }} y funciona una sola vez.'),
    },
  },
  form_notification: { format: 'html', locales: { en: FORM_EN.notification, es: FORM_ES.notification } },
  form_confirmation: { format: 'html', locales: { en: FORM_EN.confirmation, es: FORM_ES.confirmation } },
  campaign_layout: { format: 'html', locales: { en: LAYOUT, es: LAYOUT } },
};
