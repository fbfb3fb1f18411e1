import { describe, expect, it } from 'vitest';
import { apiValue, entryBody, entryValues, errorPath, formValue } from '../../packages/console/src/areas/content/entry-values.js';

type Field = Parameters<typeof formValue>[0];
const field = (name: string, type: Field['type'], extra: Partial<Field> = {}): Field => ({ name, labels: {}, type, required: false, localized: false, sortable: false, filterable: false, options: [], ...extra });

const FIELDS: Field[] = [
  field('title', 'text', { localized: true }), field('body', 'rich_text'), field('count', 'integer'), field('price', 'decimal'),
  field('on', 'boolean'), field('day', 'date'), field('colour', 'dropdown', { options: ['red'] }), field('sizes', 'checkbox', { options: ['s'] }),
  field('place', 'location'), field('cover', 'asset'), field('related', 'entry'), field('parts', 'entries'),
];
const UUID = '6555bbb5-a6ee-45ff-961a-f880ba7aa7b6';
const STORED: Record<string, unknown> = {
  title: 'Hi', body: '# Hi\n', count: 3, price: 9.5, on: true, day: '2026-03-15', colour: 'red', sizes: ['s'],
  place: { lat: 40.4, lon: -3.7 }, cover: { uuid: UUID }, related: { uuid: UUID }, parts: [{ uuid: UUID }],
};

describe('the entry editor\'s values', () => {
  it('turns every stored value into its control\'s value and back, unchanged', () => {
    for (const definition of FIELDS) expect(apiValue(definition, formValue(definition, STORED[definition.name]))).toEqual(STORED[definition.name]);
  });

  it('reads empty values as empty controls and sends them as null (a boolean as false, lists as empty)', () => {
    const sent = Object.fromEntries(FIELDS.map((definition) => [definition.name, apiValue(definition, formValue(definition, null))]));
    expect(sent).toEqual({
      title: null, body: null, count: null, price: null, on: false, day: null, colour: null, sizes: [],
      place: null, cover: null, related: null, parts: [],
    });
  });

  it('saves a locale with its own localized fields and the shared ones, and starts a locale without a draft from the first', () => {
    const draft = { meta: { name: 'Hello', slug: 'hello', tags: ['a'], category: null, private: false }, fields: STORED, segment_uuids: [] };
    const values = entryValues(FIELDS, ['en', 'es'], { en: draft as never, es: null });
    expect(values.locales.es).toMatchObject({ name: 'Hello', slug: 'hello', tags: ['a'], category: '', fields: { title: 'Hi' } });
    values.locales.es!.fields.title = 'Hola';
    expect(entryBody(FIELDS, values, 'es')).toEqual({
      locale: 'es', name: 'Hello', slug: 'hello', tags: ['a'], category: null, private: false, segment_uuids: [], fields: { ...STORED, title: 'Hola' },
    });
  });

  it('puts a 422 on the control it names: a localized field in its locale\'s tab, a shared one once', () => {
    expect(errorPath(FIELDS, 'es', 'fields.title')).toBe('locales.es.fields.title');
    expect(errorPath(FIELDS, 'es', 'fields.count')).toBe('shared.count');
    expect(errorPath(FIELDS, 'es', 'slug')).toBe('locales.es.slug');
    expect(errorPath(FIELDS, 'es', 'segment_uuids')).toBe('segment_uuids');
  });
});
