import { and, eq, inArray } from 'drizzle-orm';
import type { Context } from '../../context.js';
import { isCalendarDate } from '../../db/filters.js';
import type { FieldErrors } from '../../errors/index.js';
import { contentAssets, contentEntries, type ContentFieldDefinition } from '../../tables/content.js';

/**
 * An entry's field values checked against its content type's field definitions, and stored as the
 * content API shows them (entry-view.ts): references `{"uuid"}`, a location `{"lat", "lon"}`, a date-time
 * in UTC ISO text. Each failure is filed under `fields.<name>`.
 */

export const TEXT_MAX = 10_000;
export const RICH_TEXT_MAX = 200_000;
export const ENTRIES_MAX = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

type Outcome = { value: unknown } | { error: string };

const ok = (value: unknown): Outcome => ({ value });
const fail = (error: string): Outcome => ({ error });

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function text(value: unknown, max: number): Outcome {
  if (typeof value !== 'string') return fail('must be a text');
  return value.length > max ? fail(`is too long (maximum is ${max} characters)`) : ok(value);
}

/** An ISO date (`2026-01-15`) stays as written; a date-time, which must carry its offset, is stored in UTC. */
function date(value: unknown): Outcome {
  if (typeof value !== 'string') return fail('must be an ISO 8601 date or date-time');
  if (isCalendarDate(value)) return ok(value);
  if (!DATE_TIME.test(value) || !isCalendarDate(value.slice(0, 10))) return fail('must be an ISO 8601 date or date-time with an offset');
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? fail('must be an ISO 8601 date or date-time with an offset') : ok(time.toISOString());
}

/** A reference is written `{"uuid": "..."}` or as the bare uuid text; it is stored as the former. */
function reference(value: unknown): Outcome {
  const uuid = isPlainObject(value) && Object.keys(value).length === 1 ? value.uuid : value;
  if (typeof uuid !== 'string' || !UUID.test(uuid)) return fail('must be {"uuid": "<uuid>"}');
  return ok({ uuid: uuid.toLowerCase() });
}

function references(value: unknown): Outcome {
  if (!Array.isArray(value)) return fail('must be an array of {"uuid": "<uuid>"}');
  if (value.length > ENTRIES_MAX) return fail(`has too many entries (maximum is ${ENTRIES_MAX})`);
  const seen = new Set<string>();
  const list: { uuid: string }[] = [];
  for (const item of value) {
    const checked = reference(item);
    if ('error' in checked) return fail('must be an array of {"uuid": "<uuid>"}');
    const ref = checked.value as { uuid: string };
    if (!seen.has(ref.uuid)) list.push(ref);
    seen.add(ref.uuid);
  }
  return ok(list);
}

function location(value: unknown): Outcome {
  if (!isPlainObject(value) || Object.keys(value).some((key) => key !== 'lat' && key !== 'lon')) return fail('must be {"lat": <number>, "lon": <number>}');
  const { lat, lon } = value;
  if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90) return fail('latitude must be a number from -90 to 90');
  if (typeof lon !== 'number' || !Number.isFinite(lon) || lon < -180 || lon > 180) return fail('longitude must be a number from -180 to 180');
  return ok({ lat, lon });
}

function checkbox(value: unknown, options: readonly string[]): Outcome {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) return fail('must be an array of texts');
  const wrong = value.find((item) => !options.includes(item as string));
  if (wrong !== undefined) return fail(`has an option that is not allowed: ${JSON.stringify(wrong).slice(0, 100)}`);
  return ok([...new Set(value as string[])]);
}

/** One value, not null, checked against its definition. */
function checkValue(definition: ContentFieldDefinition, value: unknown): Outcome {
  switch (definition.type) {
    case 'text': return text(value, TEXT_MAX);
    case 'rich_text': return text(value, RICH_TEXT_MAX);
    case 'integer': return Number.isSafeInteger(value) ? ok(value) : fail('must be an integer');
    case 'decimal': return typeof value === 'number' && Number.isFinite(value) ? ok(value) : fail('must be a number');
    case 'boolean': return typeof value === 'boolean' ? ok(value) : fail('must be true or false');
    case 'date': return date(value);
    case 'dropdown':
      if (typeof value !== 'string') return fail('must be a text');
      return definition.options.includes(value) ? ok(value) : fail('is not one of the options');
    case 'checkbox': return checkbox(value, definition.options);
    case 'location': return location(value);
    case 'asset':
    case 'entry': return reference(value);
    case 'entries': return references(value);
    default: return fail('has a type this server does not know');
  }
}

const definitionsByName = (definitions: readonly ContentFieldDefinition[]) => new Map(definitions.map((d) => [d.name, d]));

/**
 * The values a client sent, checked and normalized; only the names it sent. An unknown name, or a value
 * of the wrong kind, is filed in `errors`. Null empties a field.
 */
export function checkFieldValues(input: Record<string, unknown>, definitions: readonly ContentFieldDefinition[], errors: FieldErrors): Record<string, unknown> {
  const known = definitionsByName(definitions);
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const definition = known.get(name);
    if (!definition) {
      errors.add(`fields.${name.slice(0, 100)}`, 'is not a field of the content type');
      continue;
    }
    if (value === null) {
      values[name] = null;
      continue;
    }
    const checked = checkValue(definition, value);
    if ('error' in checked) errors.add(`fields.${name}`, checked.error);
    else values[name] = checked.value;
  }
  return values;
}

const isBlank = (value: unknown) => value === null || value === undefined || value === ''
  || (Array.isArray(value) && value.length === 0);

/** Every field of the type, from `values` where they hold it, null otherwise. */
export function completeFields(values: Record<string, unknown>, definitions: readonly ContentFieldDefinition[]): Record<string, unknown> {
  return Object.fromEntries(definitions.map((d) => [d.name, Object.hasOwn(values, d.name) ? values[d.name] ?? null : null]));
}

/** The names of the required fields without a value. */
export function missingRequired(fields: Record<string, unknown>, definitions: readonly ContentFieldDefinition[]): string[] {
  return definitions.filter((d) => d.required && isBlank(fields[d.name])).map((d) => d.name);
}

/** The values of the fields that are not localized: the same in every locale of an entry. */
export function sharedValues(values: Record<string, unknown>, definitions: readonly ContentFieldDefinition[]): Record<string, unknown> {
  const shared: Record<string, unknown> = {};
  for (const definition of definitions) {
    if (!definition.localized && Object.hasOwn(values, definition.name)) shared[definition.name] = values[definition.name];
  }
  return shared;
}

function referencedUuids(values: Record<string, unknown>, definitions: readonly ContentFieldDefinition[], kind: 'asset' | 'entry'): Map<string, string[]> {
  const uuids = new Map<string, string[]>();
  for (const definition of definitions) {
    const value = values[definition.name];
    if (value === null || value === undefined) continue;
    const refs = definition.type === kind ? [value] : kind === 'entry' && definition.type === 'entries' ? value as unknown[] : [];
    for (const ref of refs as { uuid: string }[]) uuids.set(ref.uuid, [...(uuids.get(ref.uuid) ?? []), definition.name]);
  }
  return uuids;
}

/** Files each reference to an asset or entry that is not one of the space's (one query per kind). */
export async function checkReferences(
  ctx: Context, spaceId: number, values: Record<string, unknown>, definitions: readonly ContentFieldDefinition[], errors: FieldErrors,
): Promise<void> {
  const assets = referencedUuids(values, definitions, 'asset');
  const entries = referencedUuids(values, definitions, 'entry');
  const found = new Set<string>();
  if (assets.size) {
    const rows = await ctx.db.select({ uuid: contentAssets.uuid }).from(contentAssets)
      .where(and(eq(contentAssets.spaceId, spaceId), inArray(contentAssets.uuid, [...assets.keys()])));
    rows.forEach((row) => found.add(`asset:${row.uuid}`));
  }
  if (entries.size) {
    const rows = await ctx.db.select({ uuid: contentEntries.uuid }).from(contentEntries)
      .where(and(eq(contentEntries.spaceId, spaceId), inArray(contentEntries.uuid, [...entries.keys()])));
    rows.forEach((row) => found.add(`entry:${row.uuid}`));
  }
  for (const [kind, uuids] of [['asset', assets], ['entry', entries]] as const) {
    for (const [uuid, names] of uuids) {
      if (found.has(`${kind}:${uuid}`)) continue;
      for (const name of new Set(names)) errors.add(`fields.${name}`, `names no ${kind} of this space: ${uuid}`);
    }
  }
}
