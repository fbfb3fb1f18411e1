import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, refusal, statusOf } from '../helpers/client.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { memberToken } from '../helpers/realms.js';
import { makeSpace, makeType, uniqueUid } from '../helpers/content.js';

const SPACES = '/api/admin/content/spaces';

describe('content spaces admin API', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  const admin = (token?: string | null) => adminClient(h, token);
  const space = (uid: string) => ({ params: { path: { space_uid: uid } } });
  type SpaceBody = { uid?: string; name?: string; default_locale?: string; locales?: string[] };
  const createSpace = (body: SpaceBody & { uid: string; name: string; default_locale: string }, token?: string) => admin(token).POST('/content/spaces', { body });
  const update = (uid: string, body: SpaceBody, token?: string) => admin(token).PUT('/content/spaces/{space_uid}', { ...space(uid), body });
  const list = (query: Record<string, string> = {}, token?: string) => admin(token).GET('/content/spaces', { params: { query } });

  it('creates a space, shows it flat and lists it', async () => {
    const res = await createSpace({ uid: 'magazine', name: ' Magazine ', default_locale: 'en', locales: ['es', 'pt-br'] });
    expect(res.response.status).toBe(201);
    const body = res.data!;
    expect(body).toEqual({
      uid: 'magazine', name: 'Magazine', default_locale: 'en', locales: ['en', 'es', 'pt-BR'],
      created_at: expect.any(String), updated_at: body.created_at,
    });
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const shown = await admin().GET('/content/spaces/{space_uid}', space('magazine'));
    expect(shown.response.status).toBe(200);
    expect(shown.data).toEqual(body);
    const { data: listed } = await list();
    expect(listed!.spaces).toContainEqual(body);
  });

  it('defaults the locales to the default locale and keeps the default first', async () => {
    const only = await makeSpace(h, { default_locale: 'es', locales: undefined });
    expect(only.locales).toEqual(['es']);
    const mixed = await makeSpace(h, { default_locale: 'zh-hant-tw', locales: ['en', 'ZH-HANT-TW', 'en', 'es-419'] });
    expect(mixed.default_locale).toBe('zh-Hant-TW');
    expect(mixed.locales).toEqual(['zh-Hant-TW', 'en', 'es-419']);
  });

  it('refuses invalid input with 422 naming each attribute', async () => {
    const res = await refusal(createSpace({ uid: 'Bad Uid', name: ' ', default_locale: 'english', locales: ['en', 'e_s', ''] }));
    expect(res.status).toBe(422);
    const fields = res.body.details!.map((d) => d.field);
    expect(fields).toEqual(['uid', 'name', 'default_locale', 'locales.1', 'locales.2']);

    // Raw: a body without the attributes the client's types require.
    const missing = await h.request({ method: 'POST', url: SPACES, payload: { uid: 'x' } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().details.map((d: { field: string }) => d.field).sort()).toEqual(['default_locale', 'name']);

    const tooMany = await refusal(createSpace({
      uid: uniqueUid('s'), name: 'x', default_locale: 'en', locales: Array.from({ length: 21 }, (_, i) => `l${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`),
    }));
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.details).toEqual([{ field: 'locales', messages: ['are too many (maximum is 20)'] }]);

    // Raw: hostile bodies (unknown attributes, wrong types, NUL), most of which the client's types refuse.
    for (const payload of [
      { uid: 'x', name: 'x', default_locale: 'en', extra: 1 },
      { uid: { a: 1 }, name: 'x', default_locale: 'en' },
      { uid: 'a'.repeat(101), name: 'x', default_locale: 'en' },
      { uid: 'x', name: 'x'.repeat(256), default_locale: 'en' },
      { uid: 'x', name: 'x', default_locale: 'en', locales: { en: true } },
      { uid: 'x\u0000y', name: 'x', default_locale: 'en' },
    ]) {
      const bad = await h.request({ method: 'POST', url: SPACES, payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(bad.statusCode, JSON.stringify(payload)).toBeLessThan(500);
    }
  });

  it('refuses a taken uid on create and rename', async () => {
    const a = await makeSpace(h);
    const b = await makeSpace(h);
    const dup = await refusal(createSpace({ uid: a.uid, name: 'x', default_locale: 'en' }));
    expect(dup.status).toBe(422);
    expect(dup.body).toEqual({ errors: ['Uid has already been taken'], details: [{ field: 'uid', messages: ['has already been taken'] }], code: 'ATR_INVALID' });
    const renamed = await refusal(update(b.uid, { uid: a.uid }));
    expect(renamed.status).toBe(422);
    expect(renamed.body.details).toEqual([{ field: 'uid', messages: ['has already been taken'] }]);
  });

  it('changes a space partially', async () => {
    const made = await makeSpace(h);
    h.clock.advance(1000);
    const res = await update(made.uid, { name: 'Renamed' });
    expect(res.response.status).toBe(200);
    expect(res.data).toMatchObject({ uid: made.uid, name: 'Renamed', default_locale: 'en', locales: ['en', 'es'] });
    expect(res.data!.updated_at).not.toBe(made.updated_at);

    const { data: newDefault } = await update(made.uid, { default_locale: 'fr' });
    expect(newDefault).toMatchObject({ default_locale: 'fr', locales: ['fr', 'en', 'es'] });
    const { data: newLocales } = await update(made.uid, { locales: ['de'] });
    expect(newLocales).toMatchObject({ default_locale: 'fr', locales: ['fr', 'de'] });
    expect(await statusOf(update(made.uid, { default_locale: 'xx-yy-zz-ww' }))).toBe(422);
  });

  it('keeps a locale that entries are written in', async () => {
    const made = await makeSpace(h, { locales: ['en', 'es'] });
    const type = await makeType(h, made.uid);
    const { contentEntries, contentEntryVersions, contentTypes } = await import('../../src/tables/content.js');
    const { eq } = await import('drizzle-orm');
    const [typeRow] = await h.ctx.db.select().from(contentTypes).where(eq(contentTypes.uid, type.uid));
    const [entry] = await h.ctx.db.insert(contentEntries).values({ spaceId: typeRow.spaceId, typeId: typeRow.id }).returning();
    await h.ctx.db.insert(contentEntryVersions).values({ entryId: entry.id, typeId: typeRow.id, locale: 'es', state: 'draft', name: 'Hola', slug: 'hola', fields: {} });
    const res = await refusal(update(made.uid, { locales: ['en'] }));
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual([{ field: 'locales', messages: ['must keep es: entries are written in it'] }]);
    const kept = await update(made.uid, { locales: ['es', 'fr'] });
    expect(kept.response.status).toBe(200);
    expect(kept.data!.locales).toEqual(['en', 'es', 'fr']);
  });

  it('deletes a space with its types (204), then answers 404', async () => {
    const made = await makeSpace(h);
    const type = await makeType(h, made.uid);
    const res = await admin().DELETE('/content/spaces/{space_uid}', space(made.uid));
    expect(res.response.status).toBe(204);
    expect(res.data).toBeUndefined();
    expect(await statusOf(admin().GET('/content/spaces/{space_uid}', space(made.uid)))).toBe(404);
    await makeSpace(h, { uid: made.uid });
    expect(await statusOf(admin().GET('/content/spaces/{space_uid}/types/{type_uid}', { params: { path: { space_uid: made.uid, type_uid: type.uid } } }))).toBe(404);
  });

  it('removes the files of the space\'s assets with the space', async () => {
    const made = await makeSpace(h);
    const { contentAssets, contentSpaces } = await import('../../src/tables/content.js');
    const { eq } = await import('drizzle-orm');
    const [row] = await h.ctx.db.select().from(contentSpaces).where(eq(contentSpaces.uid, made.uid));
    const key = `content/${made.uid}/logo.png`;
    await h.ctx.storage.put(key, Buffer.from('png bytes'));
    await h.ctx.db.insert(contentAssets).values({ spaceId: row.id, fileName: 'logo.png', contentType: 'image/png', size: 9, storageKey: key });
    const stored = await h.ctx.storage.get(key);
    expect(stored).not.toBeNull();
    stored?.content.destroy();
    expect(await statusOf(admin().DELETE('/content/spaces/{space_uid}', space(made.uid)))).toBe(204);
    expect(await h.ctx.storage.get(key)).toBeNull();
    expect(await h.ctx.db.select().from(contentAssets).where(eq(contentAssets.spaceId, row.id))).toEqual([]);
  });

  it('answers 404 for an unknown space', async () => {
    const calls = {
      GET: () => admin().GET('/content/spaces/{space_uid}', space('nope')),
      PUT: () => update('nope', { name: 'x' }),
      DELETE: () => admin().DELETE('/content/spaces/{space_uid}', space('nope')),
    };
    for (const [method, call] of Object.entries(calls)) {
      const res = await refusal(call());
      expect(res.status, method).toBe(404);
      expect(res.body).toEqual({ errors: ['Space not found'], code: 'ATR_NOT_FOUND' });
    }
  });

  it('answers 401 without a credential on every route', async () => {
    // Raw: the same empty body on every route, which the client's types refuse for POST.
    const routes = [['GET', SPACES], ['POST', SPACES], ['GET', `${SPACES}/x`], ['PUT', `${SPACES}/x`], ['DELETE', `${SPACES}/x`]] as const;
    for (const [method, url] of routes) {
      const res = await h.request({ method, url, token: null, ...(method === 'POST' || method === 'PUT' ? { payload: {} } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('paginates, sorts and trims the list', async () => {
    const before = (await list()).data!.meta.total_entries;
    for (const name of ['Charlie', 'Alpha', 'Bravo']) {
      h.clock.advance(1000);
      await makeSpace(h, { name });
    }
    const total = before + 3;
    const { data: first } = await list({ per_page: '2' });
    expect(first!.meta).toEqual({ total_entries: total, per_page: 2, current_page: 1, total_pages: Math.ceil(total / 2) });
    // Default order: updated_at desc, the latest first.
    expect(first!.spaces.map((s) => s.name)).toEqual(['Bravo', 'Alpha']);
    const { data: garbage } = await list({ per_page: 'abc', page: '0' });
    expect(garbage!.meta).toMatchObject({ per_page: 10, current_page: 1 });
    const { data: cut } = await list({ per_page: '500' });
    expect(cut!.meta.per_page).toBe(100);
    const { data: byName } = await list({ sort_by: 'name', order: 'ASC', per_page: '100' });
    const names = byName!.spaces.map((s) => s.name);
    expect(names).toEqual([...names].sort());
    const { data: unknownSort } = await list({ sort_by: '__proto__', per_page: '2' });
    expect(unknownSort!.spaces).toEqual(first!.spaces);
    // Raw: the Rails form only[]=uid&only[]=name as written; openapi-fetch would percent-encode the brackets.
    const trimmed = await h.request({ method: 'GET', url: `${SPACES}?only[]=uid&only[]=name&per_page=1` });
    expect(Object.keys(trimmed.json().spaces[0])).toEqual(['uid', 'name']);
    const { data: past } = await list({ page: '999' });
    expect(past).toMatchObject({ spaces: [], meta: { total_entries: total, current_page: 999 } });
  });

  describe('space roles', () => {
    it('keeps a space role to its own space (403 elsewhere) and lists only that space', async () => {
      const own = await makeSpace(h);
      const other = await makeSpace(h);
      const spaceAdmin = await memberToken(h, [{ key: 'space_admin', target: own.uid }]);
      const viewer = await memberToken(h, [{ key: 'space_viewer', target: own.uid }]);

      expect(await statusOf(admin(viewer).GET('/content/spaces/{space_uid}', space(own.uid)))).toBe(200);
      expect(await statusOf(admin(viewer).GET('/content/spaces/{space_uid}', space(other.uid)))).toBe(403);
      expect(await statusOf(admin(spaceAdmin).GET('/content/spaces/{space_uid}', space(other.uid)))).toBe(403);
      expect(await statusOf(update(own.uid, { name: 'x' }, viewer))).toBe(403);
      expect(await statusOf(update(other.uid, { name: 'x' }, spaceAdmin))).toBe(403);
      expect(await statusOf(admin(spaceAdmin).DELETE('/content/spaces/{space_uid}', space(other.uid)))).toBe(403);
      const created = await refusal(createSpace({ uid: 'by-space-admin', name: 'x', default_locale: 'en' }, spaceAdmin));
      expect(created.status).toBe(403);
      expect(created.body).toEqual({ errors: ['Creating a space needs an account role'], code: 'ATR_FORBIDDEN' });
      expect(await statusOf(update(own.uid, { name: 'Mine' }, spaceAdmin))).toBe(200);

      for (const token of [viewer, spaceAdmin]) {
        const listed = await list({}, token);
        expect(listed.response.status).toBe(200);
        expect(listed.data!.spaces.map((s) => s.uid)).toEqual([own.uid]);
        expect(listed.data!.meta.total_entries).toBe(1);
      }
    });

    it('lets account roles read all spaces and only content.manage change them', async () => {
      const made = await makeSpace(h);
      const user = await memberToken(h, [{ key: 'account_user' }]);
      expect(await statusOf(admin(user).GET('/content/spaces/{space_uid}', space(made.uid)))).toBe(200);
      const { data: listed } = await list({ per_page: '100' }, user);
      expect(listed!.meta.total_entries).toBe((await list()).data!.meta.total_entries);
      expect(await statusOf(update(made.uid, { name: 'x' }, user))).toBe(403);
      expect(await statusOf(createSpace({ uid: 'by-user', name: 'x', default_locale: 'en' }, user))).toBe(403);
      const accountAdmin = await memberToken(h, [{ key: 'account_admin' }]);
      expect(await statusOf(createSpace({ uid: uniqueUid('by-admin'), name: 'x', default_locale: 'en' }, accountAdmin))).toBe(201);
      // A realm role carries no content permission.
      const realmRole = await memberToken(h, []);
      expect(await statusOf(list({}, realmRole))).toBe(403);
    });

    it('lets a role follow its space to a new uid, and a deleted space take its role assignments along', async () => {
      const made = await makeSpace(h);
      const token = await memberToken(h, [{ key: 'space_admin', target: made.uid }]);
      expect(await statusOf(update(made.uid, { uid: `${made.uid}-new` }, token))).toBe(200);
      expect(await statusOf(admin(token).GET('/content/spaces/{space_uid}', space(`${made.uid}-new`)))).toBe(200);
      expect(await statusOf(admin(token).DELETE('/content/spaces/{space_uid}', space(`${made.uid}-new`)))).toBe(204);
      await makeSpace(h, { uid: `${made.uid}-new` });
      expect(await statusOf(admin(token).GET('/content/spaces/{space_uid}', space(`${made.uid}-new`)))).toBe(403);
    });

    it('accepts a space role only for an existing space', async () => {
      const res = await refusal(admin().POST('/team_members', {
        body: { email: 'ghost-space@example.com', password: 'member password 1', roles: [{ key: 'space_writer', target: 'no-such-space' }] },
      }));
      expect(res.status).toBe(422);
      expect(res.body.details).toEqual([{ field: 'roles.0.target', messages: ['is not a known space: no-such-space'] }]);
    });
  });

  it('documents the content models in the admin catalog', async () => {
    // Raw: the published catalog document, not an operation of it.
    const doc = (await h.request({ method: 'GET', url: '/api/admin/docs/openapi.json', token: null })).json();
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['ContentSpace', 'ContentType', 'ContentField']));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      '/content/spaces', '/content/spaces/{space_uid}', '/content/spaces/{space_uid}/types', '/content/spaces/{space_uid}/types/{type_uid}',
    ]));
    expect(doc.tags.map((t: { name: string }) => t.name)).toContain('Content');
  });
});
