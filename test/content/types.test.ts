import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentEntries, contentEntryVersions, contentTypes } from '../../src/tables/content.js';
import { adminClient, refusal, statusOf } from '../helpers/client.js';
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

  type Field = { name: string; labels?: Record<string, string>; type: string; required?: boolean; localized?: boolean; sortable?: boolean; options?: string[] };
  const admin = (token?: string | null) => adminClient(h, token);
  const inSpace = (spaceUid: string) => ({ params: { path: { space_uid: spaceUid } } });
  const ofType = (spaceUid: string, typeUid: string) => ({ params: { path: { space_uid: spaceUid, type_uid: typeUid } } });
  const create = (spaceUid: string, body: { uid: string; name: string; fields?: Field[] }, token?: string) =>
    admin(token).POST('/content/spaces/{space_uid}/types', { ...inSpace(spaceUid), body });
  const update = (spaceUid: string, typeUid: string, body: { uid?: string; name?: string; fields?: Field[] }, token?: string) =>
    admin(token).PUT('/content/spaces/{space_uid}/types/{type_uid}', { ...ofType(spaceUid, typeUid), body });
  const show = (spaceUid: string, typeUid: string, token?: string) => admin(token).GET('/content/spaces/{space_uid}/types/{type_uid}', ofType(spaceUid, typeUid));
  const remove = (spaceUid: string, typeUid: string, token?: string) => admin(token).DELETE('/content/spaces/{space_uid}/types/{type_uid}', ofType(spaceUid, typeUid));

  /** An entry of the type written straight into the tables, with a draft in English holding `fields`. */
  async function addEntry(typeUid: string, fields: Record<string, unknown>) {
    const [type] = await h.ctx.db.select().from(contentTypes).where(eq(contentTypes.uid, typeUid));
    const [entry] = await h.ctx.db.insert(contentEntries).values({ spaceId: type.spaceId, typeId: type.id }).returning();
    await h.ctx.db.insert(contentEntryVersions).values({ entryId: entry.id, typeId: type.id, locale: 'en', state: 'draft', name: 'E', slug: `e-${entry.id}`, fields });
    return entry;
  }

  it('creates a type with every field type, with the flags defaulted, and shows it', async () => {
    const res = await create(space.uid, { uid: 'article', name: 'Article', fields: EVERY_FIELD });
    expect(res.response.status).toBe(201);
    const body = res.data!;
    expect(body).toEqual({
      uid: 'article', name: 'Article',
      fields: EVERY_FIELD.map((f) => ({ labels: {}, required: false, localized: false, sortable: false, filterable: false, options: [], ...f })),
      created_at: expect.any(String), updated_at: expect.any(String),
    });
    const shown = await show(space.uid, 'article');
    expect(shown.response.status).toBe(200);
    expect(shown.data).toEqual(body);
    const noFields = await create(space.uid, { uid: 'empty', name: 'Empty' });
    expect(noFields.response.status).toBe(201);
    expect(noFields.data!.fields).toEqual([]);
  });

  it('refuses invalid fields with 422 naming each one', async () => {
    const res = await refusal(create(space.uid, {
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
    }));
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual([
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

  it('stores each field\'s labels by locale of the space, trimmed, and shows them; refuses other locales, blank and long labels', async () => {
    const res = await create(space.uid, {
      uid: uniqueUid('t'), name: 'Labelled',
      fields: [
        { name: 'cover_image', labels: { en: ' Cover image ', ES: 'Imagen de portada' }, type: 'asset' },
        { name: 'plain', type: 'text' },
      ],
    });
    expect(res.response.status).toBe(201);
    expect(res.data!.fields.map((f) => ({ name: f.name, labels: f.labels }))).toEqual([
      { name: 'cover_image', labels: { en: 'Cover image', es: 'Imagen de portada' } },
      { name: 'plain', labels: {} },
    ]);
    expect((await show(space.uid, res.data!.uid)).data!.fields[0]!.labels).toEqual({ en: 'Cover image', es: 'Imagen de portada' });
    const listed = await admin().GET('/content/spaces/{space_uid}/types', { params: { path: { space_uid: space.uid }, query: { query: res.data!.uid } } });
    expect(listed.data!.types[0]!.fields![0]!.labels).toEqual({ en: 'Cover image', es: 'Imagen de portada' });
    // PUT replaces them with the list.
    const changed = await update(space.uid, res.data!.uid, { fields: [{ name: 'cover_image', labels: { es: 'Portada' }, type: 'asset' }] });
    expect(changed.data!.fields[0]!.labels).toEqual({ es: 'Portada' });

    const bad = await refusal(create(space.uid, {
      uid: uniqueUid('t'), name: 'Bad labels',
      fields: [
        { name: 'a', labels: { fr: 'Titre', 'not a tag': 'x', en: 'Fine' }, type: 'text' },
        { name: 'b', labels: { en: '   ' }, type: 'text' },
        { name: 'c', labels: { es: 'x'.repeat(101) }, type: 'text' },
        { name: 'd', labels: { en: 'One', EN: 'Two' }, type: 'text' },
      ],
    }));
    expect(bad.status).toBe(422);
    expect(bad.body.details).toEqual([
      { field: 'fields.0.labels.fr', messages: ['is not a locale of the space (en, es)'] },
      { field: 'fields.0.labels.not a tag', messages: ['is not a locale of the space (en, es)'] },
      { field: 'fields.1.labels.en', messages: ["can't be blank"] },
      { field: 'fields.2.labels.es', messages: ['is too long (maximum is 100 characters)'] },
      { field: 'fields.3.labels.EN', messages: ['names the locale en twice'] },
    ]);
    const proto = await h.request({ method: 'POST', url: typesOf(space.uid), payload: JSON.parse('{"uid":"p","name":"p","fields":[{"name":"a","type":"text","labels":{"__proto__":"x"}}]}') });
    // The body parser refuses a `__proto__` key before any route sees it.
    expect(proto.statusCode).toBe(400);
  });

  it('shows no labels for a type stored before labels, nor those of a locale the space no longer offers', async () => {
    const own = await makeSpace(h);
    const type = await makeType(h, own.uid, { fields: [{ name: 'title', labels: { en: 'Title', es: 'Título' }, type: 'text' }] });
    const old = await makeType(h, own.uid);
    // As stored before labels existed (and before filterable).
    await h.ctx.db.update(contentTypes).set({ fields: [{ name: 'old', type: 'text', required: false, localized: false, sortable: false, options: [] }] })
      .where(eq(contentTypes.uid, old.uid));
    expect((await show(own.uid, old.uid)).data!.fields).toEqual([
      { name: 'old', labels: {}, type: 'text', required: false, localized: false, sortable: false, filterable: false, options: [] },
    ]);
    const spaceChange = await h.request({ method: 'PUT', url: `/api/admin/content/spaces/${own.uid}`, payload: { locales: ['en'] } });
    expect(spaceChange.statusCode, spaceChange.body).toBe(200);
    const shown = await show(own.uid, type.uid);
    expect(shown.data!.fields[0]!.labels).toEqual({ en: 'Title' });
    // What is shown can be sent back as it is.
    expect(await statusOf(update(own.uid, type.uid, { fields: shown.data!.fields }))).toBe(200);
  });

  it('refuses more than 100 fields, bad uids, names and shapes', async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `f${i}`, type: 'text' }));
    const res = await refusal(create(space.uid, { uid: uniqueUid('t'), name: 'Many', fields: many }));
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual([{ field: 'fields', messages: ['are too many (maximum is 100)'] }]);
    expect(await statusOf(create(space.uid, { uid: uniqueUid('t'), name: 'Hundred', fields: many.slice(0, 100) }))).toBe(201);

    const bad = await refusal(create(space.uid, { uid: 'Not OK', name: '' }));
    expect(bad.status).toBe(422);
    expect(bad.body.details!.map((d) => d.field)).toEqual(['uid', 'name']);
    // Raw: shapes the client's types refuse (an unknown attribute, a field without a type, fields not a list), and long ones.
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
    expect(await statusOf(create(other.uid, { uid: 'shared', name: 'x' }))).toBe(201);
    const dup = await refusal(create(space.uid, { uid: 'shared', name: 'x' }));
    expect(dup.status).toBe(422);
    expect(dup.body.details).toEqual([{ field: 'uid', messages: ['has already been taken'] }]);
    const other2 = await makeType(h, space.uid);
    expect(await statusOf(update(space.uid, other2.uid, { uid: 'shared' }))).toBe(422);
  });

  it('changes a type partially; fields replace the list', async () => {
    const type = await makeType(h, space.uid, { fields: [{ name: 'title', type: 'text' }] });
    const named = await update(space.uid, type.uid, { name: 'Renamed' });
    expect(named.response.status).toBe(200);
    expect(named.data).toMatchObject({ uid: type.uid, name: 'Renamed', fields: [{ name: 'title', type: 'text' }] });
    const fields = await update(space.uid, type.uid, { fields: [{ name: 'price', type: 'integer', required: true }] });
    expect(fields.response.status).toBe(200);
    expect(fields.data!.fields).toEqual([{ name: 'price', labels: {}, type: 'integer', required: true, localized: false, sortable: false, filterable: false, options: [] }]);
    const { data: renamed } = await update(space.uid, type.uid, { uid: `${type.uid}-2` });
    expect(renamed!.uid).toBe(`${type.uid}-2`);
    expect(await statusOf(show(space.uid, `${type.uid}-2`))).toBe(200);
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
    const change = (fields: Field[]) => update(space.uid, type.uid, { fields });
    const details = async (fields: Field[]) => (await refusal(change(fields))).body.details;
    const fieldsWith = (changes: Record<string, Partial<Field>>): Field[] => [
      { name: 'title', type: 'text', required: true, ...changes.title },
      { name: 'price', type: 'decimal', ...changes.price },
      { name: 'section', type: 'dropdown', options: ['news', 'sports'], ...changes.section },
    ];

    const retyped = await refusal(change(fieldsWith({ price: { type: 'integer' } })));
    expect(retyped.status).toBe(422);
    expect(retyped.body.details).toEqual([{ field: 'fields.1.type', messages: ["can't change from decimal while the type has entries"] }]);
    expect(await details(fieldsWith({ title: { localized: true } }))).toEqual([{ field: 'fields.0.localized', messages: ["can't change while the type has entries"] }]);
    expect(await details(fieldsWith({ price: { required: true } }))).toEqual([{ field: 'fields.1.required', messages: ["can't become true while the type has entries"] }]);
    expect(await details(fieldsWith({ section: { options: ['sports', 'culture'] } }))).toEqual([{ field: 'fields.2.options', messages: ['must keep news while the type has entries'] }]);
    expect(await details([...fieldsWith({}), { name: 'extra', type: 'text', required: true }])).toEqual([{ field: 'fields.3.required', messages: ['must be false for a new field while the type has entries'] }]);

    const allowed = await change([
      { name: 'title', type: 'text', required: false, sortable: true },
      { name: 'section', type: 'dropdown', options: ['news', 'sports', 'culture'] },
      { name: 'extra', type: 'text' },
    ]);
    expect(allowed.response.status).toBe(200);
    const [version] = await h.ctx.db.select().from(contentEntryVersions).where(eq(contentEntryVersions.entryId, entry.id));
    expect(version.fields).toEqual({ title: 'Hello', section: 'news' });
  });

  it('changes anything while the type has no entries', async () => {
    const type = await makeType(h, space.uid, { fields: [{ name: 'price', type: 'decimal' }] });
    const res = await update(space.uid, type.uid, { fields: [{ name: 'price', type: 'integer', required: true, localized: true }] });
    expect(res.response.status).toBe(200);
  });

  it('deletes a type with its entries (204)', async () => {
    const type = await makeType(h, space.uid, { fields: [{ name: 'title', type: 'text' }] });
    const entry = await addEntry(type.uid, { title: 'Gone' });
    expect(await statusOf(remove(space.uid, type.uid))).toBe(204);
    expect(await h.ctx.db.select().from(contentEntries).where(eq(contentEntries.id, entry.id))).toEqual([]);
    expect(await h.ctx.db.select().from(contentEntryVersions).where(eq(contentEntryVersions.entryId, entry.id))).toEqual([]);
    expect(await statusOf(show(space.uid, type.uid))).toBe(404);
  });

  it('answers 404 for an unknown space or type', async () => {
    const unknownSpace = await refusal(admin().GET('/content/spaces/{space_uid}/types', inSpace('nope')));
    expect(unknownSpace.status).toBe(404);
    expect(unknownSpace.body).toEqual({ errors: ['Space not found'], code: 'ATR_NOT_FOUND' });
    expect(await statusOf(create('nope', { uid: 'x', name: 'x' }))).toBe(404);
    const calls = { GET: () => show(space.uid, 'nope'), PUT: () => update(space.uid, 'nope', { name: 'x' }), DELETE: () => remove(space.uid, 'nope') };
    for (const [method, call] of Object.entries(calls)) {
      const res = await refusal(call());
      expect(res.status, method).toBe(404);
      expect(res.body).toEqual({ errors: ['Content type not found'], code: 'ATR_NOT_FOUND' });
    }
  });

  it('lists the types of a space with pagination, sorting and only[]', async () => {
    const own = await makeSpace(h);
    for (const name of ['Bravo', 'Alpha', 'Charlie']) {
      h.clock.advance(1000);
      await makeType(h, own.uid, { name });
    }
    const list = (query: Record<string, string>) => admin().GET('/content/spaces/{space_uid}/types', { params: { path: { space_uid: own.uid }, query } });
    const res = await list({ per_page: '2' });
    expect(res.response.status).toBe(200);
    expect(res.data!.meta).toEqual({ total_entries: 3, per_page: 2, current_page: 1, total_pages: 2 });
    expect(res.data!.types.map((t) => t.name)).toEqual(['Charlie', 'Alpha']);
    // Raw: the comma form only=uid,name; openapi-fetch would serialize the list as only=uid&only=name.
    const byName = await h.request({ method: 'GET', url: `${typesOf(own.uid)}?sort_by=name&order=asc&only=uid,name` });
    expect(byName.json().types.map((t: { name: string }) => t.name)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(Object.keys(byName.json().types[0])).toEqual(['uid', 'name']);
    const { data: page2 } = await list({ per_page: '2', page: '2' });
    expect(page2!.types.map((t) => t.name)).toEqual(['Bravo']);
  });

  it('needs content.read to read and content.manage to change, on the role\'s own space only', async () => {
    const own = await makeSpace(h);
    const other = await makeSpace(h);
    const ownType = await makeType(h, own.uid);
    const otherType = await makeType(h, other.uid);
    const viewer = await memberToken(h, [{ key: 'space_viewer', target: own.uid }]);
    const editor = await memberToken(h, [{ key: 'space_editor', target: own.uid }]);
    const spaceAdmin = await memberToken(h, [{ key: 'space_admin', target: own.uid }]);
    const payload = { uid: uniqueUid('t'), name: 'x' };
    const list = (spaceUid: string, token?: string | null) => admin(token).GET('/content/spaces/{space_uid}/types', inSpace(spaceUid));

    expect(await statusOf(list(own.uid, viewer))).toBe(200);
    expect(await statusOf(show(own.uid, ownType.uid, viewer))).toBe(200);
    expect(await statusOf(list(other.uid, viewer))).toBe(403);
    expect(await statusOf(show(other.uid, otherType.uid, spaceAdmin))).toBe(403);
    for (const token of [viewer, editor]) {
      expect(await statusOf(create(own.uid, payload, token))).toBe(403);
      expect(await statusOf(update(own.uid, ownType.uid, { name: 'y' }, token))).toBe(403);
      expect(await statusOf(remove(own.uid, ownType.uid, token))).toBe(403);
    }
    expect(await statusOf(create(other.uid, payload, spaceAdmin))).toBe(403);
    expect(await statusOf(update(other.uid, otherType.uid, { name: 'y' }, spaceAdmin))).toBe(403);
    expect(await statusOf(remove(other.uid, otherType.uid, spaceAdmin))).toBe(403);
    expect(await statusOf(create(own.uid, payload, spaceAdmin))).toBe(201);
    expect(await statusOf(update(own.uid, ownType.uid, { name: 'y' }, spaceAdmin))).toBe(200);
    expect(await statusOf(remove(own.uid, ownType.uid, spaceAdmin))).toBe(204);
    expect(await statusOf(list(own.uid, null))).toBe(401);
  });
});
