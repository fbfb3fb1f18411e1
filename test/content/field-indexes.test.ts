import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { until } from '../helpers/until.js';

// Filterable fields: an index per field, built in the background once the type asks for it, on the
// expression the delivery API's filters read, so that a filtered list is read from it.

let h: Harness;
const SPACE = 'catalog';
const ENTRIES = 3000;
const typeUrl = `/api/admin/content/spaces/${SPACE}/types/product`;
const listUrl = `/api/content/spaces/${SPACE}/types/product/entries`;

const FIELDS = [
  { name: 'title', type: 'text', localized: true, filterable: true },
  { name: 'price', type: 'decimal', sortable: true, filterable: true },
  { name: 'stock', type: 'integer' },
  { name: 'active', type: 'boolean', filterable: true },
  { name: 'launch', type: 'date', filterable: true },
  { name: 'colour', type: 'dropdown', options: ['red', 'green', 'blue'], filterable: true },
  { name: 'related', type: 'entry', filterable: true },
];

interface Plan { page: string[]; count: string[]; indexes: { field: string; ready: boolean }[] }

async function plan(query: string): Promise<Plan> {
  const res = await h.request({ method: 'GET', url: `${typeUrl}/query_plan?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const indexNames = async (): Promise<string[]> => rowsOf<{ indexname: string }>(await h.ctx.db.execute(sql`select indexname from pg_indexes
  where tablename = 'content_entry_versions' and indexname like 'content\\_field\\_%' order by indexname`)).map((r) => r.indexname);

const allReady = async () => (await plan('')).indexes.every((i) => i.ready);

/** Published versions straight into the tables, as many as a plan needs to prefer an index: one in 1000 costs 99.9 or more, one in 500 is inactive. */
async function writeEntries(typeUid: string) {
  const [type] = rowsOf<{ id: number; space_id: number }>(await h.ctx.db.execute(sql`select id, space_id from content_types where uid = ${typeUid}`));
  await h.ctx.db.execute(sql`insert into content_entries (space_id, type_id, created_at, updated_at)
    select ${type.space_id}, ${type.id}, now(), now() from generate_series(1, ${ENTRIES})`);
  await h.ctx.db.execute(sql`insert into content_entry_versions (entry_id, type_id, locale, state, name, slug, fields, tags, published_at, created_at, updated_at)
    select e.id, e.type_id, 'en', 'published', 'Product ' || e.id, 'product-' || e.id,
      jsonb_build_object('title', 'Product ' || e.id, 'price', (e.id % 1000) / 10.0, 'stock', e.id % 50, 'active', e.id % 500 <> 0,
        'launch', to_char(date '2026-01-01' + (e.id % 3000), 'YYYY-MM-DD'), 'colour', (array['red', 'green', 'blue'])[1 + e.id % 3],
        'related', case when e.id % 1000 = 0 then jsonb_build_object('uuid', '00000000-0000-4000-8000-000000000001') end),
      '{}', now() - make_interval(mins => e.id), now(), now()
    from content_entries e where e.type_id = ${type.id}`);
  await h.ctx.db.execute(sql`analyze content_entry_versions`);
}

beforeAll(async () => {
  h = await startHarness();
  const space = await h.request({ method: 'POST', url: '/api/admin/content/spaces', payload: { uid: SPACE, name: 'Catalog', default_locale: 'en', locales: ['en', 'es'] } });
  expect(space.statusCode, space.body).toBe(201);
  const type = await h.request({ method: 'POST', url: `/api/admin/content/spaces/${SPACE}/types`, payload: { uid: 'product', name: 'Product', fields: FIELDS } });
  expect(type.statusCode, type.body).toBe(201);
  expect(type.json().fields.map((f: { filterable: boolean }) => f.filterable)).toEqual([true, true, false, true, true, true, true]);
  // Written once the indexes are built: an ANALYZE beside a concurrent index build is a deadlock one of them loses.
  await until(allReady, 'the field indexes');
  await writeEntries('product');
}, 120_000);
afterAll(async () => { await h?.close(); });

describe('filterable fields', () => {
  it('only fields an index can hold are filterable', async () => {
    const res = await h.request({
      method: 'POST', url: `/api/admin/content/spaces/${SPACE}/types`,
      payload: { uid: 'article', name: 'Article', fields: [{ name: 'body', type: 'rich_text', filterable: true }, { name: 'sizes', type: 'checkbox', options: ['s'], filterable: true }] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual(expect.arrayContaining([
      expect.stringMatching(/^Fields 0 filterable is only possible for text, integer/i),
      expect.stringMatching(/^Fields 1 filterable is only possible for/i),
    ]));
  });

  it('builds one index per filterable field, and the plan tells it is ready', async () => {
    expect((await plan('')).indexes).toEqual(['title', 'price', 'active', 'launch', 'colour', 'related'].map((field) => ({ field, ready: true })));
    expect(await indexNames()).toHaveLength(6);
  });

  it.each([
    ['a range of numbers', 'fields.price[gte]=99.9'],
    ['a rare boolean', 'fields.active=false'],
    ['a range of dates', 'fields.launch[gte]=2034-03-01'],
    ['one text', 'fields.title=Product%2017'],
    ['texts in a list', 'fields.title[in][]=Product%2017&fields.title[in][]=Product%2018'],
    ['a reference', 'fields.related=00000000-0000-4000-8000-000000000001'],
  ])('reads %s from the field\'s index, for the page and the count', async (_what, query) => {
    const { page, count } = await plan(query);
    expect(page.join('\n'), page.join('\n')).toMatch(/content_field_\d+_[0-9a-f]{12}/);
    expect(count.join('\n'), count.join('\n')).toMatch(/content_field_\d+_[0-9a-f]{12}/);
  });

  it('reads entries asked for by uuid from the entries\' uuid index, for the page and the count', async () => {
    const [{ uuid }] = rowsOf<{ uuid: string }>(await h.ctx.db.execute(sql`select uuid from content_entries order by id desc limit 1`));
    for (const query of [`meta.uuid=${uuid}`, `meta.uuid[in][]=${uuid}&meta.uuid[in][]=${uuid.toUpperCase()}`]) {
      const { page, count } = await plan(query);
      expect(page.join('\n'), page.join('\n')).toMatch(/content_entries_uuid_key/);
      expect(count.join('\n'), count.join('\n')).toMatch(/content_entries_uuid_key/);
      const res = await h.request({ method: 'GET', url: `${listUrl}?${query}`, token: null });
      expect(res.json().entries.map((e: { meta: { uuid: string } }) => e.meta.uuid)).toEqual([uuid]);
    }
  });

  it('answers the same entries as a reading of every version would', async () => {
    const res = await h.request({ method: 'GET', url: `${listUrl}?fields.price[gte]=99.9&per_page=100&sort_by=fields.price`, token: null });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.meta.total_entries).toBe(ENTRIES / 1000);
    expect(body.entries.every((e: { fields: { price: number } }) => e.fields.price >= 99.9)).toBe(true);
    const dated = await h.request({ method: 'GET', url: `${listUrl}?fields.launch[gte]=2034-03-01T00:00:00Z`, token: null });
    // 2034-03-01 is day 2981 after 2026-01-01: days 2981 to 2999 of the 3000.
    expect(dated.json().meta.total_entries).toBe(19);
    const inactive = await h.request({ method: 'GET', url: `${listUrl}?fields.active=false`, token: null });
    expect(inactive.json().meta.total_entries).toBe(ENTRIES / 500);
  });

  it('drops the index of a field no longer filterable, and every index of a deleted type', async () => {
    const fields = FIELDS.map((f) => (f.name === 'title' ? { ...f, filterable: false } : f));
    const res = await h.request({ method: 'PUT', url: typeUrl, payload: { fields } });
    expect(res.statusCode, res.body).toBe(200);
    await until(async () => (await indexNames()).length === 5, 'the title index dropped');
    expect((await plan('')).indexes.map((i) => i.field)).toEqual(['price', 'active', 'launch', 'colour', 'related']);
    const removed = await h.request({ method: 'DELETE', url: typeUrl });
    expect(removed.statusCode).toBe(204);
    await until(async () => (await indexNames()).length === 0, 'the type\'s indexes dropped');
  });

  it('refuses a query it cannot answer as the content API does', async () => {
    const res = await h.request({ method: 'GET', url: `/api/admin/content/spaces/${SPACE}/types/nothing/query_plan` });
    expect(res.statusCode).toBe(404);
  });
});
