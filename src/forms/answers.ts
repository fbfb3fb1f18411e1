import { AppError, invalid, type FieldError } from '../errors/index.js';
import type { FormRow, StoredField, StoredFile } from '../tables/forms.js';
import { compilePattern, isEmail } from './definition.js';
import { FORM_LIMITS } from './schema.js';
import { formTexts, type FormTexts } from './texts.js';

/** What a door hands over: answers by field name (JSON values, or the strings of a form post) and the file it received. */
export interface RawAnswers {
  values: Record<string, unknown>;
  /** The file field's received file (the hosted page only). */
  file?: { field: string; stored: StoredFile };
  /** JSON doors: a name that is no field is refused; a page post carries other parts (token, honeypot). */
  strict: boolean;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const NUMBER = /^-?\d{1,15}(?:\.\d{1,10})?$/;
const TRUE = new Set(['true', 'on', '1', 'yes']);
const FALSE = new Set(['false', 'off', '0', 'no', '']);

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
  || (Array.isArray(value) && value.length === 0);

type Checked = { value?: unknown; error?: string };

function checkText(field: StoredField, raw: unknown, t: FormTexts): Checked {
  if (typeof raw !== 'string') return { error: t.notText };
  const value = raw.trim();
  const max = field.max_length ?? (field.type === 'long_text' ? FORM_LIMITS.longText : FORM_LIMITS.text);
  if (value.length > max) return { error: t.tooLong(max) };
  if (field.min_length !== undefined && value.length < field.min_length) return { error: t.tooShort(field.min_length) };
  if (field.type === 'email' && !isEmail(value)) return { error: t.notEmail };
  if (field.pattern !== undefined) {
    const regex = compilePattern(field.pattern);
    if (typeof regex === 'string' || !regex.test(value)) return { error: t.noMatch };
  }
  return { value: field.type === 'email' ? value.toLowerCase() : value };
}

function checkValue(field: StoredField, raw: unknown, t: FormTexts): Checked {
  switch (field.type) {
    case 'text': case 'long_text': case 'email':
      return checkText(field, raw, t);
    case 'number': {
      const value = typeof raw === 'number' ? raw : typeof raw === 'string' && NUMBER.test(raw.trim()) ? Number(raw.trim()) : NaN;
      if (!Number.isFinite(value)) return { error: t.notNumber };
      if (field.min !== undefined && value < field.min) return { error: t.tooSmall(field.min) };
      if (field.max !== undefined && value > field.max) return { error: t.tooLarge(field.max) };
      return { value };
    }
    case 'date': {
      const match = typeof raw === 'string' ? DATE.exec(raw.trim()) : null;
      const date = match && new Date(Date.UTC(+match[1], +match[2] - 1, +match[3]));
      if (!match || !date || date.getUTCDate() !== +match[3] || date.getUTCMonth() !== +match[2] - 1) return { error: t.notDate };
      return { value: match[0] };
    }
    case 'single_choice':
      return typeof raw === 'string' && field.options!.some((o) => o.value === raw) ? { value: raw } : { error: t.notOption };
    case 'multiple_choice': {
      const list = Array.isArray(raw) ? raw : [raw];
      if (list.some((v) => typeof v !== 'string' || !field.options!.some((o) => o.value === v))) return { error: t.notOption };
      const value = field.options!.map((o) => o.value).filter((v) => list.includes(v));
      if (field.min !== undefined && value.length < field.min) return { error: t.fewChoices(field.min) };
      if (field.max !== undefined && value.length > field.max) return { error: t.manyChoices(field.max) };
      return { value };
    }
    default: {
      const value = typeof raw === 'boolean' ? raw : typeof raw === 'string' && TRUE.has(raw.toLowerCase()) ? true
        : typeof raw === 'string' && FALSE.has(raw.toLowerCase()) ? false : undefined;
      return value === undefined ? { error: t.notBoolean } : { value };
    }
  }
}

/** Whether a condition's answer holds the value it waits for (any answer when it names none). */
function holds(answer: unknown, wanted: string | undefined): boolean {
  if (answer === undefined || answer === false) return false;
  if (wanted === undefined) return true;
  if (Array.isArray(answer)) return answer.includes(wanted);
  return String(answer) === wanted;
}

/** A label in the locale, else the default one's. */
export const labelOf = (labels: Record<string, string>, locale: string, fallback: string) => labels[locale] || labels[fallback] || '';

/**
 * Checks the answers against the form's fields in order: a field whose condition does not hold is
 * hidden, its answer dropped and its rules not applied (the hosted page sends hidden fields too, since
 * it works without JavaScript). Answers the stored answers, or throws one 422 naming every field at fault,
 * in the respondent's language.
 */
export function checkAnswers(form: FormRow, raw: RawAnswers, locale: string): Record<string, unknown> {
  const t = formTexts(locale);
  const answers: Record<string, unknown> = Object.create(null);
  const details: FieldError[] = [];
  const fail = (field: StoredField, message: string) => details.push({ field: field.name, messages: [message] });
  const own = (name: string) => (Object.hasOwn(raw.values, name) ? raw.values[name] : undefined);
  if (raw.strict) {
    for (const name of Object.keys(raw.values)) if (!form.fields.some((f) => f.name === name)) details.push({ field: name, messages: [t.unknownField] });
  }
  for (const field of form.fields) {
    if (field.show_if && !holds(answers[field.show_if.field], field.show_if.value)) continue;
    if (field.type === 'file') {
      if (raw.strict && !blank(own(field.name))) fail(field, t.fileOnPage);
      else if (raw.file?.field === field.name) answers[field.name] = { name: raw.file.stored.name, size: raw.file.stored.size, content_type: raw.file.stored.content_type };
      else if (field.required) fail(field, raw.strict ? t.fileOnPage : t.blank);
      continue;
    }
    const value = own(field.name);
    const boolean = field.type === 'checkbox' || field.type === 'consent';
    if (blank(value) && !boolean) {
      if (field.required) fail(field, t.blank);
      continue;
    }
    const checked = checkValue(field, boolean && blank(value) ? false : value, t);
    if (checked.error) fail(field, checked.error);
    else if (boolean && field.required && checked.value !== true) fail(field, t.mustAccept);
    else answers[field.name] = checked.value;
  }
  if (details.length) {
    const base = invalid(details);
    const labelled = details.map((d) => {
      const field = form.fields.find((f) => f.name === d.field);
      return `${field ? labelOf(field.labels, locale, form.defaultLocale) : d.field}: ${d.messages.join(', ')}`;
    });
    throw new AppError({ code: base.code, kind: base.kind, description: '' }, labelled, { details });
  }
  return answers;
}

/** The respondent's address: the confirmation field's answer, else the first email field's. */
export function respondentEmail(form: FormRow, answers: Record<string, unknown>): string | null {
  const field = form.confirmationField ?? form.fields.find((f) => f.type === 'email' && typeof answers[f.name] === 'string')?.name;
  const value = field ? answers[field] : undefined;
  return typeof value === 'string' ? value : null;
}
