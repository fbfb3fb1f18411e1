import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentEntries, contentEntryVersions, contentTypes } from '../../src/tables/content.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { memberToken } from '../helpers/realms.js';
import { makeSpace, makeType, uniqueUid } from '../helpers/content.js';

const typesOf = (space: string) => `/api/admin/content/spaces/${space}/types`;

const EVERY_FIELD = [
  { name: 'title', type: 'text', required: true, localized: true, sortable: true },
  { name: 'body', type: 'rich_text', localized: true },
  { name: 'pages', type: 'integer', sortable: true },
  { name: 'price', type: 'decimal', sortable: true },
  { name: 'featured', type: 'boolean' },
  { name: 'issued_on', type: 'date', sortable: true },
  { name: 'section', type: 'dropdown', options: ['news', 'sports'], sortable: true },
  { name: 'labels', type: 'checkbox', options: ['a', 'b', 'c'] },
  { name: 'place', type: 'location' },
  { name: 'cover', type: 'asset' },
  { name: 'author', type: 'entry' },
  { name: 'related', type: 'entries' },
];

describe('content types admin API', () => {
  let h: Harness;
  let space: { uid: string };
  beforeAll(async () => {
    h = await startHarness();
    space = await makeSpace(h);
  });
  afterAll(async () => { await h?.close(); });

  /** An entry of the type written straight into the tables, with a draft in English holding `fields`. */
  async function addEntry(typeUid: string, fields: Record<string, unknown>) {
    const [type] = await h.ctx.db.select().from(contentTypes).where(eq(contentTypes.uid, typeUid));
    const [entry] = await h.ctx.db.insert(contentEntries).values({ spaceId: type.spaceId, typeId: type.id }).returning();
    await h.ctx.db.insert(contentEntryVersions).values({ entryId: entry.id, typeId: type.id, locale: 'en', state: 'draft', name: 'E', slug: `e-${entry.id}`, fields });
    return entry;
  }

  it('creates a type with every field type, with the flags defaulted, and shows it', async () => {
    const res = await h.request({ method: 'POST', url: typesOf(space.uid), payload: { uid: 'article', name: 'Article', fields: EVERY_FIELD } });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      uid: 'article', name: 'Article',
      fields: EVERY_FIELD.map((f) => ({ required: false, localized: false, sortable: false, options: [], ...f })),
      created_at: expect.any(String), updated_at: expect.any(String),
    });
    const shown = await h.request({ method: 'GET', url: `${typesOf(space.uid)}/article` });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual(body);
    const noFields = await h.request({ method: 'POST', url: typesOf(space.uid), payload: { uid: 'empty', name: 'Empty' } });
    expect(noFields.statusCode).toBe(201);
    expect(noFields.json().fields).toEqual([]);
  });

  it('refuses invalid fields with 422 naming each one', async () => {
    const res = await h.request({
      method: 'POST', url: typesOf(space.uid),
      payload: {
        uid: uniqueUid('t'), name: 'Bad',
        fields: [
          { name: 'Title', type: 'text' },
          { name: 'ok', type: 'text' },
          { name: 'ok', type: 'text' },
          { name: 'n', type: 'number' },
          { name: 'd', type: 'dropdown' },
          { name: 'c', type: 'checkbox', options: ['a', 'a', ' '] },
          { name: 't', type: 'text', options: ['a'] },
          { name: 'loc', type: 'location', sortable: true },
          { name: '', type: 'text' },
        ],
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([
      { field: 'fields.0.name', messages: [expect.stringMatching(/^must be an identifier/)] },
      { field: 'fields.2.name', messages: ['is used by another field: ok'] },
      { field: 'fields.3.type', messages: ['must be one of text, rich_text, integer, decimal, boolean, date, dropdown, checkbox, location, asset, entry, entries'] },
      { field: 'fields.4.options', messages: ["can't be empty for a dropdown or checkbox"] },
      { field: 'fields.5.options', messages: ["can't contain a blank choice", 'must be distinct'] },
      { field: 'fields.6.options', messages: ['must be empty: only dropdown and checkbox fields have options'] },
      { field: 'fields.7.sortable', messages: ['is only possible for text, integer, decimal, boolean, date, dropdown fields'] },
      { field: 'fields.8.name', messages: ["can't be blank"] },
    ]);
  });

  it('refuses more than 100 fields, bad uids, names and shapes', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `f${i}`, type: 'text' }));
    const res = await h.request({ method: 'POST', url: typesOf(space.uid), payload: { uid: uniqueUid('t'), name: 'Many', fields: many } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'fields', messages: ['are too many (maximum is 100)'] }]);
    const fifty = await h.request({ method: 'POST', url: typesOf(space.uid), payload: { uid: uniqueUid('t'), name: 'Hundred', fields: many.slice(0, 100) } });
    expect(fifty.statusCode).toBe(201);

    const bad = await h.request({ method: 'POST', url: typesOf(space.uid), payload: { uid: 'Not OK', name: '' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details.map((d: { field: string }) => d.field)).toEqual(['uid', 'name']);
    for (const payload of [
      { uid: 'x', name: 'x', fields: [{ name: 'a', type: 'text', extra: true }] },
      { uid: 'x', name: 'x', fields: [{ name: 'a' }] },
      { uid: 'x', name: 'x', fields: { a: 1 } },
      { uid: 'x', name: 'x', fields: [{ name: 'a', type: 'dropdown', options: Array.from({ length: 101 }, (_, i) => `o${i}`) }] },
      { uid: 'x', name: 'x', fields: [{ name: 'a', type: 'dropdown', options: ['x'.repeat(101)] }] },
      { uid: 'x', name: 'x', fields: [{ name: 'a'.repeat(65), type: 'text' }] },
    ]) {
      const refused = await h.request({ method: 'POST', url: typesOf(space.uid), payload });
      expect(refused.statusCode, JSON.stringify(payload).slice(0, 200)).toBe(422);
    }
  });

  it('keeps uids unique per space, not across spaces', async () => {
    const other = await makeSpace(h);
    await makeType(h, space.uid, { uid: 'shared' });
    expect((await h.request({ method: 'POST', url: typesOf(other.uid), payload: { uid: 'shared', name: 'x' } })).statusCode).toBe(201);
    const dup = await h.request({ method: 'POST', url: typesOf(space.uid), payload: { uid: 'shared', name: 'x' } });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().details).toEqual([{ field: 'uid', messages: ['has already been taken'] }]);
    const other2 = await makeType(h, space.uid);
    const renamed = await h.request({ method: 'PUT', url: `${typesOf(space.uid)}/${other2.uid}`, payload: { uid: 'shared' } });
    expect(renamed.statusCode).toBe(422);
  });

  it('changes a type partially; fields replace the list', async () => {
    const type = await makeType(h, space.uid, { fields: [{ name: 'title', type: 'text' }] });
    const named = await h.request({ method: 'PUT', url: `${typesOf(space.uid)}/${type.uid}`, payload: { name: 'Renamed' } });
    expect(named.statusCode).toBe(200);
    expect(named.json()).toMatchObject({ uid: type.uid, name: 'Renamed', fields: [{ name: 'title', type: 'text' }] });
    const fields = await h.request({
      method: 'PUT', url: `${typesOf(space.uid)}/${type.uid}`, payload: { fields: [{ name: 'price', type: 'integer', required: true }] },
    });
    expect(fields.statusCode).toBe(200);
    expect(fields.json().fields).toEqual([{ name: 'price', type: 'integer', required: true, localized: false, sortable: false, options: [] }]);
    const renamed = await h.request({ method: 'PUT', url: `${typesOf(space.uid)}/${type.uid}`, payload: { uid: `${type.uid}-2` } });
    expect(renamed.json().uid).toBe(`${type.uid}-2`);
    expect((await h.request({ method: 'GET', url: `${typesOf(space.uid)}/${type.uid}-2` })).statusCode).toBe(200);
  });

  it('while entries exist: allows removing a field (dropping its values), refuses incompatible changes', async () => {
    const type = await makeType(h, space.uid, {
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'price', type: 'decimal' },
        { name: 'section', type: 'dropdown', options: ['news', 'sports'] },
      ],
    });
    const entry = await addEntry(type.uid, { title: 'Hello', price: 9.5, section: 'news' });
    const url = `${typesOf(space.uid)}/${type.uid}`;
    const fieldsWith = (changes: Record<string, Record<string, unknown>>) => [
      { name: 'title', type: 'text', required: true, ...changes.title },
      { name: 'price', type: 'decimal', ...changes.price },
      { name: 'section', type: 'dropdown', options: ['news', 'sports'], ...changes.section },
    ];

    const retyped = await h.request({ method: 'PUT', url, payload: { fields: fieldsWith({ price: { type: 'integer' } }) } });
    expect(retyped.statusCode).toBe(422);
    expect(retyped.json().details).toEqual([{ field: 'fields.1.type', messages: ["can't change from decimal while the type has entries"] }]);
    const localized = await h.request({ method: 'PUT', url, payload: { fields: fieldsWith({ title: { localized: true } }) } });
    expect(localized.json().details).toEqual([{ field: 'fields.0.localized', messages: ["can't change while the type has entries"] }]);
    const required = await h.request({ method: 'PUT', url, payload: { fields: fieldsWith({ price: { required: true } }) } });
    expect(required.json().details).toEqual([{ field: 'fields.1.required', messages: ["can't become true while the type has entries"] }]);
    const lostChoice = await h.request({ method: 'PUT', url, payload: { fields: fieldsWith({ section: { options: ['sports', 'culture'] } }) } });
    expect(lostChoice.json().details).toEqual([{ field: 'fields.2.options', messages: ['must keep news while the type has entries'] }]);
    const newRequired = await h.request({ method: 'PUT', url, payload: { fields: [...fieldsWith({}), { name: 'extra', type: 'text', required: true }] } });
    expect(newRequired.json().details).toEqual([{ field: 'fields.3.required', messages: ['must be false for a new field while the type has entries'] }]);

    const allowed = await h.request({
      method: 'PUT', url,
      payload: { fields: [
        { name: 'title', type: 'text', required: false, sortable: true },
        { name: 'section', type: 'dropdown', options: ['news', 'sports', 'culture'] },
        { name: 'extra', type: 'text' },
      ] },
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    const [version] = await h.ctx.db.select().from(contentEntryVersions).where(eq(contentEntryVersions.entryId, entry.id));
    expect(version.fields).toEqual({ title: 'Hello', section: 'news' });
  });

  it('changes anything while the type has no entries', async () => {
    const type = await makeType(h, space.uid, { fields: [{ name: 'price', type: 'decimal' }] });
    const res = await h.request({ method: 'PUT', url: `${typesOf(space.uid)}/${type.uid}`, payload: { fields: [{ name: 'price', type: 'integer', required: true, localized: true }] } });
    expect(res.statusCode).toBe(200);
  });

  it('deletes a type with its entries (204)', async () => {
    const type = await makeType(h, space.uid, { fields: [{ name: 'title', type: 'text' }] });
    const entry = await addEntry(type.uid, { title: 'Gone' });
    const res = await h.request({ method: 'DELETE', url: `${typesOf(space.uid)}/${type.uid}` });
    expect(res.statusCode).toBe(204);
    expect(await h.ctx.db.select().from(contentEntries).where(eq(contentEntries.id, entry.id))).toEqual([]);
    expect(await h.ctx.db.select().from(contentEntryVersions).where(eq(contentEntryVersions.entryId, entry.id))).toEqual([]);
    expect((await h.request({ method: 'GET', url: `${typesOf(space.uid)}/${type.uid}` })).statusCode).toBe(404);
  });

  it('answers 404 for an unknown space or type', async () => {
    const unknownSpace = await h.request({ method: 'GET', url: typesOf('nope') });
    expect(unknownSpace.statusCode).toBe(404);
    expect(unknownSpace.json()).toEqual({ errors: ['Space not found'], code: 'ATR_NOT_FOUND' });
    expect((await h.request({ method: 'POST', url: typesOf('nope'), payload: { uid: 'x', name: 'x' } })).statusCode).toBe(404);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await h.request({ method, url: `${typesOf(space.uid)}/nope`, ...(method === 'PUT' ? { payload: { name: 'x' } } : {}) });
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toEqual({ errors: ['Content type not found'], code: 'ATR_NOT_FOUND' });
    }
  });

  it('lists the types of a space with pagination, sorting and only[]', async () => {
    const own = await makeSpace(h);
    for (const name of ['Bravo', 'Alpha', 'Charlie']) {
      h.clock.advance(1000);
      await makeType(h, own.uid, { name });
    }
    const res = await h.request({ method: 'GET', url: `${typesOf(own.uid)}?per_page=2` });
    expect(res.statusCode).toBe(200);
    expect(res.json().meta).toEqual({ total_entries: 3, per_page: 2, current_page: 1, total_pages: 2 });
    expect(res.json().types.map((t: { name: string }) => t.name)).toEqual(['Charlie', 'Alpha']);
    const byName = await h.request({ method: 'GET', url: `${typesOf(own.uid)}?sort_by=name&order=asc&only=uid,name` });
    expect(byName.json().types.map((t: { name: string }) => t.name)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(Object.keys(byName.json().types[0])).toEqual(['uid', 'name']);
    const page2 = await h.request({ method: 'GET', url: `${typesOf(own.uid)}?per_page=2&page=2` });
    expect(page2.json().types.map((t: { name: string }) => t.name)).toEqual(['Bravo']);
  });

  it('needs content.read to read and content.manage to change, on the role\'s own space only', async () => {
    const own = await makeSpace(h);
    const other = await makeSpace(h);
    const ownType = await makeType(h, own.uid);
    const otherType = await makeType(h, other.uid);
    const viewer = await memberToken(h, [{ key: 'space_viewer', target: own.uid }]);
    const editor = await memberToken(h, [{ key: 'space_editor', target: own.uid }]);
    const admin = await memberToken(h, [{ key: 'space_admin', target: own.uid }]);
    const payload = { uid: uniqueUid('t'), name: 'x' };

    expect((await h.request({ method: 'GET', url: typesOf(own.uid), token: viewer })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: `${typesOf(own.uid)}/${ownType.uid}`, token: viewer })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: typesOf(other.uid), token: viewer })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: `${typesOf(other.uid)}/${otherType.uid}`, token: admin })).statusCode).toBe(403);
    for (const token of [viewer, editor]) {
      expect((await h.request({ method: 'POST', url: typesOf(own.uid), token, payload })).statusCode).toBe(403);
      expect((await h.request({ method: 'PUT', url: `${typesOf(own.uid)}/${ownType.uid}`, token, payload: { name: 'y' } })).statusCode).toBe(403);
      expect((await h.request({ method: 'DELETE', url: `${typesOf(own.uid)}/${ownType.uid}`, token })).statusCode).toBe(403);
    }
    expect((await h.request({ method: 'POST', url: typesOf(other.uid), token: admin, payload })).statusCode).toBe(403);
    expect((await h.request({ method: 'PUT', url: `${typesOf(other.uid)}/${otherType.uid}`, token: admin, payload: { name: 'y' } })).statusCode).toBe(403);
    expect((await h.request({ method: 'DELETE', url: `${typesOf(other.uid)}/${otherType.uid}`, token: admin })).statusCode).toBe(403);
    expect((await h.request({ method: 'POST', url: typesOf(own.uid), token: admin, payload })).statusCode).toBe(201);
    expect((await h.request({ method: 'PUT', url: `${typesOf(own.uid)}/${ownType.uid}`, token: admin, payload: { name: 'y' } })).statusCode).toBe(200);
    expect((await h.request({ method: 'DELETE', url: `${typesOf(own.uid)}/${ownType.uid}`, token: admin })).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: typesOf(own.uid), token: null })).statusCode).toBe(401);
  });
});
