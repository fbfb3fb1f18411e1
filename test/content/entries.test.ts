import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { contentAssets, contentSpaces } from '../../src/tables/content.js';
import { makeSpace, makeType } from '../helpers/content.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm } from '../helpers/realms.js';
import { entryClient, EVERY_FIELD, fieldsOf, type EntryClient } from './entry-helpers.js';

let h: Harness;
let space: { uid: string };
let type: { uid: string };
let entries: EntryClient;

beforeAll(async () => {
  h = await startHarness();
  space = await makeSpace(h, { default_locale: 'en', locales: ['en', 'es', 'fr'] });
  type = await makeType(h, space.uid, { fields: EVERY_FIELD });
  entries = entryClient(h, space.uid, type.uid);
});
afterAll(async () => { await h?.close(); });

/** An asset row of the space, as an upload would leave it (the assets API is tested in assets.test.ts). */
async function assetIn(spaceUid: string): Promise<string> {
  const [row] = await h.ctx.db.select({ id: contentSpaces.id }).from(contentSpaces).where(eq(contentSpaces.uid, spaceUid));
  const [asset] = await h.ctx.db.insert(contentAssets).values({
    spaceId: row.id, fileName: 'cover.png', contentType: 'image/png', size: 10, storageKey: `content-assets/${randomUUID()}`,
  }).returning();
  return asset.uuid;
}

const emptyFields = Object.fromEntries(EVERY_FIELD.map((f) => [f.name, null]));

describe('entries admin API', () => {
  it('creates an entry answering its draft as the content API shows it, and shows and lists it', async () => {
    const now = h.clock.now().toISOString();
    const created = await entries.created({ name: ' Hello world ', fields: { title: 'Hello', price: 9.5 }, tags: ['a', 'b', 'a'], category: 'news/sports' });
    expect(created).toEqual({
      meta: {
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), space: space.uid, name: 'Hello world', slug: 'hello-world', type: type.uid,
        private: false, category: 'news/sports', tags: ['a', 'b'], locale: 'en', available_locales: ['en'],
        created_at: now, updated_at: now, published_at: null, unpublished_at: null, version_type: 'draft',
      },
      fields: { ...emptyFields, title: 'Hello', price: 9.5 },
      segment_uuids: [], publish_at: null, unpublish_at: null,
    });
    const shown = await entries.get(created.meta.uuid);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual(created);
    const listed = await entries.list();
    expect(listed.json().entries).toContainEqual(created);
    expect(listed.json().meta).toMatchObject({ per_page: 10, current_page: 1 });
  });

  it('stores every field type as the content API shows it', async () => {
    const asset = await assetIn(space.uid);
    const author = await entries.created({ name: 'Author' });
    const fields = {
      title: 'T', body: '# Heading\n\n*text*', pages: 12, price: -0.25, featured: false, issued_on: '2026-02-28T10:30:00+02:00',
      section: 'news', labels: ['c', 'a', 'c'], place: { lat: -33.45, lon: -70.66 }, cover: asset,
      author: { uuid: author.meta.uuid.toUpperCase() }, related: [author.meta.uuid, { uuid: author.meta.uuid }],
    };
    const created = await entries.created({ name: 'Every field', fields });
    expect(created.fields).toEqual({
      ...fields, issued_on: '2026-02-28T08:30:00.000Z', labels: ['c', 'a'], cover: { uuid: asset },
      author: { uuid: author.meta.uuid }, related: [{ uuid: author.meta.uuid }],
    });
    const dated = await entries.created({ name: 'Dated', fields: { issued_on: '2026-02-28' } });
    expect(dated.fields.issued_on).toBe('2026-02-28');
  });

  it('refuses values of the wrong kind with 422 naming each field, unknown fields included', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 7 }, 'fields.title'],
      [{ title: 'x'.repeat(10_001) }, 'fields.title'],
      [{ pages: 1.5 }, 'fields.pages'],
      [{ pages: 2 ** 53 }, 'fields.pages'],
      [{ pages: '3' }, 'fields.pages'],
      [{ price: 'cheap' }, 'fields.price'],
      [{ featured: 'yes' }, 'fields.featured'],
      [{ issued_on: '2026-02-30' }, 'fields.issued_on'],
      [{ issued_on: '2026-02-03T10:00:00' }, 'fields.issued_on'],
      [{ issued_on: 'tomorrow' }, 'fields.issued_on'],
      [{ section: 'weather' }, 'fields.section'],
      [{ section: ['news'] }, 'fields.section'],
      [{ labels: ['a', 'z'] }, 'fields.labels'],
      [{ labels: 'a' }, 'fields.labels'],
      [{ place: { lat: 91, lon: 0 } }, 'fields.place'],
      [{ place: { lat: 0, lon: -180.5 } }, 'fields.place'],
      [{ place: { lat: 0 } }, 'fields.place'],
      [{ place: { lat: 0, lon: 0, alt: 3 } }, 'fields.place'],
      [{ cover: 'not-a-uuid' }, 'fields.cover'],
      [{ cover: randomUUID() }, 'fields.cover'],
      [{ author: randomUUID() }, 'fields.author'],
      [{ related: [randomUUID()] }, 'fields.related'],
      [{ related: { uuid: randomUUID() } }, 'fields.related'],
      [{ nope: 1 }, 'fields.nope'],
      [{ constructor: 1 }, 'fields.constructor'],
    ];
    for (const [fields, field] of cases) {
      const res = await entries.create({ name: 'Bad', fields });
      expect(res.statusCode, `${JSON.stringify(fields).slice(0, 80)} ${res.body.slice(0, 200)}`).toBe(422);
      expect(fieldsOf(res), JSON.stringify(fields).slice(0, 80)).toContain(field);
    }
    const many = await entries.create({ name: 'Bad', fields: { nope: 1, pages: 'x', title: 3 } });
    expect(fieldsOf(many).sort()).toEqual(['fields.nope', 'fields.pages', 'fields.title']);
    expect(many.json().errors).toContain('Fields nope is not a field of the content type');
    const none = await entries.list('?query=Bad');
    expect(none.json().meta.total_entries).toBe(0);
  });

  it('refuses references to assets and entries of another space', async () => {
    const other = await makeSpace(h);
    const otherType = await makeType(h, other.uid, { fields: [{ name: 'title', type: 'text' }] });
    const foreign = await entryClient(h, other.uid, otherType.uid).created({ name: 'Foreign' });
    const foreignAsset = await assetIn(other.uid);
    const res = await entries.create({ name: 'Refs', fields: { author: foreign.meta.uuid, cover: foreignAsset, related: [foreign.meta.uuid] } });
    expect(res.statusCode).toBe(422);
    expect(fieldsOf(res).sort()).toEqual(['fields.author', 'fields.cover', 'fields.related']);
  });

  it('checks required fields, the name, slug, tags, category and locale', async () => {
    const strict = await makeType(h, space.uid, { fields: [{ name: 'title', type: 'text', required: true, localized: true }, { name: 'labels', type: 'checkbox', options: ['a'], required: true }] });
    const client = entryClient(h, space.uid, strict.uid);
    const missing = await client.create({ name: 'No title', fields: { title: '', labels: [] } });
    expect(missing.statusCode).toBe(422);
    expect(fieldsOf(missing).sort()).toEqual(['fields.labels', 'fields.title']);
    const cases: [Record<string, unknown>, string][] = [
      [{ fields: { title: 'x', labels: ['a'] } }, 'name'],
      [{ name: '  ', fields: { title: 'x', labels: ['a'] } }, 'name'],
      [{ name: 'x'.repeat(256), fields: { title: 'x', labels: ['a'] } }, 'name'],
      [{ name: 'Ok', slug: 'Not A Slug', fields: { title: 'x', labels: ['a'] } }, 'slug'],
      [{ name: 'Ok', slug: '-x', fields: { title: 'x', labels: ['a'] } }, 'slug'],
      [{ name: 'Ok', tags: [' '], fields: { title: 'x', labels: ['a'] } }, 'tags'],
      [{ name: 'Ok', category: 'news//x', fields: { title: 'x', labels: ['a'] } }, 'category'],
      [{ name: 'Ok', locale: 'de', fields: { title: 'x', labels: ['a'] } }, 'locale'],
      [{ name: 'Ok', fields: { title: 'x', labels: ['a'] }, colour: 'red' }, 'colour'],
      [{ name: 'Ok', fields: [] }, 'fields'],
    ];
    for (const [body, field] of cases) {
      const res = await client.create(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(fieldsOf(res), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    const ok = await client.created({ name: 'Café con leche!', locale: 'es', category: '/news/', fields: { title: 'x', labels: ['a'] } });
    expect(ok.meta).toMatchObject({ slug: 'cafe-con-leche', locale: 'es', category: 'news', available_locales: ['es'] });
  });

  it('keeps slugs unique per type, locale and state with 422, also under 50 parallel creates', async () => {
    await entries.created({ name: 'First', slug: 'taken' });
    const again = await entries.create({ name: 'Second', slug: 'taken' });
    expect(again.statusCode).toBe(422);
    expect(again.json().details).toEqual([{ field: 'slug', messages: ['has already been taken in this type and locale'] }]);
    await entries.created({ name: 'Other locale', slug: 'taken', locale: 'es' });
    const otherType = await makeType(h, space.uid, { fields: [] });
    await entryClient(h, space.uid, otherType.uid).created({ name: 'Other type', slug: 'taken' });

    const racing = await Promise.all(Array.from({ length: 50 }, (_, i) => entries.create({ name: `Race ${i}`, slug: 'race' })));
    const statuses = racing.map((res) => res.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(49);
    const listed = await entries.list('?query=Race&per_page=100');
    expect(listed.json().meta.total_entries).toBe(1);

    const mine = await entries.created({ name: 'Mine', slug: 'mine' });
    const clash = await entries.put(mine.meta.uuid, { slug: 'taken' });
    expect(clash.statusCode).toBe(422);
    expect(fieldsOf(clash)).toEqual(['slug']);
  });

  it('saves drafts partially, adds locale versions and copies fields that are not localized to every locale', async () => {
    const created = await entries.created({ name: 'Original', fields: { title: 'Hello', price: 5, section: 'news' }, tags: ['x'] });
    const uuid = created.meta.uuid;
    h.clock.advanceMinutes(1);
    const renamed = await entries.put(uuid, { name: 'Renamed', fields: { pages: 3 } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().meta).toMatchObject({ name: 'Renamed', slug: 'original', tags: ['x'], updated_at: h.clock.now().toISOString(), created_at: created.meta.created_at });
    expect(renamed.json().fields).toMatchObject({ title: 'Hello', price: 5, pages: 3, section: 'news' });

    const spanish = await entries.put(uuid, { locale: 'es', name: 'Original en español', slug: 'original-es', fields: { title: 'Hola' } });
    expect(spanish.statusCode, spanish.body).toBe(200);
    expect(spanish.json().meta).toMatchObject({ locale: 'es', slug: 'original-es', available_locales: ['en', 'es'], tags: ['x'] });
    expect(spanish.json().fields).toMatchObject({ title: 'Hola', price: 5, pages: 3 });

    // price is not localized: written in Spanish, it changes in English too; title is localized: it does not.
    const shared = await entries.put(uuid, { locale: 'es', fields: { price: 7, title: 'Hola de nuevo' } });
    expect(shared.statusCode).toBe(200);
    const english = (await entries.get(uuid)).json();
    expect(english.fields).toMatchObject({ title: 'Hello', price: 7 });
    expect(english.meta.available_locales).toEqual(['en', 'es']);
    const inSpanish = (await entries.get(uuid, '?locale=es')).json();
    expect(inSpanish.fields).toMatchObject({ title: 'Hola de nuevo', price: 7 });

    const emptied = await entries.put(uuid, { fields: { price: null } });
    expect(emptied.json().fields.price).toBeNull();
    expect((await entries.get(uuid, '?locale=es')).json().fields.price).toBeNull();

    const listed = await entries.list(`?locale=es&query=${encodeURIComponent('español')}`);
    expect(listed.json().entries.map((e: { meta: { uuid: string } }) => e.meta.uuid)).toEqual([uuid]);
    expect((await entries.get(uuid, '?locale=fr')).statusCode).toBe(404);
    expect((await entries.get(uuid, '?version=published')).statusCode).toBe(404);
    expect((await entries.get(uuid, '?version=live')).statusCode).toBe(422);
    expect((await entries.put(uuid, { locale: 'de' })).statusCode).toBe(422);
  });

  it('keeps private entries to existing segments, the same in every locale', async () => {
    const realm = await makeRealm(h);
    const segment = await h.request({
      method: 'POST', url: '/api/admin/segments', payload: { name: 'VIP', realm_uid: realm.uid, filters: { attribute: 'first_name', operator: 'eq', value: 'Ana' } },
    });
    expect(segment.statusCode, segment.body).toBe(201);
    const segmentUuid = segment.json().uuid;
    const noSegments = await entries.create({ name: 'Secret', private: true });
    expect(fieldsOf(noSegments)).toEqual(['segment_uuids']);
    const unknown = await entries.create({ name: 'Secret', private: true, segment_uuids: [randomUUID()] });
    expect(fieldsOf(unknown)).toEqual(['segment_uuids']);
    const malformed = await entries.create({ name: 'Secret', private: true, segment_uuids: ['nope'] });
    expect(fieldsOf(malformed)).toEqual(['segment_uuids']);

    const secret = await entries.created({ name: 'Secret', private: true, segment_uuids: [segmentUuid] });
    expect(secret.meta.private).toBe(true);
    expect(secret.segment_uuids).toEqual([segmentUuid]);
    await entries.put(secret.meta.uuid, { locale: 'fr', name: 'Secret fr' });
    const opened = await entries.put(secret.meta.uuid, { private: false, segment_uuids: [] });
    expect(opened.json()).toMatchObject({ meta: { private: false }, segment_uuids: [] });
    expect((await entries.get(secret.meta.uuid, '?locale=fr')).json()).toMatchObject({ meta: { private: false }, segment_uuids: [] });
  });

  it('lists with pagination, sorting and filters', async () => {
    const listType = await makeType(h, space.uid, { fields: [] });
    const client = entryClient(h, space.uid, listType.uid);
    for (const name of ['Bravo', 'Alpha', 'Charlie']) {
      h.clock.advanceMinutes(1);
      await client.created({ name });
    }
    await client.created({ name: 'Delta', locale: 'es' });
    const names = async (query: string) => (await client.list(query)).json().entries.map((e: { meta: { name: string } }) => e.meta.name);
    expect(await names('')).toEqual(['Delta', 'Charlie', 'Alpha', 'Bravo']);
    expect(await names('?sort_by=name&order=ASC')).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
    expect(await names('?sort_by=__proto__')).toEqual(['Delta', 'Charlie', 'Alpha', 'Bravo']);
    expect(await names('?locale=en&sort_by=name&per_page=2&page=2')).toEqual(['Alpha']);
    const page = (await client.list('?per_page=2&page=9')).json();
    expect(page).toEqual({ entries: [], meta: { total_entries: 4, per_page: 2, current_page: 9, total_pages: 2 } });
    expect(await names('?version=published')).toEqual([]);
    const trimmedList = (await client.list('?only[]=meta&per_page=1')).json();
    expect(Object.keys(trimmedList.entries[0])).toEqual(['meta']);
  });

  it('deletes an entry with every locale: 204, then 404', async () => {
    const created = await entries.created({ name: 'Doomed' });
    await entries.put(created.meta.uuid, { locale: 'es', name: 'Condenado' });
    const res = await entries.remove(created.meta.uuid);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await entries.get(created.meta.uuid)).statusCode).toBe(404);
    expect((await entries.get(created.meta.uuid, '?locale=es')).statusCode).toBe(404);
    expect((await entries.remove(created.meta.uuid)).statusCode).toBe(404);
  });

  it('answers bad input with documented 4xx, never 500', async () => {
    expect((await entries.get('not-a-uuid')).statusCode).toBe(404);
    expect((await entries.get(String(2 ** 40))).statusCode).toBe(404);
    expect((await entries.get(randomUUID())).statusCode).toBe(404);
    expect((await entryClient(h, 'nope', type.uid).list()).statusCode).toBe(404);
    expect((await entryClient(h, space.uid, 'nope').create({ name: 'x' })).statusCode).toBe(404);
    expect((await entries.create({ name: 'a\u0000b' })).statusCode).toBe(400);
    expect((await entries.create({ name: 'x', fields: { title: 'a\u0000' } })).statusCode).toBe(400);
    expect((await entries.list('?locale=%00')).statusCode).toBe(400);
    const huge = await h.request({ method: 'POST', url: `/api/admin/content/spaces/${space.uid}/types/${type.uid}/entries`, payload: { name: 'x', fields: { body: 'x'.repeat(10 * 1024 * 1024) } } });
    expect(huge.statusCode).toBe(413);
    const deep = await entries.create({ name: 'x', fields: { related: Array.from({ length: 101 }, () => randomUUID()) } });
    expect(fieldsOf(deep)).toEqual(['fields.related']);
    const notJson = await h.request({ method: 'POST', url: `/api/admin/content/spaces/${space.uid}/types/${type.uid}/entries`, headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(notJson.statusCode).toBe(400);
  });
});
