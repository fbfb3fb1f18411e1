import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { exactly, expectAccessible } from './content-steps.js';

/** The console's words the email templates journey clicks and reads, in each language. */
const TEXT = {
  en: {
    nav: 'Email templates', subject: 'Subject (en)', html: 'HTML body (en)', text: 'Text body (en)', preview: 'Preview', save: 'Save',
    mobile: 'Mobile width', testSend: 'Send me a test', testSent: 'Test sent to', versions: 'Versions', saved: 'Saved', reset: 'Reset to default',
    shipped: 'Shipped wording', account: 'Account default', realm: 'This realm\'s override',
  },
  es: {
    nav: 'Plantillas de correo', subject: 'Asunto (en)', html: 'Cuerpo HTML (en)', text: 'Cuerpo de texto (en)', preview: 'Vista previa', save: 'Guardar',
    mobile: 'Ancho de móvil', testSend: 'Enviarme una prueba', testSent: 'Prueba enviada a', versions: 'Versiones', saved: 'Guardada', reset: 'Restablecer la predeterminada',
    shipped: 'Texto de fábrica', account: 'Predeterminada de la cuenta', realm: 'Propia de este reino',
  },
};

// The console's journeys run on the embedded database only, like every console test: the browser sees no difference.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: email templates', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    it(`edits the account's password reset mail, previews it in a sandboxed frame, saves, test-sends and resets it (${locale}, ${scheme})`, async () => {
      const text = TEXT[locale];
      const stored = async () => (await c.h.request({ url: '/api/admin/email_templates/password_reset' })).json();
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await page.getByRole('navigation').getByRole('link', { name: text.nav, exact: true }).click();
        await page.getByText(text.shipped).waitFor();
        await page.getByLabel(exactly(text.subject)).fill('Reset it, {{ user.first_name }}');
        await page.getByLabel(exactly(text.html)).fill('<p>Hello {{ user.first_name }}, <a href="{{ url }}">choose a new password</a>.</p>');
        await page.getByLabel(exactly(text.text)).fill('Hello {{ user.first_name }}: {{ url }}');
        await page.getByRole('button', { name: text.preview, exact: true }).click();
        const frame = page.locator('iframe');
        await page.frameLocator('iframe').getByText('choose a new password').waitFor();
        expect(await frame.getAttribute('sandbox')).toBe('');
        await page.getByLabel(text.mobile).check();
        await expect.poll(async () => (await frame.boundingBox())?.width).toBeLessThan(400);
        await expectAccessible(page);

        await page.getByRole('button', { name: text.save, exact: true }).click();
        await expect.poll(async () => (await stored()).source).toBe('account');
        expect((await stored()).locales.en).toMatchObject({ subject: 'Reset it, {{ user.first_name }}' });
        await page.getByText(text.account).waitFor();
        await page.getByRole('cell', { name: text.saved, exact: true }).first().waitFor();
        // The version names the member who saved it.
        await page.getByRole('row').filter({ has: page.getByRole('cell', { name: text.saved, exact: true }) }).first().getByRole('cell', { name: 'Account Owner', exact: true }).waitFor();
        await page.getByRole('button', { name: text.testSend }).click();
        await page.getByText(text.testSent).first().waitFor();
        await expectAccessible(page);

        await page.getByRole('button', { name: text.reset }).click();
        await page.getByRole('dialog').getByRole('button', { name: text.reset }).click();
        await expect.poll(async () => (await stored()).source).toBe('shipped');
        await page.getByText(text.shipped).waitFor();

        // A realm's overrides: the same editor as a tab of the realm.
        const realm = `mail-${locale}`;
        expect((await c.h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: realm, name: realm } })).statusCode).toBe(201);
        await go(`/realms/${realm}`);
        await page.getByRole('link', { name: text.nav, exact: true }).last().click();
        await page.getByLabel(exactly(text.subject)).fill('Reset your {{ realm.name }} password');
        await page.getByRole('button', { name: text.save, exact: true }).click();
        await expect.poll(async () => (await c.h.request({ url: `/api/admin/customers/${realm}/email_templates/password_reset` })).json().source).toBe('realm');
        await page.getByText(text.realm).waitFor();
        await expectAccessible(page);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 120_000);
  }
});
