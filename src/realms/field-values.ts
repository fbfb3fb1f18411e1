import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/connect.js';
import type { FieldErrors } from '../errors/index.js';
import { realmUsers } from '../tables/realms.js';

/**
 * The one place that decides whether a custom field value is acceptable: used by the admin user API
 * and by the customers PUT /me.
 */
export interface FieldDefinition {
  key: string;
  type: string;
  options: string[];
  required: boolean;
  unique: boolean;
}

export type FieldValue = string | number | boolean | null;
export type FieldValues = Record<string, FieldValue>;

export type Checked = { ok: true; value: FieldValue } | { ok: false; message: string };

const MAX_LENGTH: Record<string, number> = { text: 255, paragraph: 10_000 };
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

function isCalendarDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A value in its stored form, or why it does not fit the field's type. null (and an empty or blank
 * string) clears the value; whether a clear is allowed is the `required` rule's business.
 */
export function checkFieldValue(field: Pick<FieldDefinition, 'type' | 'options'>, value: unknown): Checked {
  if (value === null || value === undefined || (typeof value === 'string' && !value.trim())) return { ok: true, value: null };
  switch (field.type) {
    case 'text':
    case 'paragraph':
      if (typeof value !== 'string') return { ok: false, message: 'must be a text' };
      if (value.length > MAX_LENGTH[field.type]) return { ok: false, message: `is too long (maximum is ${MAX_LENGTH[field.type]} characters)` };
      return { ok: true, value };
    case 'number': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && NUMBER.test(value.trim()) ? Number(value) : NaN;
      return Number.isFinite(number) ? { ok: true, value: number } : { ok: false, message: 'must be a number' };
    }
    case 'date':
      return typeof value === 'string' && isCalendarDate(value.trim())
        ? { ok: true, value: value.trim() }
        : { ok: false, message: 'must be a date in the form YYYY-MM-DD' };
    case 'checkbox':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false, message: 'must be true or false' };
    case 'dropdown':
    case 'choice':
      return typeof value === 'string' && field.options.includes(value)
        ? { ok: true, value }
        : { ok: false, message: `must be one of: ${field.options.join(', ')}` };
    default:
      return { ok: false, message: 'has an unknown type' };
  }
}

export interface FieldInput {
  key: string;
  value: unknown;
}

/**
 * The user's values after applying `inputs` to `current`. Each problem is added to `errors` under
 * `custom_fields.<key>`. `creating` makes every required field mandatory; otherwise a required field
 * may be left out but not cleared. Inputs naming a key outside `fields` are refused, so a caller that
 * must drop some fields silently filters them out first; values of fields outside `fields` are kept.
 */
export function mergeFieldValues(fields: FieldDefinition[], current: FieldValues, inputs: FieldInput[], errors: FieldErrors, creating: boolean): FieldValues {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const next: FieldValues = { ...current };
  const failed = new Set<string>();
  for (const input of inputs) {
    const field = byKey.get(input.key);
    if (!field) {
      errors.add(`custom_fields.${input.key}`, 'is not a custom field of this realm');
      continue;
    }
    const checked = checkFieldValue(field, input.value);
    if (!checked.ok) {
      errors.add(`custom_fields.${field.key}`, checked.message);
      failed.add(field.key);
    } else if (checked.value === null) delete next[field.key];
    else next[field.key] = checked.value;
  }
  const given = new Set(inputs.map((i) => i.key));
  for (const field of fields) {
    if (field.required && next[field.key] === undefined && !failed.has(field.key) && (creating || given.has(field.key))) {
      errors.add(`custom_fields.${field.key}`, "can't be blank");
    }
  }
  return next;
}

/**
 * Another user of the realm holding `value` in the field `key`, if any. Containment (`@>`), which the realm users'
 * custom fields index answers: the values are scalars, so it is equality. (`custom_fields -> key = value` read every
 * user of the realm, under the realm's lock: each sign-up with a unique field made all others of the realm wait.)
 */
export const uniqueValueHolder = (db: Db, realmId: number, userId: number | null, key: string, value: FieldValue) => db
  .select({ id: realmUsers.id }).from(realmUsers).where(and(
    eq(realmUsers.realmId, realmId),
    userId === null ? undefined : ne(realmUsers.id, userId),
    sql`${realmUsers.customFields} @> ${JSON.stringify({ [key]: value })}::jsonb`,
  )).limit(1);

/**
 * The unique rule: no other user of the realm holds the same value of a unique field. Run it in the
 * transaction that writes the values, after `lockFieldValues`, so two writers cannot both pass.
 */
export async function checkUniqueValues(db: Db, realmId: number, userId: number | null, fields: FieldDefinition[], values: FieldValues, errors: FieldErrors): Promise<void> {
  for (const field of fields) {
    const value = values[field.key];
    if (!field.unique || value === undefined || value === null) continue;
    const [taken] = await uniqueValueHolder(db, realmId, userId, field.key, value);
    if (taken) errors.add(`custom_fields.${field.key}`, 'has already been taken');
  }
}

const FIELD_VALUES_LOCK = 727_002;

/** Serializes writers of one realm's custom field values for the rest of the transaction. */
export async function lockFieldValues(db: Db, realmId: number): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${FIELD_VALUES_LOCK}, ${realmId})`);
}

/** The values as `[{key, value}]` in the fields' order, null where unset. */
export function fieldValueList(fields: Pick<FieldDefinition, 'key'>[], values: FieldValues): { key: string; value: FieldValue }[] {
  return fields.map((f) => ({ key: f.key, value: values[f.key] ?? null }));
}
