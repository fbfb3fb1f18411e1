import type { AdminComponents } from '@atrium/client';
import type { MessageKey } from '../../i18n/catalogue';
import type { Form } from './forms-page';

export type FormField = AdminComponents['schemas']['FormField'];
export type FieldType = FormField['type'];

export const FIELD_TYPES: { value: FieldType; label: MessageKey }[] = [
  { value: 'text', label: 'forms.typeText' }, { value: 'long_text', label: 'forms.typeLongText' },
  { value: 'email', label: 'forms.typeEmail' }, { value: 'number', label: 'forms.typeNumber' },
  { value: 'date', label: 'forms.typeDate' }, { value: 'single_choice', label: 'forms.typeSingleChoice' },
  { value: 'multiple_choice', label: 'forms.typeMultipleChoice' }, { value: 'checkbox', label: 'forms.typeCheckbox' },
  { value: 'consent', label: 'forms.typeConsent' }, { value: 'file', label: 'forms.typeFile' },
];
export const FORM_LOCALES = ['en', 'es'];
export const TEXT_TYPES: FieldType[] = ['text', 'long_text', 'email'];
export const CHOICE_TYPES: FieldType[] = ['single_choice', 'multiple_choice'];

/** A field as the builder edits it: its choices as text (one a line) and the index of its step. */
export interface DraftField extends Omit<FormField, 'options'> { choices: string; step: number }

/** The form as the builder edits it; dates in the datetime-local format, the confirmation as one choice. */
export interface Draft {
  uid: string; name: string; realm_uid: string | null; access: Form['access']; default_locale: string; locales: string[];
  fields: DraftField[]; steps: { labels: Record<string, string> }[]; success_message: Record<string, string>;
  redirect_url: string; opens_at: string; closes_at: string; max_responses: number | undefined; notify_emails: string[];
  /** `none`, `user` (the signed-in user) or `field:<name>`. */
  confirmation: string; min_fill_seconds: number; rate_limit_per_hour: number; active: boolean;
}

/** `2026-01-02T03:04` in local time from an ISO instant, and back. */
const pad = (n: number) => String(n).padStart(2, '0');
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : null);

/** Choices as text: `value = label en | label es`, one a line, in the form's locale order. */
function choicesText(options: FormField['options'], locales: string[]): string {
  return (options ?? []).map((option) => `${option.value} = ${locales.map((locale) => option.labels[locale] ?? '').join(' | ')}`).join('\n');
}
function parseChoices(text: string, locales: string[]): NonNullable<FormField['options']> {
  return text.split('\n').map((line) => line.trim()).filter(Boolean).map((line) => {
    const [value, labelText = value] = line.split('=').map((part) => part.trim());
    const labels = (labelText ?? value!).split('|').map((label) => label.trim());
    return { value: value!, labels: Object.fromEntries(locales.map((locale, i) => [locale, labels[i] || labels[0] || value!])) };
  });
}

export function draftOf(form: Form | undefined): Draft {
  const locales = form ? [form.default_locale, ...form.locales.filter((l) => l !== form.default_locale)] : ['en'];
  const stepOf = (name: string) => Math.max(0, (form?.steps ?? []).findIndex((step) => step.fields.includes(name)));
  return {
    uid: form?.uid ?? '', name: form?.name ?? '', realm_uid: form?.realm_uid ?? null, access: form?.access ?? 'public',
    default_locale: form?.default_locale ?? 'en', locales,
    fields: (form?.fields ?? []).map(({ options, ...field }) => ({ ...field, choices: choicesText(options, locales), step: stepOf(field.name) })),
    steps: (form?.steps ?? []).map((step) => ({ labels: step.labels })), success_message: form?.success_message ?? {},
    redirect_url: form?.redirect_url ?? '', opens_at: toLocalInput(form?.opens_at ?? null), closes_at: toLocalInput(form?.closes_at ?? null),
    max_responses: form?.max_responses ?? undefined, notify_emails: form?.notify_emails ?? [],
    confirmation: !form?.confirmation ? 'none' : form.confirmation.email_field ? `field:${form.confirmation.email_field}` : 'user',
    min_fill_seconds: form?.spam.min_fill_seconds ?? 3, rate_limit_per_hour: form?.spam.rate_limit_per_hour ?? 10, active: form?.active ?? true,
  };
}

const nonEmpty = (map: Record<string, string> | undefined, locales: string[]) =>
  Object.fromEntries(locales.filter((locale) => map?.[locale]?.trim()).map((locale) => [locale, map![locale]!.trim()]));

/** The body the API takes: fields ordered by step, empty texts left out; uid and realm only when creating. */
export function bodyOf(draft: Draft, creating: boolean) {
  const locales = [draft.default_locale, ...draft.locales.filter((l) => l !== draft.default_locale)];
  const stepCount = draft.steps.length;
  const ordered = stepCount ? [...draft.fields].sort((a, b) => Math.min(a.step, stepCount - 1) - Math.min(b.step, stepCount - 1)) : draft.fields;
  const fields: FormField[] = ordered.map(({ choices, step: _step, help, show_if, ...field }) => {
    const helpTexts = nonEmpty(help, locales);
    return {
      ...field, labels: nonEmpty(field.labels, locales),
      ...(Object.keys(helpTexts).length ? { help: helpTexts } : {}),
      ...(show_if?.field ? { show_if: show_if.value ? show_if : { field: show_if.field } } : {}),
      ...(CHOICE_TYPES.includes(field.type) ? { options: parseChoices(choices, locales) } : {}),
      ...(field.pattern ? {} : { pattern: undefined }),
    };
  });
  const confirmation = draft.confirmation === 'none' ? null
    : { email_field: draft.confirmation.startsWith('field:') ? draft.confirmation.slice('field:'.length) : null };
  return {
    // No realm is sent as no realm_uid at all: the server coerces a null there into "" (then "not a realm").
    ...(creating ? { uid: draft.uid, ...(draft.realm_uid ? { realm_uid: draft.realm_uid } : {}) } : {}),
    name: draft.name, access: draft.access, default_locale: draft.default_locale, locales, fields,
    steps: draft.steps.map((step, i) => ({
      labels: nonEmpty(step.labels, locales),
      fields: ordered.filter((field) => Math.min(field.step, stepCount - 1) === i).map((field) => field.name),
    })),
    success_message: nonEmpty(draft.success_message, locales), redirect_url: draft.redirect_url.trim() || null,
    opens_at: fromLocalInput(draft.opens_at), closes_at: fromLocalInput(draft.closes_at), max_responses: draft.max_responses ?? null,
    notify_emails: draft.notify_emails, confirmation,
    spam: { min_fill_seconds: draft.min_fill_seconds, rate_limit_per_hour: draft.rate_limit_per_hour }, active: draft.active,
  };
}
