import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { makeRealm } from '../helpers/realms.js';
import { png } from '../uploads/files.js';
import { addFields, choose, exactly, expectAccessible, FIELDS, fillEntry, MARKDOWN, scheduleUnpublish, TEXT } from './content-steps.js';

describe.skipIf(!!process.env.DATABASE_URL)('admin console: content spaces, types, entries and assets', () => {
  let c: ConsoleHarness;
  let segment: { uuid: string; realm_uid: string };
  beforeAll(async () => {
    c = await startConsole();
    const realm = await makeRealm(c.h);
    const res = await c.h.request({ method: 'POST', url: '/api/admin/segments', payload: { name: 'Readers', realm_uid: realm.uid, filters: { attribute: 'first_name', operator: 'is_set' } } });
    expect(res.statusCode, res.body).toBe(201);
    segment = res.json();
  }, 90_000);
  afterAll(async () => { await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    it(`creates, edits and deletes a space and a type with every field type, writes and publishes an entry read back by the content API, uploads and deletes assets (${locale}, ${scheme})`, async () => {
      const text = TEXT[locale];
      const space = `shop-${locale}`;
      const { page, problems, signIn, close } = await c.open({ locale, scheme });
      const adminApi = (url: string) => c.h.request({ url: `/api/admin/content/spaces/${space}${url}` });
      try {
        await signIn();
        // Spaces: create, edit.
        await page.getByRole('navigation').getByRole('link', { name: text.spaces }).click();
        await page.getByRole('button', { name: text.newSpace }).click();
        let dialog = page.getByRole('dialog');
        await dialog.getByLabel(text.uid).fill('Not a uid!');
        await dialog.getByLabel(text.name).fill('Shop <script>window.bad=1</script>');
        await dialog.getByLabel(text.defaultLocale).fill('en');
        await dialog.locator('button[type=submit]').click();
        await expect.poll(() => dialog.getByLabel(text.uid).getAttribute('aria-invalid')).toBe('true');
        await expectAccessible(page);
        await dialog.getByLabel(text.uid).fill(space);
        await dialog.getByLabel(text.defaultLocale).fill('en');
        await dialog.getByLabel(text.locales).fill('es');
        await dialog.getByLabel(text.locales).press('Enter');
        await expectAccessible(page);
        await dialog.locator('button[type=submit]').click();
        await dialog.waitFor({ state: 'detached' });
        const row = page.locator('main table tbody tr').filter({ hasText: space });
        await row.getByRole('button', { name: text.edit }).click();
        dialog = page.getByRole('dialog');
        await dialog.getByLabel(text.name).fill('Shop');
        await expectAccessible(page);
        await dialog.locator('button[type=submit]').click();
        await dialog.waitFor({ state: 'detached' });
        await expect.poll(async () => (await adminApi('')).json()).toMatchObject({ name: 'Shop', default_locale: 'en', locales: ['en', 'es'] });
        await expectAccessible(page);

        // A type with a field of every type, created in the dialog, then edited on its screen.
        await row.getByRole('link', { name: space }).click();
        await page.getByRole('button', { name: text.newType }).click();
        dialog = page.getByRole('dialog');
        await dialog.getByLabel(exactly(text.uid)).fill('article');
        await dialog.getByLabel(exactly(text.name)).fill('Article');
        await addFields(page, dialog, text);
        await expectAccessible(page);
        await dialog.locator('button[type=submit]').last().click();
        await page.waitForURL(/\/types\/article$/);
        const created = (await adminApi('/types/article')).json();
        expect(created.fields.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual(FIELDS.map((f) => `${f.name}:${f.type}`));
        expect(created.fields[0]).toMatchObject({ localized: true, required: true });
        expect(created.fields[7].options).toEqual(['s', 'm', 'l']);
        expect(created.fields.filter((f: { filterable: boolean }) => f.filterable).map((f: { name: string }) => f.name)).toEqual(['price']);
        await page.getByRole('button', { name: text.addField }).click();
        await page.getByRole('group', { name: `${text.field} ${FIELDS.length + 1}`, exact: true }).getByLabel(text.fieldLabel).fill('extra');
        await page.getByRole('button', { name: `${text.removeField} extra` }).click();
        await page.getByRole('button', { name: `${text.moveUp} body` }).first().click();
        await page.getByLabel(exactly(text.name)).fill('News article');
        await expectAccessible(page);
        await page.locator('main form button[type=submit]').click();
        await expect.poll(async () => (await adminApi('/types/article')).json().name).toBe('News article');
        expect((await adminApi('/types/article')).json().fields.slice(0, 2).map((f: { name: string }) => f.name)).toEqual(['body', 'title']);

        // An entry to refer to, written through the API.
        const target = await c.h.request({ method: 'POST', url: `/api/admin/content/spaces/${space}/types/article/entries`, payload: { name: 'Target entry', fields: { title: 'Target' } } });
        expect(target.statusCode, target.body).toBe(201);
        const targetUuid = target.json().meta.uuid;

        // The entry editor: every field, the Spanish tab, upload of an asset from the field.
        await page.getByRole('link', { name: text.entries }).first().click();
        await page.getByRole('link', { name: text.newEntry }).waitFor();
        await expectAccessible(page);
        await page.getByRole('link', { name: text.newEntry }).click();
        await fillEntry(page, text);
        // A 422 shows on its field, in the tab of its locale.
        await page.getByRole('button', { name: text.saveDraft }).click();
        await expect.poll(() => page.getByLabel(exactly(text.slug)).getAttribute('aria-invalid')).toBe('true');
        expect(await page.getByLabel(exactly(text.name)).inputValue()).toBe('Hello');
        await expectAccessible(page);
        await page.getByLabel(exactly(text.slug)).fill('hello');
        expect(page.url()).toMatch(/\/entries\/new$/);
        await page.getByRole('button', { name: text.saveDraft }).click();
        await page.waitForURL(/\/entries\/[0-9a-f-]{36}$/);
        const uuid = /entries\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
        // Loaded again: the Markdown in the formatted view, the entries referred to by their names.
        await page.getByRole('textbox', { name: 'body' }).getByRole('heading', { name: 'Heading' }).waitFor();
        await page.getByRole('button', { name: `${text.remove} Target entry` }).waitFor();
        await expectAccessible(page);
        // The toolbar's link editor is labelled in the console's language.
        await page.getByRole('button', { name: text.link, exact: true }).click();
        await page.getByRole('textbox', { name: text.linkAddress }).waitFor();
        await expectAccessible(page);
        await page.keyboard.press('Escape');

        // The guard on unsaved changes, then publish.
        await page.getByLabel(exactly('count')).fill('43');
        await page.getByRole('navigation').getByRole('link', { name: text.spaces }).click();
        await page.getByRole('dialog').getByRole('button', { name: text.stay }).waitFor();
        await expectAccessible(page);
        await page.getByRole('dialog').getByRole('button', { name: text.stay }).click();
        await page.getByLabel(exactly('count')).fill('42');
        await scheduleUnpublish(page, text);
        await expect.poll(async () => (await adminApi(`/types/article/entries/${uuid}`)).json().unpublish_at).toMatch(/^\d{4}-/);
        await page.getByRole('button', { name: text.publish, exact: true }).click();
        await page.getByRole('status').filter({ hasText: new RegExp(`^${text.published} `) }).first().waitFor();
        const deliveryUrl = `/api/content/spaces/${space}/types/article/entries/${uuid}`;
        await expect.poll(async () => (await c.h.request({ method: 'GET', url: deliveryUrl, token: null })).statusCode).toBe(200);
        const delivered = await c.h.request({ method: 'GET', url: deliveryUrl, token: null });
        const { fields } = delivered.json();
        const asset = (await adminApi('/assets')).json().assets.find((a: { file_name: string }) => a.file_name === 'cover.png');
        expect(fields).toEqual({
          body: MARKDOWN, title: 'Hello world', count: 42, price: 9.5, featured: true, launch: '2026-03-15', colour: 'green', sizes: ['m', 'l'],
          place: { lat: 40.4, lon: -3.7 }, cover: { uuid: asset.uuid }, related: { uuid: targetUuid }, parts: [{ uuid: targetUuid }],
        });
        const spanish = await c.h.request({ method: 'GET', url: `/api/content/spaces/${space}/types/article/entries/${uuid}?locale=es`, token: null });
        expect(delivered.json().meta).toMatchObject({ name: 'Hello', slug: 'hello', tags: ['first'], category: 'news/world', available_locales: ['en', 'es'] });
        expect(spanish.json()).toMatchObject({ meta: { name: 'Hola' }, fields: { title: 'Hola mundo', count: 42 } });

        // Made private to a segment: the content API no longer shows it to anyone without a token of that segment.
        await page.getByLabel(text.private).check();
        await choose(page, page, text.addSegment, `Readers (${segment.realm_uid})`, 'Read');
        await page.getByRole('button', { name: text.publish, exact: true }).click();
        await expect.poll(async () => (await c.h.request({ method: 'GET', url: deliveryUrl, token: null })).statusCode).toBe(404);
        expect((await adminApi(`/types/article/entries/${uuid}`)).json()).toMatchObject({ meta: { private: true }, segment_uuids: [segment.uuid] });
        await page.getByRole('button', { name: text.unpublish }).click();
        await expect.poll(async () => (await adminApi(`/types/article/entries/${uuid}?version=published`)).statusCode).toBe(404);
        await page.getByRole('status').filter({ hasText: text.notPublished }).first().waitFor();

        // The entry referred to is deleted from its screen.
        await page.getByRole('link', { name: text.entries }).first().click();
        await page.getByRole('link', { name: 'Target entry' }).first().click();
        await page.getByRole('button', { name: text.deleteEntry }).click();
        await page.getByRole('dialog').getByRole('button', { name: text.delete }).waitFor();
        await expectAccessible(page);
        await page.getByRole('dialog').getByRole('button', { name: text.delete }).click();
        await page.waitForURL(/\/entries$/);
        expect((await adminApi(`/types/article/entries/${targetUuid}`)).statusCode).toBe(404);
        await choose(page, page, text.locale, 'es');
        await page.waitForURL(/[?&]locale=es/);
        await page.getByRole('link', { name: 'Hola' }).click();
        await expect.poll(() => page.getByLabel(exactly(text.name)).inputValue()).toBe('Hola');
        await page.getByRole('link', { name: text.entries }).first().click();

        // Assets: the uploaded one is listed; upload another and delete it.
        await page.getByRole('link', { name: text.assets }).click();
        await page.locator('main table').getByText('cover.png').waitFor();
        await page.getByRole('button', { name: text.upload }).click();
        dialog = page.getByRole('dialog');
        await dialog.locator('input[type=file]').setInputFiles({ name: 'other.png', mimeType: 'image/png', buffer: png(3, 3) });
        await dialog.getByLabel(text.title).fill('Another');
        await expectAccessible(page);
        await dialog.locator('button[type=submit]').click();
        await dialog.waitFor({ state: 'detached' });
        const other = page.locator('main table tbody tr').filter({ hasText: 'other.png' });
        await other.getByRole('button', { name: text.delete }).click();
        await expectAccessible(page);
        await page.getByRole('dialog').getByRole('button', { name: text.delete }).click();
        await other.waitFor({ state: 'detached' });
        expect((await adminApi('/assets')).json().assets.map((a: { file_name: string }) => a.file_name)).toEqual(['cover.png']);

        // Delete the type, then the space.
        await page.getByRole('link', { name: text.types }).click();
        await page.getByRole('link', { name: 'article' }).last().click();
        await page.getByRole('link', { name: text.edit }).or(page.getByRole('link', { name: locale === 'en' ? 'Edit type' : 'Editar tipo' })).first().click();
        await page.getByRole('button', { name: text.delete }).first().click();
        await page.getByRole('dialog').getByRole('button', { name: text.delete }).waitFor();
        await expectAccessible(page);
        await page.getByRole('dialog').getByRole('button', { name: text.delete }).click();
        await page.waitForURL(new RegExp(`/admin/content/${space}$`));
        expect((await adminApi('/types/article')).statusCode).toBe(404);
        await page.getByRole('navigation').getByRole('link', { name: text.spaces }).click();
        await page.locator('main table tbody tr').filter({ hasText: space }).getByRole('button', { name: text.delete }).click();
        await page.getByRole('dialog').getByRole('button', { name: text.delete }).waitFor();
        await expectAccessible(page);
        await page.getByRole('dialog').getByRole('button', { name: text.delete }).click();
        await expect.poll(async () => (await adminApi('')).statusCode).toBe(404);
        expect(await page.evaluate(() => (window as unknown as { bad?: number }).bad)).toBeUndefined();
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 180_000);
  }
});
