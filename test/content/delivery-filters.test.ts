import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeEntry, makeSpaceAndType, publish, saveDraft, type Version } from './delivery-fixtures.js';

let h: Harness;
let base: string;
let space: string;
const ids: Record<string, string> = {};

const DAY = 86_400_000;

/** The moment `day` days after the set-up began, as the content API writes it. */
let t0 = 0;
const day = (n: number) => new Date(t0 + n * DAY).toISOString();
const next = () => h.clock.advance(DAY);

// Made, changed and published on different days, so that every meta date orders them differently:
// created Cheap, Mid, Dear; changed Dear, Mid, Cheap; published Dear, Cheap, Mid.
beforeAll(async () => {
  h = await startHarness();
  ({ base, space } = await makeSpaceAndType(h));
  t0 = h.clock.now().getTime();
  const draft = (v: Version) => makeEntry(h, space, 'product', { ...v, state: 'draft' });
  next();
  ids.cheap = await draft({
    name: 'Cheap red', slug: 'cheap', tags: ['sale', 'new'], category: 'shop/shoes',
    fields: { title: 'Alpha', price: 9.5, stock: 3, active: true, launch: '2026-02-01', colour: 'red', sizes: ['s', 'm'], body: 'Lorem *ipsum*' },
  });
  next();
  ids.mid = await draft({
    name: 'Mid green', slug: 'mid', tags: ['new'], category: 'shop',
    fields: { title: 'beta', price: 10, stock: 10, active: false, launch: '2026-03-15T13:00:00+01:00', colour: 'green', sizes: ['l'] },
  });
  next();
  ids.dear = await draft({
    name: 'Dear blue', slug: 'dear', category: 'shopping',
    fields: { title: 'Gamma', price: 120, stock: 0, active: true, colour: 'blue', sizes: [], related: { uuid: ids.cheap } },
  });
  for (const uuid of [ids.dear, ids.mid, ids.cheap]) {
    next();
    await saveDraft(h, space, 'product', uuid, { tags: uuid === ids.dear ? [] : undefined });
  }
  for (const uuid of [ids.dear, ids.cheap, ids.mid]) {
    next();
    await publish(h, space, 'product', uuid);
  }
  // Never published: only a draft.
  ids.draft = await draft({ name: 'Draft', fields: { price: 50 } });
});
afterAll(async () => { await h?.close(); });

async function list(query: string) {
  const res = await h.request({ method: 'GET', url: `${base}?${query}`, token: null });
  expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
  return res.json() as { meta: Record<string, number>; entries: { meta: Record<string, unknown>; fields: Record<string, unknown> }[] };
}

const names = async (query: string) => (await list(query)).entries.map((e) => e.meta.name);
const set = async (query: string) => (await names(query)).sort();

async function problem(query: string) {
  const res = await h.request({ method: 'GET', url: `${base}?${query}`, token: null });
  expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
  return res.json().error.query as Record<string, string[]>;
}

describe('content delivery: the list', () => {
  it('answers published entries only, in the facts page shape, newest published first', async () => {
    const body = await list('');
    expect(body.meta).toEqual({ total_entries: 3, per_page: 10, current_page: 1, total_pages: 1 });
    expect(body.entries.map((e) => e.meta.name)).toEqual(['Mid green', 'Cheap red', 'Dear blue']);
    expect(body.entries[1]).toEqual({
      meta: {
        uuid: ids.cheap, space, name: 'Cheap red', slug: 'cheap', type: 'product', private: false, category: 'shop/shoes', tags: ['sale', 'new'],
        locale: 'en', available_locales: ['en'], created_at: day(1), updated_at: day(6), published_at: day(8), unpublished_at: null,
        version_type: 'published',
      },
      fields: expect.objectContaining({ title: 'Alpha', price: 9.5, sizes: ['s', 'm'], related: null, place: null }),
    });
  });

  it('pages with page and per_page, counting every match', async () => {
    const page = await list('per_page=2&page=2');
    expect(page.meta).toEqual({ total_entries: 3, per_page: 2, current_page: 2, total_pages: 2 });
    expect(page.entries.map((e) => e.meta.name)).toEqual(['Dear blue']);
    expect((await list('per_page=2&page=9')).meta.total_entries).toBe(3);
    // Past the last page of filters asked for the first time (no count kept, no row to carry it), and a first page
    // that is full: each counts every match.
    expect((await list('meta.tags[in][]=new&per_page=1&page=9')).meta).toMatchObject({ total_entries: 2, total_pages: 2 });
    expect((await list('fields.price[gte]=10&per_page=1')).meta).toMatchObject({ total_entries: 2, total_pages: 2 });
    expect((await list('per_page=garbage&page=0')).meta).toMatchObject({ per_page: 10, current_page: 1 });
  });
});

describe('content delivery: filters on fields, cast to the field type', () => {
  it('numbers compare as numbers (9.5 < 10 < 120), with every operator', async () => {
    expect(await set('fields.price=10')).toEqual(['Mid green']);
    expect(await set('fields.price[gt]=9.9')).toEqual(['Dear blue', 'Mid green']);
    expect(await set('fields.price[gte]=10')).toEqual(['Dear blue', 'Mid green']);
    expect(await set('fields.price[lt]=10')).toEqual(['Cheap red']);
    expect(await set('fields.price[lte]=10')).toEqual(['Cheap red', 'Mid green']);
    expect(await set('fields.price[ne]=10')).toEqual(['Cheap red', 'Dear blue']);
    expect(await set('fields.stock[in][]=0&fields.stock[in][]=3')).toEqual(['Cheap red', 'Dear blue']);
    expect(await set('fields.stock[nin][]=0&fields.stock[nin][]=3')).toEqual(['Mid green']);
    expect(await set('fields.price[gt]=1e1')).toEqual(['Dear blue']);
  });

  it('texts: equality, ne, in, nin, search (case-insensitive, % taken literally)', async () => {
    expect(await set('fields.title=beta')).toEqual(['Mid green']);
    expect(await set('fields.title[ne]=beta')).toEqual(['Cheap red', 'Dear blue']);
    expect(await set('fields.colour[in][]=red&fields.colour[in][]=blue')).toEqual(['Cheap red', 'Dear blue']);
    expect(await set('fields.colour[nin][]=red')).toEqual(['Dear blue', 'Mid green']);
    expect(await set('fields.title[search]=AM')).toEqual(['Dear blue']);
    expect(await set('fields.body[search]=ipsum')).toEqual(['Cheap red']);
    expect(await set('fields.title[search]=%25')).toEqual([]);
  });

  it('booleans, dates (a date and a date-time alike), checkboxes, references and exists', async () => {
    expect(await set('fields.active=true')).toEqual(['Cheap red', 'Dear blue']);
    expect(await set('fields.active[ne]=true')).toEqual(['Mid green']);
    expect(await set('fields.launch[gt]=2026-02-01')).toEqual(['Mid green']);
    expect(await set('fields.launch[gte]=2026-02-01')).toEqual(['Cheap red', 'Mid green']);
    expect(await set('fields.launch[lt]=2026-03-15T13:00:00%2B01:00')).toEqual(['Cheap red']);
    expect(await set('fields.launch=2026-03-15T12:00:00Z')).toEqual(['Mid green']);
    expect(await set('fields.launch[lte]=2026-03-15T12:00:00Z')).toEqual(['Cheap red', 'Mid green']);
    expect(await set('fields.launch=2026-02-01')).toEqual(['Cheap red']);
    expect(await set('fields.launch[ne]=2026-02-01')).toEqual(['Mid green']);
    expect(await set('fields.sizes=m')).toEqual(['Cheap red']);
    expect(await set('fields.sizes[in][]=m&fields.sizes[in][]=l')).toEqual(['Cheap red', 'Mid green']);
    expect(await set('fields.sizes[has][]=s&fields.sizes[has][]=m')).toEqual(['Cheap red']);
    expect(await set('fields.sizes[has][]=s&fields.sizes[has][]=l')).toEqual([]);
    expect(await set('fields.sizes[nin][]=s')).toEqual(['Dear blue', 'Mid green']);
    expect(await set(`fields.related=${ids.cheap}`)).toEqual(['Dear blue']);
    expect(await set('fields.related[exists]=true')).toEqual(['Dear blue']);
    expect(await set('fields.launch[exists]=false')).toEqual(['Dear blue']);
    expect(await set('fields.place[exists]=false')).toEqual(['Cheap red', 'Dear blue', 'Mid green']);
  });

  it('several filters all hold', async () => {
    expect(await set('fields.price[gt]=5&meta.tags[in][]=new&fields.active=true')).toEqual(['Cheap red']);
  });
});

describe('content delivery: filters on meta', () => {
  it('tags: one, any, all, none, exists', async () => {
    expect(await set('meta.tags=new')).toEqual(['Cheap red', 'Mid green']);
    expect(await set('meta.tags[in][]=sale&meta.tags[in][]=other')).toEqual(['Cheap red']);
    expect(await set('meta.tags[has][]=sale&meta.tags[has][]=new')).toEqual(['Cheap red']);
    expect(await set('meta.tags[nin][]=sale')).toEqual(['Dear blue', 'Mid green']);
    expect(await set('meta.tags[exists]=false')).toEqual(['Dear blue']);
  });

  it('category matches the path and the paths below it, not a longer name', async () => {
    expect(await set('meta.category=shop')).toEqual(['Cheap red', 'Mid green']);
    expect(await set('meta.category=shop/shoes')).toEqual(['Cheap red']);
    expect(await set('meta.category[ne]=shop')).toEqual(['Dear blue']);
    expect(await set('meta.category[in][]=shopping&meta.category[in][]=shop/shoes')).toEqual(['Cheap red', 'Dear blue']);
  });

  it('dates compare as instants; a bare date is midnight UTC', async () => {
    const at = (n: number) => encodeURIComponent(day(n));
    expect(await set(`meta.created_at[lt]=${at(2)}`)).toEqual(['Cheap red']);
    expect(await set(`meta.created_at[lte]=${at(2)}`)).toEqual(['Cheap red', 'Mid green']);
    expect(await set(`meta.created_at[gt]=${at(2)}`)).toEqual(['Dear blue']);
    expect(await set(`meta.updated_at[gte]=${at(5)}`)).toEqual(['Cheap red', 'Mid green']);
    expect(await set(`meta.published_at=${at(7)}`)).toEqual(['Dear blue']);
    expect(await set(`meta.published_at[ne]=${at(7)}`)).toEqual(['Cheap red', 'Mid green']);
    // The same instant written with another offset.
    const shifted = new Date(t0 + 8 * DAY).toISOString().replace('Z', '+00:00');
    expect(await set(`meta.published_at[gte]=${encodeURIComponent(shifted)}`)).toEqual(['Cheap red', 'Mid green']);
    expect(await set(`meta.created_at[gt]=${day(-1).slice(0, 10)}`)).toHaveLength(3);
    expect(await set('meta.created_at[lt]=2000-01-01')).toEqual([]);
    expect(await set('meta.unpublished_at[exists]=true')).toEqual([]);
  });

  it('name, slug and uuid', async () => {
    expect(await set('meta.name[search]=green')).toEqual(['Mid green']);
    expect(await set('meta.slug[in][]=cheap&meta.slug[in][]=dear')).toEqual(['Cheap red', 'Dear blue']);
    expect(await set(`meta.uuid=${ids.mid}`)).toEqual(['Mid green']);
    expect(await set(`meta.uuid[ne]=${ids.mid}`)).toEqual(['Cheap red', 'Dear blue']);
    expect((await list(`meta.uuid[ne]=${ids.mid}&per_page=1&page=2`)).meta).toMatchObject({ total_entries: 2, total_pages: 2 });
  });
});

describe('content delivery: one statement per shape of query, run with each request\'s values', () => {
  // Each pair has the same shape (filters, operators, order; numbers of one kind, lists of one length) and other
  // values: the second is answered by the statement compiled for the first (content/delivery/sql.ts, shapeOf).
  it('answers the second query of a shape for its own values, on every kind of filter, page and locale', async () => {
    const pairs: [string, string[], string, string[]][] = [
      ['fields.price[gt]=9.9', ['Dear blue', 'Mid green'], 'fields.price[gt]=10.5', ['Dear blue']],
      ['fields.stock[gte]=3', ['Cheap red', 'Mid green'], 'fields.stock[gte]=4', ['Mid green']],
      ['fields.stock[in][]=0&fields.stock[in][]=3', ['Cheap red', 'Dear blue'], 'fields.stock[in][]=10&fields.stock[in][]=3', ['Cheap red', 'Mid green']],
      ['fields.title=Alpha', ['Cheap red'], 'fields.title=Gamma', ['Dear blue']],
      ['fields.title[search]=alp', ['Cheap red'], 'fields.title[search]=gam', ['Dear blue']],
      ['fields.colour[nin][]=red', ['Dear blue', 'Mid green'], 'fields.colour[nin][]=blue', ['Cheap red', 'Mid green']],
      ['fields.active=true', ['Cheap red', 'Dear blue'], 'fields.active=false', ['Mid green']],
      ['fields.launch[gte]=2026-02-01', ['Cheap red', 'Mid green'], 'fields.launch[gte]=2026-03-01', ['Mid green']],
      ['fields.sizes[has][]=s', ['Cheap red'], 'fields.sizes[has][]=l', ['Mid green']],
      [`fields.related=${ids.cheap}`, ['Dear blue'], `fields.related=${ids.mid}`, []],
      ['meta.tags[in][]=sale', ['Cheap red'], 'meta.tags[in][]=new', ['Cheap red', 'Mid green']],
      ['meta.category=shop/shoes', ['Cheap red'], 'meta.category=shopping', ['Dear blue']],
      [`meta.created_at[lt]=${encodeURIComponent(day(2))}`, ['Cheap red'], `meta.created_at[lt]=${encodeURIComponent(day(3))}`, ['Cheap red', 'Mid green']],
      [`meta.uuid=${ids.mid}`, ['Mid green'], `meta.uuid=${ids.dear}`, ['Dear blue']],
      ['meta.slug[in][]=cheap', ['Cheap red'], 'meta.slug[in][]=dear', ['Dear blue']],
    ];
    for (const [first, firstNames, second, secondNames] of pairs) {
      expect(await set(first), first).toEqual(firstNames);
      expect(await set(second), second).toEqual(secondNames);
    }
    // The page and its size are values too; so are the locale and the instant a version must not be unpublished by.
    expect(await names('per_page=1&page=1')).toEqual(['Mid green']);
    expect(await names('per_page=1&page=3')).toEqual(['Dear blue']);
    expect(await names('per_page=2&page=1')).toEqual(['Mid green', 'Cheap red']);
    expect((await list('locale=es&fallback_locale=en')).entries.map((e) => e.meta.locale)).toEqual(['en', 'en', 'en']);
    expect((await list('locale=fr&fallback_locale=en')).entries.map((e) => e.meta.locale)).toEqual(['en', 'en', 'en']);
    expect((await list('locale=es')).entries).toEqual([]);
  });
});

describe('content delivery: sorting', () => {
  it('sorts by every meta key and by sortable fields, either way', async () => {
    expect(await names('sort_by=meta.published_at')).toEqual(['Mid green', 'Cheap red', 'Dear blue']);
    expect(await names('sort_by=meta.published_at&order=asc')).toEqual(['Dear blue', 'Cheap red', 'Mid green']);
    expect(await names('sort_by=meta.created_at')).toEqual(['Dear blue', 'Mid green', 'Cheap red']);
    expect(await names('sort_by=meta.updated_at&order=ASC')).toEqual(['Dear blue', 'Mid green', 'Cheap red']);
    expect(await names('sort_by=meta.name')).toEqual(['Cheap red', 'Dear blue', 'Mid green']);
    expect(await names('sort_by=meta.name&order=desc')).toEqual(['Mid green', 'Dear blue', 'Cheap red']);
    expect(await names('sort_by=fields.price')).toEqual(['Cheap red', 'Mid green', 'Dear blue']);
    expect(await names('sort_by=fields.price&order=desc')).toEqual(['Dear blue', 'Mid green', 'Cheap red']);
    expect(await names('sort_by=fields.stock')).toEqual(['Dear blue', 'Cheap red', 'Mid green']);
    expect((await names('sort_by=fields.active'))[0]).toBe('Mid green');
    expect((await names('sort_by=fields.active&order=desc'))[2]).toBe('Mid green');
    // Entries without the value come last.
    expect(await names('sort_by=fields.launch&order=desc')).toEqual(['Mid green', 'Cheap red', 'Dear blue']);
    expect(await names('sort_by=fields.launch')).toEqual(['Cheap red', 'Mid green', 'Dear blue']);
    expect(await names('sort_by=fields.title')).toHaveLength(3);
  });

  it('refuses a key that is not sortable, and a bad order', async () => {
    const notSortable = { error: { query: { sort_by: ['Key not sortable'] } } };
    for (const key of ['fields.colour', 'fields.sizes', 'fields.nothing', 'meta.slug', 'price', '__proto__', 'fields.__proto__', 'fields.constructor']) {
      const res = await h.request({ method: 'GET', url: `${base}?sort_by=${encodeURIComponent(key)}`, token: null });
      expect(res.statusCode, key).toBe(400);
      expect(res.json(), key).toEqual(notSortable);
    }
    expect(await problem('order=sideways')).toEqual({ order: ['must be asc or desc'] });
  });
});

describe('content delivery: bad input', () => {
  it('answers 400 naming each bad parameter, never 500', async () => {
    expect(await problem('colour=red')).toEqual({ colour: ['Unknown parameter'] });
    expect(await problem('fields.nothing=1')).toEqual({ 'fields.nothing': ['Unknown parameter'] });
    expect(await problem('meta.nothing=1')).toEqual({ 'meta.nothing': ['Unknown parameter'] });
    expect(await problem('fields.__proto__=1&fields.constructor=2')).toEqual({ 'fields.__proto__': ['Unknown parameter'], 'fields.constructor': ['Unknown parameter'] });
    expect(await problem('fields.price[gt]=cheap')).toEqual({ 'fields.price[gt]': ['must be a number'] });
    expect(await problem('fields.price=')).toEqual({ 'fields.price': ['must be a number'] });
    expect(await problem('fields.active=yes')).toEqual({ 'fields.active': ['must be true or false'] });
    expect(Object.keys(await problem('fields.launch[gt]=2026-02-30'))).toEqual(['fields.launch[gt]']);
    expect(Object.keys(await problem('fields.launch[gt]=2026-02-30T10:00:00Z'))).toEqual(['fields.launch[gt]']);
    expect(Object.keys(await problem('fields.launch[gt]=2026-02-03T10:00:00'))).toEqual(['fields.launch[gt]']);
    expect(Object.keys(await problem('meta.created_at[lt]=yesterday'))).toEqual(['meta.created_at[lt]']);
    expect(await problem('fields.related=not-a-uuid')).toEqual({ 'fields.related': ['must be a uuid'] });
    expect(Object.keys(await problem('fields.price[foo]=1'))).toEqual(['fields.price[foo]']);
    expect(Object.keys(await problem('fields.title[gt]=a'))).toEqual(['fields.title[gt]']);
    expect(Object.keys(await problem('fields.price[gt][]=1'))).toEqual(['fields.price[gt][]']);
    expect(Object.keys(await problem('fields.price=1&fields.price=2'))).toEqual(['fields.price']);
    expect(Object.keys(await problem('locale=en&locale=es'))).toEqual(['locale']);
    expect(Object.keys(await problem('fields.place=1'))).toEqual(['fields.place']);
    expect(Object.keys(await problem('fields.price[exists]=maybe'))).toEqual(['fields.price[exists]']);
    expect(Object.keys(await problem(`fields.title=${'x'.repeat(1001)}`))).toEqual(['fields.title']);
    expect(Object.keys(await problem('include=3'))).toEqual(['include']);
    expect(await problem('colour=red&order=up&sort_by=meta.slug')).toEqual({
      colour: ['Unknown parameter'], order: ['must be asc or desc'], sort_by: ['Key not sortable'],
    });
    expect((await list(`fields.price[gt]=${2 ** 40}`)).entries).toEqual([]);
    expect((await list('fields.stock[gt]=1e308')).entries).toEqual([]);
  });

  it('answers 404 for an unknown space or type', async () => {
    for (const url of [`/api/content/spaces/nope/types/product/entries`, `/api/content/spaces/${space}/types/nope/entries`]) {
      const res = await h.request({ method: 'GET', url, token: null });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ errors: ['Content type not found'] });
    }
  });
});
