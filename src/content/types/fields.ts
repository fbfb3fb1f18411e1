import type { FieldErrors } from '../../errors/index.js';
import { languageTag } from '../checks.js';
import { CHOICE_FIELD_TYPES, FIELD_TYPES, FILTERABLE_FIELD_TYPES, LIMITS, SORTABLE_FIELD_TYPES, type FieldInputBody, type FieldType } from '../schema.js';
import type { ContentFieldDefinition } from '../../tables/content.js';

export type FieldDefinition = ContentFieldDefinition;

/** Field names: identifiers, so that `fields.<name>` reads the same in a filter, a JSONPath and TypeScript. */
export const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;

const isFieldType = (value: string): value is FieldType => (FIELD_TYPES as readonly string[]).includes(value);

function checkedOptions(errors: FieldErrors, at: string, type: FieldType, options: string[] | undefined): string[] {
  const given = options ?? [];
  if (!CHOICE_FIELD_TYPES.includes(type)) {
    if (given.length) errors.add(`${at}.options`, 'must be empty: only dropdown and checkbox fields have options');
    return [];
  }
  const trimmed = given.map((option) => option.trim());
  if (!trimmed.length) errors.add(`${at}.options`, "can't be empty for a dropdown or checkbox");
  if (trimmed.length > LIMITS.options) errors.add(`${at}.options`, `are too many (maximum is ${LIMITS.options})`);
  if (trimmed.some((option) => !option)) errors.add(`${at}.options`, "can't contain a blank choice");
  if (trimmed.some((option) => option.length > LIMITS.option)) errors.add(`${at}.options`, `can't contain a choice longer than ${LIMITS.option} characters`);
  if (new Set(trimmed).size !== trimmed.length) errors.add(`${at}.options`, 'must be distinct');
  return trimmed;
}

/** The labels as stored: keyed by locales of the space in their usual case, trimmed. */
function checkedLabels(errors: FieldErrors, at: string, locales: readonly string[], labels: Record<string, string> | undefined): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [key, raw] of Object.entries(labels ?? {})) {
    const where = `${at}.labels.${key.slice(0, 100)}`;
    const locale = languageTag(key);
    const label = raw.trim();
    if (!locale || !locales.includes(locale)) errors.add(where, `is not a locale of the space (${locales.join(', ')})`);
    else if (Object.hasOwn(checked, locale)) errors.add(where, `names the locale ${locale} twice`);
    else if (!label) errors.add(where, "can't be blank");
    else if (label.length > LIMITS.label) errors.add(where, `is too long (maximum is ${LIMITS.label} characters)`);
    else checked[locale] = label;
  }
  return checked;
}

/** The labels a stored field shows: those of locales the space still offers (one removed since may not be sent back). */
export const labelsShown = (field: FieldDefinition, locales: readonly string[]): Record<string, string> =>
  Object.fromEntries(Object.entries(field.labels ?? {}).filter(([locale]) => locales.includes(locale)));

/**
 * The fields as stored, each with every flag; problems are added to `errors` under `fields.<i>.<attribute>`.
 * `locales` are the space's: the only keys labels may have.
 */
export function checkedFields(errors: FieldErrors, inputs: FieldInputBody[], locales: readonly string[]): FieldDefinition[] {
  if (inputs.length > LIMITS.fields) errors.add('fields', `are too many (maximum is ${LIMITS.fields})`);
  const seen = new Set<string>();
  const fields: FieldDefinition[] = [];
  for (const [i, input] of inputs.slice(0, LIMITS.fields).entries()) {
    const at = `fields.${i}`;
    const name = input.name.trim();
    if (!name) errors.add(`${at}.name`, "can't be blank");
    else if (!FIELD_NAME.test(name)) errors.add(`${at}.name`, `must be an identifier: a lower-case letter, then lower-case letters, digits and "_" (at most ${LIMITS.fieldName})`);
    else if (seen.has(name)) errors.add(`${at}.name`, `is used by another field: ${name}`);
    seen.add(name);
    if (!isFieldType(input.type)) {
      errors.add(`${at}.type`, `must be one of ${FIELD_TYPES.join(', ')}`);
      continue;
    }
    const sortable = input.sortable ?? false;
    if (sortable && !SORTABLE_FIELD_TYPES.includes(input.type)) errors.add(`${at}.sortable`, `is only possible for ${SORTABLE_FIELD_TYPES.join(', ')} fields`);
    const filterable = input.filterable ?? false;
    if (filterable && !FILTERABLE_FIELD_TYPES.includes(input.type)) errors.add(`${at}.filterable`, `is only possible for ${FILTERABLE_FIELD_TYPES.join(', ')} fields`);
    fields.push({
      name, labels: checkedLabels(errors, at, locales, input.labels), type: input.type, required: input.required ?? false, localized: input.localized ?? false, sortable, filterable,
      options: checkedOptions(errors, at, input.type, input.options),
    });
  }
  return fields;
}

/**
 * What a type may change while it has entries (docs/features/content.md, "Content spaces and types"). A field may be added when it
 * is not required, and removed (its values go with it); `sortable`, `filterable` and `name` of the type change freely.
 * A field may not change its type or become localized or not (stored values would no longer fit), may
 * not become required, and a dropdown or checkbox may not lose a choice (entries may hold it).
 */
export function checkChangeWithEntries(errors: FieldErrors, before: FieldDefinition[], after: FieldDefinition[]): void {
  const old = new Map(before.map((field) => [field.name, field]));
  for (const [i, field] of after.entries()) {
    const at = `fields.${i}`;
    const was = old.get(field.name);
    if (!was) {
      if (field.required) errors.add(`${at}.required`, 'must be false for a new field while the type has entries');
      continue;
    }
    if (was.type !== field.type) errors.add(`${at}.type`, `can't change from ${was.type} while the type has entries`);
    if (was.localized !== field.localized) errors.add(`${at}.localized`, "can't change while the type has entries");
    if (!was.required && field.required) errors.add(`${at}.required`, "can't become true while the type has entries");
    const lost = was.options.filter((option) => !field.options.includes(option));
    if (was.type === field.type && lost.length) errors.add(`${at}.options`, `must keep ${lost.join(', ')} while the type has entries`);
  }
}

/** The fields of `before` that `after` no longer has. */
export const removedFields = (before: FieldDefinition[], after: FieldDefinition[]) =>
  before.filter((field) => !after.some((kept) => kept.name === field.name)).map((field) => field.name);
