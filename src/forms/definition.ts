import type { Static } from '@sinclair/typebox';
import { FieldErrors } from '../errors/index.js';
import { linkProblem } from '../http/links.js';
import { isLocale } from '../i18n/locale.js';
import type { StoredField, StoredStep } from '../tables/forms.js';
import { FIELD_TYPES, FORM_LIMITS, type FormInput } from './schema.js';

type Input = Static<typeof FormInput>;
type FieldInput = NonNullable<Input['fields']>[number];

const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@]{1,60}$/;
export const isEmail = (text: string) => text.length <= 254 && EMAIL.test(text);

/** The honeypot's name: never a field's (those are lower case only). */
export const HONEYPOT = 'website_URL';

/**
 * A quantified group that holds a quantifier itself (`(a+)+`, `(\w*)*`, `(a|b+){2,}`) or a backreference:
 * the shapes whose matching time explodes on a crafted text. Refused at save; what is left runs on
 * answers cut to their maximum length (at most 10,000 characters).
 */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*(?:[+*]|\{\d+,?\d*\})\)(?:[+*]|\{\d+,?\d*\})/;
const BACKREFERENCE = /\\[1-9]|\\k</;

const compiled = new Map<string, RegExp>();

/** The pattern compiled once (anchored to the whole answer), or why it is refused. */
export function compilePattern(pattern: string): RegExp | string {
  const known = compiled.get(pattern);
  if (known) return known;
  if (pattern.length > FORM_LIMITS.pattern) return `is too long (maximum is ${FORM_LIMITS.pattern} characters)`;
  if (NESTED_QUANTIFIER.test(pattern) || BACKREFERENCE.test(pattern)) return 'must not nest quantifiers or use backreferences (they can take exponential time)';
  let regex: RegExp;
  try {
    regex = new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return 'is not a valid regular expression';
  }
  if (compiled.size > 1000) compiled.clear();
  compiled.set(pattern, regex);
  return regex;
}

const isChoice = (type: string) => type === 'single_choice' || type === 'multiple_choice';

function checkField(errors: FieldErrors, field: FieldInput, at: string, locales: string[], defaultLocale: string, earlier: Map<string, StoredField>): StoredField {
  if (!FIELD_NAME.test(field.name)) errors.add(`${at}.name`, 'may contain only lower-case letters, digits and "_", starting with a letter (at most 64)');
  else if (earlier.has(field.name)) errors.add(`${at}.name`, 'is used by another field');
  if (!(FIELD_TYPES as readonly string[]).includes(field.type)) errors.add(`${at}.type`, 'is not a field type');
  const localized = (what: string, values: Record<string, string> | undefined, required: boolean) => {
    for (const locale of Object.keys(values ?? {})) if (!locales.includes(locale)) errors.add(`${at}.${what}`, `names ${locale}, which is not a locale of the form`);
    if (required && !values?.[defaultLocale]?.trim()) errors.add(`${at}.${what}`, `needs a text in ${defaultLocale}`);
  };
  localized('labels', field.labels, true);
  localized('help', field.help, false);
  const stored: StoredField = { name: field.name, type: field.type, required: field.type === 'consent' || field.required === true, labels: field.labels };
  if (field.help) stored.help = field.help;
  if (isChoice(field.type)) {
    const options = field.options ?? [];
    if (!options.length) errors.add(`${at}.options`, "can't be blank");
    const values = new Set<string>();
    options.forEach((option, i) => {
      if (!option.value.trim()) errors.add(`${at}.options.${i}.value`, "can't be blank");
      if (values.has(option.value)) errors.add(`${at}.options.${i}.value`, 'is used by another option');
      values.add(option.value);
      localized(`options.${i}.labels`, option.labels, true);
    });
    stored.options = options;
  } else if (field.options?.length) {
    errors.add(`${at}.options`, 'are only for choice fields');
  }
  for (const key of ['min', 'max'] as const) {
    if (field[key] === undefined) continue;
    if (field.type !== 'number' && field.type !== 'multiple_choice') errors.add(`${at}.${key}`, 'is only for number and multiple choice fields');
    else stored[key] = field[key];
  }
  if (stored.min !== undefined && stored.max !== undefined && stored.min > stored.max) errors.add(`${at}.max`, 'must not be less than min');
  const textual = field.type === 'text' || field.type === 'long_text' || field.type === 'email';
  const ceiling = field.type === 'long_text' ? FORM_LIMITS.longText : FORM_LIMITS.text;
  for (const key of ['min_length', 'max_length'] as const) {
    const value = field[key];
    if (value === undefined) continue;
    if (!textual) errors.add(`${at}.${key}`, 'is only for text fields');
    else if (value > ceiling) errors.add(`${at}.${key}`, `must be at most ${ceiling}`);
    else stored[key] = value;
  }
  if (field.pattern !== undefined) {
    const regex = textual ? compilePattern(field.pattern) : 'is only for text fields';
    if (typeof regex === 'string') errors.add(`${at}.pattern`, regex);
    else stored.pattern = field.pattern;
  }
  if (field.show_if) {
    const source = earlier.get(field.show_if.field);
    if (!source) errors.add(`${at}.show_if.field`, 'must name an earlier field');
    else if (source.type === 'file') errors.add(`${at}.show_if.field`, 'cannot be a file field');
    stored.show_if = field.show_if;
  }
  return stored;
}

export interface Definition {
  fields: StoredField[];
  steps: StoredStep[];
}

/**
 * Checks the fields and steps of a form: names unique, labels in the default locale, rules that fit the
 * type, safe patterns, conditions on earlier fields (in step order), at most one file field (a form with
 * one is sent as multipart). Answers them in the order they are shown.
 */
export function checkDefinition(errors: FieldErrors, fieldsInput: FieldInput[], stepsInput: StoredStep[], locales: string[], defaultLocale: string): Definition {
  let ordered = fieldsInput;
  const steps = stepsInput.length ? stepsInput : [{ labels: {}, fields: fieldsInput.map((f) => f.name) }];
  if (stepsInput.length) {
    const byName = new Map(fieldsInput.map((f) => [f.name, f]));
    const placed = stepsInput.flatMap((s) => s.fields);
    if (new Set(placed).size !== placed.length || placed.length !== fieldsInput.length || placed.some((n) => !byName.has(n))) {
      errors.add('steps', 'must place every field in exactly one step');
    } else {
      ordered = placed.map((n) => byName.get(n)!);
    }
    stepsInput.forEach((step, i) => { if (!step.labels[defaultLocale]?.trim()) errors.add(`steps.${i}.labels`, `needs a text in ${defaultLocale}`); });
  }
  const earlier = new Map<string, StoredField>();
  const fields = ordered.map((field) => {
    const stored = checkField(errors, field, `fields.${fieldsInput.indexOf(field)}`, locales, defaultLocale, earlier);
    earlier.set(field.name, stored);
    return stored;
  });
  if (fields.filter((f) => f.type === 'file').length > 1) errors.add('fields', 'may hold one file field at most');
  return { fields, steps };
}

export function checkLocales(errors: FieldErrors, defaultLocale: string, locales: string[]): void {
  if (!isLocale(defaultLocale)) errors.add('default_locale', 'must be en or es');
  for (const locale of locales) if (!isLocale(locale)) errors.add('locales', 'may hold en and es only');
  if (!locales.includes(defaultLocale)) errors.add('locales', 'must include the default locale');
}

export function checkRedirect(errors: FieldErrors, url: string | null): void {
  const problem = url === null ? null : linkProblem(url, { max: FORM_LIMITS.url, schemes: ['https'] });
  if (problem) errors.add('redirect_url', problem);
}

export function checkEmails(errors: FieldErrors, emails: string[]): string[] {
  const cleaned = emails.map((e) => e.trim().toLowerCase());
  if (cleaned.some((e) => !isEmail(e))) errors.add('notify_emails', 'must hold email addresses');
  return [...new Set(cleaned)];
}
