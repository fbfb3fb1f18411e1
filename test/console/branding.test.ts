import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { adminCall } from '../helpers/admin.js';

// A 1×1 PNG: the logo uploaded as a content asset.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const backgroundOf = (element: Locator) => element.evaluate((node) => getComputedStyle(node).backgroundColor);

// The realm's branding (issue 29, "also expected"): a colour picker, a live preview of the sign-in page, a logo upload.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: realm branding', () => {
  let c: ConsoleHarness;
  let api: ReturnType<typeof adminCall>;
  beforeAll(async () => { c = await startConsole(); api = adminCall(c.h); }, 90_000);
  afterAll(async () => { await c?.close(); });


  for (const { locale, scheme } of VARIANTS) {
    const L = (en: string, es: string) => (locale === 'en' ? en : es);

    it(`previews the colour as it is picked, uploads a logo, and the saved sign-in page uses both (${locale}, ${scheme})`, async () => {
      const uid = `brand-${locale}`;
      const name = `Brand ${locale}`;
      await api('POST', '/realms', { uid, name });
      await api('POST', '/content/spaces', { uid: `media-${locale}`, name: `Media ${locale}`, default_locale: 'en', locales: ['en'] });
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go(`/realms/${uid}/settings`);
        const preview = page.getByRole('figure', { name: L('Preview of the sign-in page', 'Vista previa de la página de acceso') });
        const button = preview.getByText(L('Sign in', 'Iniciar sesión'), { exact: true });
        // No colour yet: the pages' default.
        expect(await backgroundOf(button)).toBe('rgb(29, 78, 216)');

        // Typed: a grey that buttons can use (with black text) but links cannot, on a light or dark page, as the realm pages do.
        const color = page.getByLabel(L('Primary colour', 'Color principal'));
        await color.fill('#777777');
        await expect.poll(() => backgroundOf(button)).toBe('rgb(119, 119, 119)');
        expect(await button.evaluate((node) => getComputedStyle(node).color)).toBe('rgb(0, 0, 0)');
        await preview.getByText(L('This colour is not readable as text', 'Este color no se lee como texto')).waitFor();

        // Picked from the swatches.
        await color.click();
        await page.getByLabel('#0f766e').click();
        await expect.poll(() => backgroundOf(button)).toBe('rgb(15, 118, 110)');
        expect(await color.inputValue()).toBe('#0f766e');
        await page.keyboard.press('Escape');
        // Teal reads as link text on the light page, not on the dark one (no colour reads on both at 4.5:1).
        expect(await preview.getByText(L('This colour is not readable as text', 'Este color no se lee como texto')).count()).toBe(scheme === 'light' ? 0 : 1);

        // The logo, uploaded into the content space, shows in the preview at once.
        const chooser = page.waitForEvent('filechooser');
        await page.getByRole('button', { name: L('Upload a logo', 'Subir un logotipo') }).click();
        await (await chooser).setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
        const logoUrl = page.getByLabel(L('Logo address', 'Dirección del logotipo'));
        await expect.poll(() => logoUrl.inputValue()).toMatch(new RegExp(`^/api/content/spaces/media-${locale}/assets/[0-9a-f-]+/logo\\.png$`));
        await expect.poll(() => preview.getByRole('img', { name }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
        expect(await axeViolations(page)).toEqual([]);

        await page.locator('main form button[type=submit]:not([data-loading])').first().press('Enter');
        await expect.poll(async () => (await api('GET', `/realms/${uid}`)).settings.branding)
          .toMatchObject({ primary_color: '#0f766e', logo_url: await logoUrl.inputValue() });
        expect(problems).toEqual([]);

        // The realm's own sign-in page, as its users see it.
        await page.goto(`/realms/${uid}/login`);
        expect(await backgroundOf(page.locator('main button[type=submit]'))).toBe('rgb(15, 118, 110)');
        expect(await page.getByRole('img', { name }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
      } finally {
        await close();
      }
    });
  }
});
