import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { memberToken } from '../helpers/realms.js';
import { makeSpace, makeType, uniqueUid } from '../helpers/content.js';

const SPACES = '/api/admin/content/spaces';

describe('content spaces admin API', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  it('creates a space, shows it flat and lists it', async () => {
    const res = await h.request({ method: 'POST', url: SPACES, payload: { uid: 'magazine', name: ' Magazine ', default_locale: 'en', locales: ['es', 'pt-br'] } });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      uid: 'magazine', name: 'Magazine', default_locale: 'en', locales: ['en', 'es', 'pt-BR'],
      created_at: expect.any(String), updated_at: body.created_at,
    });
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const shown = await h.request({ method: 'GET', url: `${SPACES}/magazine` });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual(body);
    const listed = await h.request({ method: 'GET', url: SPACES });
    expect(listed.json().spaces).toContainEqual(body);
  });

  it('defaults the locales to the default locale and keeps the default first', async () => {
    const only = await makeSpace(h, { default_locale: 'es', locales: undefined });
    expect(only.locales).toEqual(['es']);
    const mixed = await makeSpace(h, { default_locale: 'zh-hant-tw', locales: ['en', 'ZH-HANT-TW', 'en', 'es-419'] });
    expect(mixed.default_locale).toBe('zh-Hant-TW');
    expect(mixed.locales).toEqual(['zh-Hant-TW', 'en', 'es-419']);
  });

  it('refuses invalid input with 422 naming each attribute', async () => {
    const res = await h.request({ method: 'POST', url: SPACES, payload: { uid: 'Bad Uid', name: ' ', default_locale: 'english', locales: ['en', 'e_s', ''] } });
    expect(res.statusCode).toBe(422);
    const fields = res.json().details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(['uid', 'name', 'default_locale', 'locales.1', 'locales.2']);

    const missing = await h.request({ method: 'POST', url: SPACES, payload: { uid: 'x' } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().details.map((d: { field: string }) => d.field).sort()).toEqual(['default_locale', 'name']);

    const tooMany = await h.request({
      method: 'POST', url: SPACES, payload: { uid: uniqueUid('s'), name: 'x', default_locale: 'en', locales: Array.from({ length: 21 }, (_, i) => `l${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`) },
    });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().details).toEqual([{ field: 'locales', messages: ['are too many (maximum is 20)'] }]);

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
    const dup = await h.request({ method: 'POST', url: SPACES, payload: { uid: a.uid, name: 'x', default_locale: 'en' } });
    expect(dup.statusCode).toBe(422);
    expect(dup.json()).toEqual({ errors: ['Uid has already been taken'], details: [{ field: 'uid', messages: ['has already been taken'] }], code: 'ATR_INVALID' });
    const renamed = await h.request({ method: 'PUT', url: `${SPACES}/${b.uid}`, payload: { uid: a.uid } });
    expect(renamed.statusCode).toBe(422);
    expect(renamed.json().details).toEqual([{ field: 'uid', messages: ['has already been taken'] }]);
  });

  it('changes a space partially', async () => {
    const space = await makeSpace(h);
    h.clock.advance(1000);
    const res = await h.request({ method: 'PUT', url: `${SPACES}/${space.uid}`, payload: { name: 'Renamed' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ uid: space.uid, name: 'Renamed', default_locale: 'en', locales: ['en', 'es'] });
    expect(res.json().updated_at).not.toBe(space.updated_at);

    const newDefault = await h.request({ method: 'PUT', url: `${SPACES}/${space.uid}`, payload: { default_locale: 'fr' } });
    expect(newDefault.json()).toMatchObject({ default_locale: 'fr', locales: ['fr', 'en', 'es'] });
    const newLocales = await h.request({ method: 'PUT', url: `${SPACES}/${space.uid}`, payload: { locales: ['de'] } });
    expect(newLocales.json()).toMatchObject({ default_locale: 'fr', locales: ['fr', 'de'] });
    const bad = await h.request({ method: 'PUT', url: `${SPACES}/${space.uid}`, payload: { default_locale: 'xx-yy-zz-ww' } });
    expect(bad.statusCode).toBe(422);
  });

  it('keeps a locale that entries are written in', async () => {
    const space = await makeSpace(h, { locales: ['en', 'es'] });
    const type = await makeType(h, space.uid);
    const { contentEntries, contentEntryVersions, contentTypes } = await import('../../src/tables/content.js');
    const { eq } = await import('drizzle-orm');
    const [typeRow] = await h.ctx.db.select().from(contentTypes).where(eq(contentTypes.uid, type.uid));
    const [entry] = await h.ctx.db.insert(contentEntries).values({ spaceId: typeRow.spaceId, typeId: typeRow.id }).returning();
    await h.ctx.db.insert(contentEntryVersions).values({ entryId: entry.id, typeId: typeRow.id, locale: 'es', state: 'draft', name: 'Hola', slug: 'hola', fields: {} });
    const res = await h.request({ method: 'PUT', url: `${SPACES}/${space.uid}`, payload: { locales: ['en'] } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'locales', messages: ['must keep es: entries are written in it'] }]);
    const kept = await h.request({ method: 'PUT', url: `${SPACES}/${space.uid}`, payload: { locales: ['es', 'fr'] } });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().locales).toEqual(['en', 'es', 'fr']);
  });

  it('deletes a space with its types (204), then answers 404', async () => {
    const space = await makeSpace(h);
    const type = await makeType(h, space.uid);
    const res = await h.request({ method: 'DELETE', url: `${SPACES}/${space.uid}` });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await h.request({ method: 'GET', url: `${SPACES}/${space.uid}` })).statusCode).toBe(404);
    await makeSpace(h, { uid: space.uid });
    expect((await h.request({ method: 'GET', url: `${SPACES}/${space.uid}/types/${type.uid}` })).statusCode).toBe(404);
  });

  it('removes the files of the space\'s assets with the space', async () => {
    const space = await makeSpace(h);
    const { contentAssets, contentSpaces } = await import('../../src/tables/content.js');
    const { eq } = await import('drizzle-orm');
    const [row] = await h.ctx.db.select().from(contentSpaces).where(eq(contentSpaces.uid, space.uid));
    const key = `content/${space.uid}/logo.png`;
    await h.ctx.storage.put(key, Buffer.from('png bytes'));
    await h.ctx.db.insert(contentAssets).values({ spaceId: row.id, fileName: 'logo.png', contentType: 'image/png', size: 9, storageKey: key });
    const stored = await h.ctx.storage.get(key);
    expect(stored).not.toBeNull();
    stored?.content.destroy();
    expect((await h.request({ method: 'DELETE', url: `${SPACES}/${space.uid}` })).statusCode).toBe(204);
    expect(await h.ctx.storage.get(key)).toBeNull();
    expect(await h.ctx.db.select().from(contentAssets).where(eq(contentAssets.spaceId, row.id))).toEqual([]);
  });

  it('answers 404 for an unknown space', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await h.request({ method, url: `${SPACES}/nope`, ...(method === 'PUT' ? { payload: { name: 'x' } } : {}) });
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toEqual({ errors: ['Space not found'], code: 'ATR_NOT_FOUND' });
    }
  });

  it('answers 401 without a credential on every route', async () => {
    const routes = [['GET', SPACES], ['POST', SPACES], ['GET', `${SPACES}/x`], ['PUT', `${SPACES}/x`], ['DELETE', `${SPACES}/x`]] as const;
    for (const [method, url] of routes) {
      const res = await h.request({ method, url, token: null, ...(method === 'POST' || method === 'PUT' ? { payload: {} } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('paginates, sorts and trims the list', async () => {
    const before = (await h.request({ method: 'GET', url: SPACES })).json().meta.total_entries;
    for (const name of ['Charlie', 'Alpha', 'Bravo']) {
      h.clock.advance(1000);
      await makeSpace(h, { name });
    }
    const total = before + 3;
    const first = await h.request({ method: 'GET', url: `${SPACES}?per_page=2` });
    expect(first.json().meta).toEqual({ total_entries: total, per_page: 2, current_page: 1, total_pages: Math.ceil(total / 2) });
    // Default order: updated_at desc, the latest first.
    expect(first.json().spaces.map((s: { name: string }) => s.name)).toEqual(['Bravo', 'Alpha']);
    const garbage = await h.request({ method: 'GET', url: `${SPACES}?per_page=abc&page=0` });
    expect(garbage.json().meta).toMatchObject({ per_page: 10, current_page: 1 });
    const cut = await h.request({ method: 'GET', url: `${SPACES}?per_page=500` });
    expect(cut.json().meta.per_page).toBe(100);
    const byName = await h.request({ method: 'GET', url: `${SPACES}?sort_by=name&order=ASC&per_page=100` });
    const names = byName.json().spaces.map((s: { name: string }) => s.name);
    expect(names).toEqual([...names].sort());
    const unknownSort = await h.request({ method: 'GET', url: `${SPACES}?sort_by=__proto__&per_page=2` });
    expect(unknownSort.json().spaces).toEqual(first.json().spaces);
    const trimmed = await h.request({ method: 'GET', url: `${SPACES}?only[]=uid&only[]=name&per_page=1` });
    expect(Object.keys(trimmed.json().spaces[0])).toEqual(['uid', 'name']);
    const past = await h.request({ method: 'GET', url: `${SPACES}?page=999` });
    expect(past.json()).toMatchObject({ spaces: [], meta: { total_entries: total, current_page: 999 } });
  });

  describe('space roles', () => {
    it('keeps a space role to its own space (403 elsewhere) and lists only that space', async () => {
      const own = await makeSpace(h);
      const other = await makeSpace(h);
      const admin = await memberToken(h, [{ key: 'space_admin', target: own.uid }]);
      const viewer = await memberToken(h, [{ key: 'space_viewer', target: own.uid }]);

      expect((await h.request({ method: 'GET', url: `${SPACES}/${own.uid}`, token: viewer })).statusCode).toBe(200);
      expect((await h.request({ method: 'GET', url: `${SPACES}/${other.uid}`, token: viewer })).statusCode).toBe(403);
      expect((await h.request({ method: 'GET', url: `${SPACES}/${other.uid}`, token: admin })).statusCode).toBe(403);
      expect((await h.request({ method: 'PUT', url: `${SPACES}/${own.uid}`, token: viewer, payload: { name: 'x' } })).statusCode).toBe(403);
      expect((await h.request({ method: 'PUT', url: `${SPACES}/${other.uid}`, token: admin, payload: { name: 'x' } })).statusCode).toBe(403);
      expect((await h.request({ method: 'DELETE', url: `${SPACES}/${other.uid}`, token: admin })).statusCode).toBe(403);
      const created = await h.request({ method: 'POST', url: SPACES, token: admin, payload: { uid: 'by-space-admin', name: 'x', default_locale: 'en' } });
      expect(created.statusCode).toBe(403);
      expect(created.json()).toEqual({ errors: ['Creating a space needs an account role'], code: 'ATR_FORBIDDEN' });
      expect((await h.request({ method: 'PUT', url: `${SPACES}/${own.uid}`, token: admin, payload: { name: 'Mine' } })).statusCode).toBe(200);

      for (const token of [viewer, admin]) {
        const listed = await h.request({ method: 'GET', url: SPACES, token });
        expect(listed.statusCode).toBe(200);
        expect(listed.json().spaces.map((s: { uid: string }) => s.uid)).toEqual([own.uid]);
        expect(listed.json().meta.total_entries).toBe(1);
      }
    });

    it('lets account roles read all spaces and only content.manage change them', async () => {
      const space = await makeSpace(h);
      const user = await memberToken(h, [{ key: 'account_user' }]);
      expect((await h.request({ method: 'GET', url: `${SPACES}/${space.uid}`, token: user })).statusCode).toBe(200);
      const listed = await h.request({ method: 'GET', url: `${SPACES}?per_page=100`, token: user });
      expect(listed.json().meta.total_entries).toBe((await h.request({ method: 'GET', url: SPACES })).json().meta.total_entries);
      expect((await h.request({ method: 'PUT', url: `${SPACES}/${space.uid}`, token: user, payload: { name: 'x' } })).statusCode).toBe(403);
      expect((await h.request({ method: 'POST', url: SPACES, token: user, payload: { uid: 'by-user', name: 'x', default_locale: 'en' } })).statusCode).toBe(403);
      const accountAdmin = await memberToken(h, [{ key: 'account_admin' }]);
      expect((await h.request({ method: 'POST', url: SPACES, token: accountAdmin, payload: { uid: uniqueUid('by-admin'), name: 'x', default_locale: 'en' } })).statusCode).toBe(201);
      // A realm role carries no content permission.
      const realmRole = await memberToken(h, []);
      expect((await h.request({ method: 'GET', url: SPACES, token: realmRole })).statusCode).toBe(403);
    });

    it('lets a role follow its space to a new uid, and a deleted space take its role assignments along', async () => {
      const space = await makeSpace(h);
      const token = await memberToken(h, [{ key: 'space_admin', target: space.uid }]);
      const renamed = await h.request({ method: 'PUT', url: `${SPACES}/${space.uid}`, token, payload: { uid: `${space.uid}-new` } });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect((await h.request({ method: 'GET', url: `${SPACES}/${space.uid}-new`, token })).statusCode).toBe(200);
      expect((await h.request({ method: 'DELETE', url: `${SPACES}/${space.uid}-new`, token })).statusCode).toBe(204);
      await makeSpace(h, { uid: `${space.uid}-new` });
      expect((await h.request({ method: 'GET', url: `${SPACES}/${space.uid}-new`, token })).statusCode).toBe(403);
    });

    it('accepts a space role only for an existing space', async () => {
      const res = await h.request({
        method: 'POST', url: '/api/admin/team_members',
        payload: { email: 'ghost-space@example.com', password: 'member password 1', roles: [{ key: 'space_writer', target: 'no-such-space' }] },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().details).toEqual([{ field: 'roles.0.target', messages: ['is not a known space: no-such-space'] }]);
    });
  });

  it('documents the content models in the admin catalog', async () => {
    const doc = (await h.request({ method: 'GET', url: '/api/admin/docs/openapi.json', token: null })).json();
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['ContentSpace', 'ContentType', 'ContentField']));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      '/content/spaces', '/content/spaces/{space_uid}', '/content/spaces/{space_uid}/types', '/content/spaces/{space_uid}/types/{type_uid}',
    ]));
    expect(doc.tags.map((t: { name: string }) => t.name)).toContain('Content');
  });
});
