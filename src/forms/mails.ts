import type { Mail } from '../mail/mail.js';
import { formTexts } from './texts.js';

/**
 * The variables of the two form mails, named as the email-templates kinds `form_notification` and
 * `form_confirmation` name them: when those land, these texts become their shipped defaults.
 */
export interface FormMailVariables {
  form: { name: string; uid: string };
  response: { id: number; submitted_at: string; email: string | null; answers: { label: string; value: string }[] };
  realm: { uid: string; name: string } | null;
}

const listing = (answers: FormMailVariables['response']['answers']) => answers.map((a) => `${a.label}: ${a.value}`).join('\n');

/** To the form's notification addresses: a response was received (never sent for spam). */
export function notificationMail(to: string, v: FormMailVariables, locale: string): Mail {
  const t = formTexts(locale);
  const realm = v.realm ? `\n${v.realm.name} (${v.realm.uid})` : '';
  return {
    to,
    subject: t.notificationSubject(v.form.name),
    text: `${t.notificationIntro(v.form.name, v.response.submitted_at)}${realm}\n\n${listing(v.response.answers)}\n\n#${v.response.id} · ${v.form.uid}\n`,
  };
}

/** To the respondent, in the language they answered in. */
export function confirmationMail(to: string, v: FormMailVariables, locale: string): Mail {
  const t = formTexts(locale);
  return { to, subject: t.confirmationSubject(v.form.name), text: `${t.confirmationIntro(v.form.name)}\n\n${listing(v.response.answers)}\n` };
}
