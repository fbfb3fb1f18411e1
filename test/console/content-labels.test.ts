import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { makeSpace } from '../helpers/content.js';
import { choose, exactly, expectAccessible, TEXT } from './content-steps.js';

/** The words of the field editor this test reads besides those of the content journey. */
const WORDS = {
  en: { rule: 'Use a lower-case letter, then lower-case letters, digits or "_" (at most 64)', taken: 'Another field has this identifier' },
  es: { rule: 'Usa una letra minúscula y después letras minúsculas, dígitos o "_" (como máximo 64)', taken: 'Otro campo tiene este identificador' },
};

describe.skipIf(!!process.env.DATABASE_URL)('admin console: a content type created from field labels alone', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    it(`derives each identifier from its label, checks it as typed, and the entry editor names the fields by their labels (${locale}, ${scheme})`, async () => {
      const text = { ...TEXT[locale], ...WORDS[locale] };
      const space = await makeSpace(c.h, { default_locale: 'en', locales: ['en', 'es'] });
      const typeUrl = `/api/admin/content/spaces/${space.uid}/types/recipe`;
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go(`/content/${space.uid}`);
        await page.getByRole('button', { name: text.newType }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel(exactly(text.uid)).fill('recipe');
        await dialog.getByLabel(exactly(text.name)).fill('Recipe');
        const row = (i: number) => dialog.getByRole('group', { name: `${text.field} ${i + 1}`, exact: true });
        const addField = async (i: number, label: string) => {
          await dialog.getByRole('button', { name: text.addField }).click();
          await row(i).getByLabel(text.fieldLabel).pressSequentially(label);
        };
        const identifier = (i: number) => row(i).getByLabel(text.fieldIdentifier);

        // Typed labels only: the identifiers follow them, accents stripped.
        await addField(0, 'Cover image');
        expect(await identifier(0).inputValue()).toBe('cover_image');
        await choose(page, row(0), text.fieldType, text.typeNames.asset!);
        await addField(1, 'Título del artículo');
        expect(await identifier(1).inputValue()).toBe('titulo_del_articulo');
        await row(1).getByLabel(text.required).check();

        // An identifier edited by hand is checked as typed, with no submit, and no longer follows its label.
        await addField(2, 'Price');
        await identifier(2).fill('Price!');
        await row(2).getByText(text.rule).waitFor();
        expect(await identifier(2).getAttribute('aria-invalid')).toBe('true');
        await expectAccessible(page);
        await identifier(2).fill('cost');
        await row(2).getByText(text.rule).waitFor({ state: 'detached' });
        await row(2).getByLabel(text.fieldLabel).fill('Price (EUR)');
        expect(await identifier(2).inputValue()).toBe('cost');
        await choose(page, row(2), text.fieldType, text.typeNames.decimal!);

        // A label giving the identifier of another field says so at once; the field is removed.
        await addField(3, 'Cover image');
        await row(3).getByText(text.taken).waitFor();
        await expectAccessible(page);
        await dialog.getByRole('button', { name: `${text.removeField} Cover image` }).last().click();
        await row(3).waitFor({ state: 'detached' });

        await dialog.locator('button[type=submit]').last().click();
        await page.waitForURL(/\/types\/recipe$/);
        const created = (await c.h.request({ url: typeUrl })).json();
        expect(created.fields.map((f: { name: string; labels: object; type: string }) => [f.name, f.labels, f.type])).toEqual([
          ['cover_image', { en: 'Cover image' }, 'asset'],
          ['titulo_del_articulo', { en: 'Título del artículo' }, 'text'],
          ['cost', { en: 'Price (EUR)' }, 'decimal'],
        ]);
        // A Spanish label, given through the API, is what a Spanish console shows; the others fall back to the default locale's.
        const fields = created.fields.map((f: { name: string }) => (f.name === 'cover_image' ? { ...f, labels: { en: 'Cover image', es: 'Imagen de portada' } } : f));
        expect((await c.h.request({ method: 'PUT', url: typeUrl, payload: { fields } })).statusCode).toBe(200);

        // The entry editor names each field by its label; what it saves is keyed by the identifiers.
        await go(`/content/${space.uid}/types/recipe/entries/new`);
        await page.getByLabel(exactly(text.name)).fill('Pancakes');
        await page.getByLabel(exactly('Título del artículo')).fill('Tortitas');
        await page.getByLabel(exactly('Price (EUR)')).fill('4.5');
        await page.getByLabel(exactly(locale === 'es' ? 'Imagen de portada' : 'Cover image')).first().waitFor();
        expect(await page.getByLabel(exactly('titulo_del_articulo')).count()).toBe(0);
        await expectAccessible(page);
        await page.getByRole('button', { name: text.saveDraft }).click();
        await page.waitForURL(/\/entries\/[0-9a-f-]{36}$/);
        const uuid = /entries\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
        const entry = (await c.h.request({ url: `${typeUrl}/entries/${uuid}` })).json();
        expect(entry.fields).toMatchObject({ titulo_del_articulo: 'Tortitas', cost: 4.5 });
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 120_000);
  }
});
