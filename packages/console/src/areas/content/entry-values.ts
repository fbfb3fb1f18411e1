import type { AdminComponents } from '@atrium/client';

type Field = AdminComponents['schemas']['ContentField'];
type Entry = AdminComponents['schemas']['ContentAdminEntry'];

/** A field's value as its control holds it: '' for an empty number, uuids for references, lat/lon for a place. */
export type FormValue = string | number | boolean | string[] | { lat: number | ''; lon: number | '' } | null;
export interface LocaleValues { name: string; slug: string; tags: string[]; category: string; fields: Record<string, FormValue> }
/** The editor's values: the fields shared by every locale, and each locale's own name, slug and localized fields. */
export interface EntryValues { shared: Record<string, FormValue>; private: boolean; segment_uuids: string[]; locales: Record<string, LocaleValues> }

const uuidOf = (value: unknown) => (value && typeof value === 'object' && 'uuid' in value ? String((value as { uuid: unknown }).uuid) : null);

/** A stored value (as the API shows it) as its control holds it. */
export function formValue(field: Field, value: unknown): FormValue {
  switch (field.type) {
    case 'integer': case 'decimal': return typeof value === 'number' ? value : '';
    case 'boolean': return value === true;
    case 'checkbox': return Array.isArray(value) ? value.map(String) : [];
    case 'location': {
      const place = value as { lat?: number; lon?: number } | null;
      return { lat: place?.lat ?? '', lon: place?.lon ?? '' };
    }
    case 'asset': case 'entry': return uuidOf(value);
    case 'entries': return Array.isArray(value) ? value.map(uuidOf).filter((uuid): uuid is string => uuid !== null) : [];
    case 'date': case 'dropdown': return typeof value === 'string' ? value : null;
    default: return typeof value === 'string' ? value : '';
  }
}

/** A control's value as the API takes it; empty is null. */
export function apiValue(field: Field, value: FormValue): unknown {
  switch (field.type) {
    case 'integer': case 'decimal': return typeof value === 'number' ? value : null;
    case 'boolean': return value === true;
    case 'location': {
      const place = value as { lat: number | ''; lon: number | '' };
      return place.lat === '' && place.lon === '' ? null : { lat: place.lat, lon: place.lon };
    }
    case 'asset': case 'entry': return value ? { uuid: value } : null;
    case 'entries': return (value as string[]).map((uuid) => ({ uuid }));
    case 'checkbox': return value;
    default: return value === '' ? null : value;
  }
}

/** The editor's values from each locale's draft (null: none yet, started from the default locale's, as the server does). */
export function entryValues(fields: Field[], locales: string[], drafts: Record<string, Entry | null>): EntryValues {
  const base = drafts[locales[0]!] ?? Object.values(drafts).find(Boolean) ?? null;
  const valuesOf = (entry: Entry | null, localized: boolean) => Object.fromEntries(fields.filter((field) => field.localized === localized)
    .map((field) => [field.name, formValue(field, entry?.fields[field.name] ?? null)]));
  return {
    shared: valuesOf(base, false),
    private: base?.meta.private ?? false,
    segment_uuids: base?.segment_uuids ?? [],
    locales: Object.fromEntries(locales.map((locale) => {
      const entry = drafts[locale] ?? base;
      const meta = entry?.meta;
      return [locale, { name: meta?.name ?? '', slug: meta?.slug ?? '', tags: meta?.tags ?? [], category: meta?.category ?? '', fields: valuesOf(entry, true) }];
    })),
  };
}

/** The body that saves one locale's draft: its name, slug and localized fields, with the shared fields. */
export function entryBody(fields: Field[], values: EntryValues, locale: string) {
  const own = values.locales[locale]!;
  const body: Record<string, unknown> = {};
  for (const field of fields) body[field.name] = apiValue(field, field.localized ? own.fields[field.name] ?? null : values.shared[field.name] ?? null);
  return { locale, name: own.name, ...(own.slug ? { slug: own.slug } : {}), tags: own.tags, category: own.category || null,
    private: values.private, segment_uuids: values.segment_uuids, fields: body };
}

/** Where a 422's field (`name`, `fields.price`) shows in the editor of that locale. */
export function errorPath(fields: Field[], locale: string, field: string): string {
  const name = field.startsWith('fields.') ? field.slice('fields.'.length) : null;
  if (name === null) return field === 'private' || field === 'segment_uuids' ? field : `locales.${locale}.${field}`;
  return fields.find((f) => f.name === name)?.localized ? `locales.${locale}.fields.${name}` : `shared.${name}`;
}
