import type { FastifyRequest } from 'fastify';
import { preferredLocale } from '../i18n/locale.js';
import type { Customer } from '../realms/credential.js';
import type { FormRow } from '../tables/forms.js';
import { HONEYPOT } from './definition.js';
import type { FormWithRealm } from './forms.js';
import type { Submission } from './respond.js';
import { issueFormToken } from './tokens.js';
import type { Context } from '../context.js';

/** The language a respondent reads: `?locale` (or the body's) when the form has it, else Accept-Language among the form's, else its default. */
export function respondentLocale(form: FormRow, request: FastifyRequest, named?: unknown): string {
  const asked = named ?? (request.query as { locale?: unknown } | undefined)?.locale;
  if (typeof asked === 'string' && form.locales.includes(asked)) return asked;
  const preferred = preferredLocale(request.headers['accept-language'], form.defaultLocale === 'es' ? 'es' : 'en');
  return form.locales.includes(preferred) ? preferred : form.defaultLocale;
}

/** The signed-in user of a customers door, as a submission carries it. */
export const respondent = (customer: Customer): Submission['user'] => ({
  id: customer.user.id, email: customer.user.email, realmId: customer.realm.id, realmName: customer.realm.name,
});

/** A form as a front end renders it, with a fresh token. */
export function publicForm(ctx: Context, { form }: FormWithRealm, locale: string, userId: number | null) {
  return {
    uid: form.uid, name: form.name, locale, locales: form.locales, fields: form.fields, steps: form.steps, honeypot: HONEYPOT,
    token: issueFormToken(ctx, form.id, userId), closes_at: form.closesAt?.toISOString() ?? null,
  };
}

/** A JSON door's body as a submission: the answers, the token, the honeypot. */
export function jsonSubmission(request: FastifyRequest, body: { answers: Record<string, unknown>; token?: string } & Record<string, unknown>, locale: string, user: Submission['user']): Submission {
  return {
    values: body.answers, strict: true, token: body.token, honeypot: Object.hasOwn(body, HONEYPOT) ? body[HONEYPOT] : undefined,
    ip: request.ip, user, locale,
  };
}
