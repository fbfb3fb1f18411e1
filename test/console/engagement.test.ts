import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';

const LABELS = {
  en: { segments: 'Segments', name: 'Name', attribute: 'Attribute', operator: 'Operator', value: 'Value', match: 'Users who meet', addCondition: 'Add condition', addGroup: 'Add group', save: 'Save', del: 'Delete', matches: /^1 matching users$/, summary: 'Email contains "ana" and First name is "Ana"' },
  es: { segments: 'Segmentos', name: 'Nombre', attribute: 'Atributo', operator: 'Operador', value: 'Valor', match: 'Usuarios que cumplen', addCondition: 'Añadir condición', addGroup: 'Añadir grupo', save: 'Guardar', del: 'Eliminar', matches: /^1 usuarios coinciden$/, summary: 'Correo contiene "ana" y Nombre es "Ana"' },
};

// The console runs against a server on the embedded database (issue 15); the PostgreSQL run skips it.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: engagement (segments, campaigns)', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    it(`builds a segment by keyboard alone with a live count equal to the server's, then edits and deletes it (${locale}, ${scheme})`, async () => {
      const realm = `seg-${locale}`;
      expect((await c.h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: realm, name: realm } })).statusCode).toBe(201);
      for (const [email, first_name] of [['ana@example.com', 'Ana'], ['anabel@example.com', 'Anabel'], ['bob@example.com', 'Ana']] as const) {
        expect((await c.h.request({ method: 'POST', url: `/api/admin/customers/${realm}/users`, payload: { email, password: 'a realm user secret 9', first_name } })).statusCode).toBe(201);
      }
      const l = LABELS[locale];
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go(`/segments?realm=${realm}`);
        await page.getByRole('heading', { level: 1, name: l.segments }).waitFor();
        expect(await axeViolations(page)).toEqual([]);

        await go(`/segments/new?realm=${realm}`);
        await page.locator('[data-live-count]').waitFor({ state: 'attached' });
        const key = (name: string) => page.keyboard.press(name);
        await page.getByRole('textbox', { name: l.name }).focus();
        await page.keyboard.type('Anas <script>window.__xss=1</script>');
        // Root: email contains "ana".
        await page.getByRole('button', { name: l.addCondition }).first().focus();
        await key('Enter');
        await page.getByRole('combobox', { name: l.operator }).first().focus();
        await key('ArrowDown'); await key('ArrowDown');
        await page.getByRole('textbox', { name: l.value }).first().focus();
        await page.keyboard.type('ana');
        // A nested "any" group: first name is "Ana".
        await page.getByRole('button', { name: l.addGroup }).first().focus();
        await key('Enter');
        await page.getByRole('combobox', { name: l.match }).nth(1).focus();
        await key('ArrowDown');
        await page.getByRole('button', { name: l.addCondition }).nth(1).focus();
        await key('Enter');
        await page.getByRole('combobox', { name: l.attribute }).nth(1).focus();
        await key('ArrowDown'); await key('ArrowDown');
        await page.getByRole('textbox', { name: l.value }).nth(1).focus();
        await page.keyboard.type('Ana');

        const tree = { all: [{ attribute: 'email', operator: 'contains', value: 'ana' }, { any: [{ attribute: 'first_name', operator: 'eq', value: 'Ana' }] }] };
        const counted = await c.h.request({ method: 'POST', url: '/api/admin/segments/count_matches', payload: { realm_uid: realm, filters: tree } });
        expect(counted.json()).toEqual({ matches_count: 1 });
        await page.locator('[data-live-count]').getByText(l.matches).waitFor();
        await page.getByRole('listitem').filter({ hasText: 'ana@example.com' }).waitFor();
        expect(await axeViolations(page)).toEqual([]);

        await page.getByRole('button', { name: l.save }).focus();
        await key('Enter');
        await page.waitForURL(/\/admin\/segments\/\d+$/);
        const id = page.url().split('/').pop();
        const saved = (await c.h.request({ url: `/api/admin/segments/${id}` })).json();
        expect(saved.filters).toEqual(tree);
        expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
        // The summary in the console's language, in the builder's words.
        await page.getByText(l.summary, { exact: true }).waitFor();
        expect(await axeViolations(page)).toEqual([]);

        await page.getByRole('textbox', { name: l.name }).fill('Renamed segment');
        await page.getByRole('button', { name: l.save }).click();
        await page.getByRole('heading', { level: 1, name: 'Renamed segment' }).waitFor();

        await page.getByRole('button', { name: l.del }).first().click();
        await page.getByRole('dialog').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('dialog').getByRole('button', { name: l.del }).click();
        await page.waitForURL(/\/admin\/segments\?realm=/);
        expect((await c.h.request({ url: `/api/admin/segments/${id}` })).statusCode).toBe(404);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 30_000);
  }

  for (const { locale, scheme } of VARIANTS) {
    it(`creates a campaign, previews it for a user as the server renders it, shows a Liquid error's line, edits and deletes it (${locale}, ${scheme})`, async () => {
      const realm = `camp-${locale}`;
      expect((await c.h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: realm, name: realm } })).statusCode).toBe(201);
      const user = await c.h.request({ method: 'POST', url: `/api/admin/customers/${realm}/users`, payload: { email: 'ana@example.com', password: 'a realm user secret 9', first_name: 'Ana <b>' } });
      const L = locale === 'en'
        ? { campaigns: 'Campaigns', create: 'New campaign', realm: 'Realm', name: 'Campaign name', subject: 'Subject (Liquid)', body: 'Body (Liquid)', user: 'Preview for the user', preview: 'Preview', save: 'Save', del: 'Delete', layout: 'Use the realm\'s email layout' }
        : { campaigns: 'Campañas', create: 'Nueva campaña', realm: 'Reino', name: 'Nombre de la campaña', subject: 'Asunto (Liquid)', body: 'Cuerpo (Liquid)', user: 'Vista previa para el usuario', preview: 'Vista previa', save: 'Guardar', del: 'Eliminar', layout: 'Usar el diseño de correo del reino' };
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go('/campaigns');
        await page.getByRole('heading', { level: 1, name: L.campaigns }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('button', { name: L.create }).click();
        const dialog = page.getByRole('dialog');
        await dialog.waitFor();
        await dialog.getByLabel(new RegExp(`^${L.realm}`)).fill(realm);
        await page.getByRole('option', { name: new RegExp(realm) }).click();
        await dialog.getByRole('textbox', { name: L.name }).fill('Welcome');
        await dialog.getByRole('textbox', { name: L.subject }).fill('Hi {{ user.first_name }}');
        await dialog.getByRole('textbox', { name: L.body }).fill('<p>Hello {{ user.first_name }}</p>');
        expect(await axeViolations(page)).toEqual([]);
        await dialog.locator('button[type=submit]').click();
        await page.waitForURL(/\/admin\/campaigns\/\d+$/);
        const id = page.url().split('/').pop();
        await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();

        await page.getByRole('combobox', { name: L.user }).fill('ana@');
        await page.getByRole('option', { name: 'ana@example.com' }).click();
        await page.getByRole('button', { name: L.preview }).click();
        const expected = (await c.h.request({ method: 'POST', url: `/api/admin/messaging/campaigns/${id}/preview`, payload: { user_id: user.json().id } })).json();
        // The HTML part in a frame that runs nothing: the user's `<b>` is text there, as in the mail.
        const frame = page.locator('iframe[data-preview-html]');
        await frame.waitFor();
        expect(await frame.getAttribute('sandbox')).toBe('');
        expect(await frame.getAttribute('srcdoc')).toBe(expected.html);
        await page.frameLocator('iframe[data-preview-html]').getByText('Hello Ana <b>', { exact: true }).waitFor();
        await page.locator('[data-preview]').getByText(expected.subject, { exact: true }).waitFor();
        // The picker names the user it was given, not their id.
        expect(await page.getByRole('combobox', { name: L.user }).inputValue()).toBe('Ana <b> <ana@example.com>');
        expect(await axeViolations(page)).toEqual([]);

        await page.getByRole('textbox', { name: L.body }).fill('<p>Hello</p>\n{% if user.first_name %}\n{{ user.first_name');
        await page.getByRole('button', { name: L.preview }).click();
        await page.locator('[data-preview-error]').getByText(/line 3/).waitFor();
        await page.getByRole('textbox', { name: L.body }).fill('<p>Bye {{ user.first_name }}</p>');
        await page.getByRole('button', { name: L.save }).click();
        await expect.poll(async () => (await c.h.request({ url: `/api/admin/messaging/campaigns/${id}` })).json().body).toBe('<p>Bye {{ user.first_name }}</p>');
        // Into the realm's layout: the preview is then the whole mail's HTML.
        await page.getByRole('checkbox', { name: L.layout }).check();
        await page.getByRole('button', { name: L.preview }).click();

        await expect.poll(() => frame.getAttribute('srcdoc')).toMatch(/^<!doctype html>[\s\S]*<p>Bye Ana &lt;b&gt;<\/p>/i);
        await page.frameLocator('iframe[data-preview-html]').getByText('Bye Ana <b>', { exact: true }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('button', { name: L.save }).click();
        await expect.poll(async () => (await c.h.request({ url: `/api/admin/messaging/campaigns/${id}` })).json().use_layout).toBe(true);

        await page.getByRole('button', { name: L.del }).first().click();
        await page.getByRole('dialog').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('dialog').getByRole('button', { name: L.del }).click();
        await page.waitForURL(/\/admin\/campaigns$/);
        expect((await c.h.request({ url: `/api/admin/messaging/campaigns/${id}` })).statusCode).toBe(404);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 30_000);
  }
});
