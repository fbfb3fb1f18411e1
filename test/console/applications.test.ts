import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { createMember } from '../helpers/admin.js';

const TEXT = {
  en: { nav: 'API applications', create: 'New application', name: 'Name', redirect: 'Redirect URI', close: 'Close', save: 'Save', del: 'Delete' },
  es: { nav: 'Aplicaciones de la API', create: 'Nueva aplicación', name: 'Nombre', redirect: 'URI de redirección', close: 'Cerrar', save: 'Guardar', del: 'Eliminar' },
};

// The console runs against a server on the embedded database (issue 15); the PostgreSQL run skips it.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: API access applications', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    it(`registers an application (secret shown once), edits it, a token made for it works, deleting it revokes the token (${locale}, ${scheme})`, async () => {
      const text = TEXT[locale];
      const { page, problems, signIn, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await page.getByRole('navigation').getByRole('link', { name: text.nav }).click();
        await page.getByRole('heading', { level: 1, name: text.nav }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('button', { name: text.create }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('textbox', { name: text.name }).fill(`Reporting ${locale} ‏مرحبا 🚀`);
        await dialog.getByRole('textbox', { name: text.redirect }).fill('https://reports.example.com/callback');
        expect(await axeViolations(page)).toEqual([]);
        await dialog.locator('button[type=submit]').click();
        const secret = await dialog.locator('[data-secret]').innerText();
        expect(secret.length).toBeGreaterThanOrEqual(32);
        expect(await axeViolations(page)).toEqual([]);
        await dialog.getByRole('button', { name: text.close }).last().click();
        await page.waitForURL(/\/admin\/applications\/\d+$/);
        const id = Number(/applications\/(\d+)$/.exec(page.url())![1]);
        const stored = (await c.h.request({ url: `/api/admin/api_access/applications/${id}` })).json();
        expect(stored).toMatchObject({ name: `Reporting ${locale} ‏مرحبا 🚀`, redirect_uri: 'https://reports.example.com/callback', callback_url: 'https://reports.example.com/callback' });
        expect(JSON.stringify(stored)).not.toContain(secret);
        await page.locator('[data-application-uid]').getByText(stored.uid, { exact: true }).waitFor();
        expect(await axeViolations(page)).toEqual([]);

        await page.getByRole('textbox', { name: text.redirect }).fill('https://reports.example.com/v2/callback');
        await page.getByRole('button', { name: text.save }).click();
        await expect.poll(async () => (await c.h.request({ url: `/api/admin/api_access/applications/${id}` })).json().redirect_uri).toBe('https://reports.example.com/v2/callback');

        // A member's token made for the application reads the API; deleting the application through the console revokes it.
        const member = await createMember(c.h, [{ key: 'account_user' }]);
        const token = (await c.h.request({ method: 'POST', url: `/api/admin/team_members/${member.id}/access_tokens`, payload: { application_id: id } })).json().token;
        expect((await c.h.request({ url: '/api/admin/realms', token })).statusCode).toBe(200);
        await page.getByRole('button', { name: text.del }).first().click();
        await page.getByRole('dialog').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('dialog').getByRole('button', { name: text.del }).click();
        await page.waitForURL(/\/admin\/applications$/);
        expect((await c.h.request({ url: `/api/admin/api_access/applications/${id}` })).statusCode).toBe(404);
        expect((await c.h.request({ url: '/api/admin/realms', token })).statusCode).toBe(401);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }
});
