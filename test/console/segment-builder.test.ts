import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';

const LABELS = {
  en: {
    name: 'Name', attribute: 'Attribute', operator: 'Operator', value: 'Value', match: 'Users who meet', addCondition: 'Add condition',
    addGroup: 'Add group', save: 'Save', required: 'Enter a value', any: 'any of these conditions', gte: 'is at least', matches: /^1 matching users$/, loginCount: 'Login: number of times',
  },
  es: {
    name: 'Nombre', attribute: 'Atributo', operator: 'Operador', value: 'Valor', match: 'Usuarios que cumplen', addCondition: 'Añadir condición',
    addGroup: 'Añadir grupo', save: 'Guardar', required: 'Escribe un valor', any: 'alguna de estas condiciones', gte: 'es al menos', matches: /^1 usuarios coinciden$/, loginCount: 'Inicio de sesión: número de veces',
  },
};

/** The words of the English builder and summary: none of them may show in the Spanish one. */
const ENGLISH = /\b(is|not|set|contains|starts|with|one|of|less|more|than|least|most|between|before|after|on|within|last|days?|all|any|these|conditions?|users?|who|meet|and|or|number|times?|login|logout|sign|signed|email|username|first|name|active|add|group|remove|move|summary|matching|save|value|attribute|operator|yes|from|to|enter|eq|neq|gte|lte|is_set|is_not_set)\b/gi;

const press = async (page: Page, key: string, times = 1) => { for (let i = 0; i < times; i++) await page.keyboard.press(key); };
const top = async (locator: Locator) => (await locator.boundingBox())!.y;

/** Every word the form shows or names: its text, every option of its selects, its controls' names and the values in its fields. */
async function wordsOf(form: Locator): Promise<string> {
  return [
    await form.innerText(),
    ...await form.locator('option').allTextContents(),
    ...await form.locator('[aria-label]').evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label') ?? '')),
    ...await form.locator('input:not([type=checkbox])').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)),
  ].join('\n').replace(/\S+@example\.com/g, '');
}

const makeRealm = async (c: ConsoleHarness, realm: string) => {
  expect((await c.h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: realm, name: realm } })).statusCode).toBe(201);
  const field = await c.h.request({ method: 'POST', url: `/api/admin/customers/${realm}/custom_fields`, payload: { key: 'pais', name: 'País', type: 'dropdown', options: ['Argentina', 'Chile'] } });
  expect(field.statusCode, field.body).toBe(201);
};

// The console runs against a server on the embedded database (issue 15); the PostgreSQL run skips it.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: the segment builder reads as words', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    it(`builds a nested segment by keyboard, one row a condition, and reads it back in Spanish with no English word (${locale}, ${scheme})`, async () => {
      const realm = `segb-${locale}`;
      await makeRealm(c, realm);
      for (const [email, first_name, pais] of [['ana@example.com', 'Ana', 'Chile'], ['carla@example.com', 'Carla', 'Chile'], ['bea@example.com', 'Ana', 'Argentina']] as const) {
        const user = await c.h.request({ method: 'POST', url: `/api/admin/customers/${realm}/users`, payload: { email, password: 'a realm user secret 9', first_name, custom_fields: [{ key: 'pais', value: pais }] } });
        expect(user.statusCode, user.body).toBe(201);
      }
      const l = LABELS[locale];
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go(`/segments/new?realm=${realm}`);
        await page.locator('[data-live-count]').waitFor({ state: 'attached' });
        await page.getByRole('textbox', { name: l.name }).focus();
        await page.keyboard.type('Chilenas');

        // Root: País is Chile, picked among the field's options (attributes: 7 of the user, then the custom field).
        await page.getByRole('button', { name: l.addCondition }).first().focus();
        await press(page, 'Enter');
        const attribute = page.getByRole('combobox', { name: l.attribute }).first();
        // The realm's custom fields and event types are among the attributes once they are read.
        await attribute.locator('option', { hasText: l.loginCount }).waitFor({ state: 'attached' });
        await attribute.focus();
        await press(page, 'ArrowDown', 7);
        const country = page.getByRole('combobox', { name: l.value }).first();
        expect(await country.locator('option').allTextContents()).toEqual(['Argentina', 'Chile']);
        await country.focus();
        await press(page, 'ArrowDown');

        // A nested "any" group: a new, empty condition says nothing until its value is edited or the segment saved.
        await page.getByRole('button', { name: l.addGroup }).first().focus();
        await press(page, 'Enter');
        await page.getByRole('combobox', { name: l.match }).nth(1).focus();
        await press(page, 'ArrowDown');
        await page.getByRole('button', { name: l.addCondition }).nth(1).focus();
        await press(page, 'Enter');
        await page.getByRole('combobox', { name: l.attribute }).nth(1).waitFor();
        expect(await page.getByText(l.required).count()).toBe(0);
        expect(await page.getByRole('alert').count()).toBe(0);
        await page.getByRole('button', { name: l.save }).focus();
        await press(page, 'Enter');
        await page.getByText(l.required).waitFor();
        expect(page.url()).toMatch(/\/segments\/new/);
        expect(await axeViolations(page)).toEqual([]);

        // The login count (the first event attribute) is at least 1: the operator in words.
        await page.getByRole('combobox', { name: l.attribute }).nth(1).focus();
        await press(page, 'ArrowDown', 8);
        const operator = page.getByRole('combobox', { name: l.operator }).nth(1);
        await operator.focus();
        await press(page, 'ArrowDown', 4);
        expect(await operator.locator('option:checked').textContent()).toBe(l.gte);
        await page.getByRole('spinbutton', { name: l.value }).first().focus();
        await page.keyboard.type('1');
        // And first name is "Ana", in the same group.
        await page.getByRole('button', { name: l.addCondition }).nth(1).focus();
        await press(page, 'Enter');
        await page.getByRole('combobox', { name: l.attribute }).nth(2).focus();
        await press(page, 'ArrowDown', 2);
        await page.getByRole('textbox', { name: l.value }).first().focus();
        await page.keyboard.type('Ana');
        await expect.poll(() => page.getByText(l.required).count()).toBe(0);

        // One condition is one row; the inner group is a box, indented under the outer one.
        const rule = page.locator('[data-testid="rule"]').nth(1);
        const rowTops = await Promise.all([rule.getByRole('combobox', { name: l.attribute }), rule.getByRole('combobox', { name: l.operator }), rule.getByRole('spinbutton', { name: l.value })].map(top));
        expect(Math.max(...rowTops) - Math.min(...rowTops)).toBeLessThan(4);
        const [outer, inner] = [page.locator('[data-testid="rule-group"]').first(), page.locator('[data-testid="rule-group"]').nth(1)];
        expect((await inner.boundingBox())!.x).toBeGreaterThan((await outer.boundingBox())!.x + 8);
        expect(await inner.evaluate((element) => getComputedStyle(element).borderTopStyle)).toBe('solid');
        expect(await inner.getByRole('combobox', { name: l.match }).locator('option:checked').textContent()).toBe(l.any);

        const tree = { all: [{ attribute: 'custom_fields.pais', operator: 'eq', value: 'Chile' }, { any: [{ attribute: 'events.user_login_log.count', operator: 'gte', value: 1 }, { attribute: 'first_name', operator: 'eq', value: 'Ana' }] }] };
        expect((await c.h.request({ method: 'POST', url: '/api/admin/segments/count_matches', payload: { realm_uid: realm, filters: tree } })).json()).toEqual({ matches_count: 1 });
        await page.locator('[data-live-count]').getByText(l.matches).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('button', { name: l.save }).focus();
        await press(page, 'Enter');
        await page.waitForURL(/\/admin\/segments\/\d+$/);
        const id = page.url().split('/').pop();
        expect((await c.h.request({ url: `/api/admin/segments/${id}` })).json().filters).toEqual(tree);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }

      // Read back in Spanish: the builder, its options and the summary hold no English word.
      const spanish = await c.open({ locale: 'es', scheme });
      try {
        await spanish.signIn();
        const segments = (await c.h.request({ url: `/api/admin/segments?realm_uid=${realm}` })).json().segments;
        await spanish.go(`/segments/${segments[0].id}`);
        const summary = spanish.page.locator('[data-summary]');
        await summary.waitFor();
        const expected = 'País es "Chile" y (Inicio de sesión: número de veces es al menos 1 o Nombre es "Ana")';
        await expect.poll(() => summary.textContent()).toBe(expected);
        await spanish.page.locator('[data-live-count]').getByText(LABELS.es.matches).waitFor();
        expect((await wordsOf(spanish.page.locator('main form'))).match(ENGLISH)).toBeNull();
        expect(await axeViolations(spanish.page)).toEqual([]);
        // The list says it in the same words.
        await spanish.go(`/segments?realm=${realm}`);
        await spanish.page.locator('[data-summary]').getByText(expected, { exact: true }).waitFor();
        expect(spanish.problems).toEqual([]);
      } finally {
        await spanish.close();
      }
    }, 40_000);
  }

  for (const { locale, scheme } of VARIANTS) {
    it(`marks a value the server refuses on its condition, in words, live and on save (${locale}, ${scheme})`, async () => {
      const realm = `segx-${locale}`;
      await makeRealm(c, realm);
      const l = LABELS[locale];
      const words = locale === 'en'
        ? { invalid: 'Check this value', fix: 'Some conditions need a change (marked in red).' }
        : { invalid: 'Revisa este valor', fix: 'Algunas condiciones necesitan un cambio (marcadas en rojo).' };
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go(`/segments/new?realm=${realm}`);
        await page.getByRole('textbox', { name: l.name }).fill('Largo');
        await page.getByRole('button', { name: l.addCondition }).first().click();
        // Longer than the server takes (1,000 characters): the count's 422 marks the condition, without its path.
        await page.getByRole('textbox', { name: l.value }).fill('a'.repeat(1001));
        await page.getByText(words.invalid, { exact: true }).waitFor();
        await page.getByRole('alert').getByText(words.fix, { exact: true }).waitFor();
        const refused = page.waitForResponse((response) => response.url().endsWith('/api/admin/segments') && response.request().method() === 'POST');
        await page.getByRole('button', { name: l.save }).click();
        expect((await refused).status()).toBe(422);
        await page.getByRole('button', { name: l.save }).and(page.locator(':not([data-loading])')).waitFor();
        expect(await page.getByRole('alert').allTextContents()).toEqual([words.fix]);
        expect(await page.locator('main').innerText()).not.toMatch(/filters|too long/i);
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 30_000);
  }

  const SAVED = { all: [
    { attribute: 'custom_fields.pais', operator: 'in', value: ['Chile', 'Argentina'] },
    { attribute: 'active', operator: 'is', value: false },
    { attribute: 'events.user_login_log.count', operator: 'between', value: [0, 5], within_last_days: 90 },
    { attribute: 'created_at', operator: 'within_last_days', value: 30 },
    { not: { any: [{ attribute: 'username', operator: 'in', value: ['ana'] }, { attribute: 'last_login_at', operator: 'is_set' }, { attribute: 'submissions.status', operator: 'eq', value: 'pending' }] } },
  ] };
  const READ = {
    en: { summary: 'País is one of "Chile", "Argentina" and Active is no and Login: number of times in the last 90 days is between 0 and 5 and Signed up is within the last 30 days and not (Username is one of "ana" or Last sign-in is set or A submission\'s status is "Pending")', invert: 'Exclude these users', value: 'Value', from: 'Value: From', to: 'Value: To', no: 'no' },
    es: { summary: 'País es uno de "Chile", "Argentina" y Activo es no y Inicio de sesión: número de veces en los últimos 90 días está entre 0 y 5 y Registro está en los últimos 30 días y no (Nombre de usuario es uno de "ana" o Último acceso tiene valor o Estado de un envío es "Pendiente")', invert: 'Excluir a estos usuarios', value: 'Valor', from: 'Valor: Desde', to: 'Valor: Hasta', no: 'no' },
  };

  for (const { locale, scheme } of [{ locale: 'en', scheme: 'dark' }, { locale: 'es', scheme: 'light' }] as const) {
    it(`reads back a segment of every control (options, yes/no, a range over a period, days, a status, an excluded group) in words (${locale}, ${scheme})`, async () => {
      const realm = `segr-${locale}`;
      await makeRealm(c, realm);
      const created = await c.h.request({ method: 'POST', url: '/api/admin/segments', payload: { realm_uid: realm, name: 'Todo', filters: SAVED } });
      expect(created.statusCode, created.body).toBe(201);
      const r = READ[locale];
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go(`/segments/${created.json().id}`);
        await expect.poll(() => page.locator('[data-summary]').textContent()).toBe(r.summary);
        const form = page.locator('main form');
        // A dropdown field's "is one of": its options picked; the yes/no; the two bounds; the days; the inverted group.
        await form.locator('[data-testid="rule"]').first().getByText('Argentina').waitFor();
        expect(await form.locator('[data-testid="rule"]').nth(1).getByRole('combobox', { name: r.value, exact: true }).locator('option:checked').textContent()).toBe(r.no);
        expect(await form.getByRole('spinbutton', { name: r.from }).inputValue()).toBe('0');
        expect(await form.getByRole('spinbutton', { name: r.to }).inputValue()).toBe('5');
        expect(await form.getByRole('spinbutton', { name: r.value, exact: true }).inputValue()).toBe('30');
        expect(await form.getByRole('checkbox', { name: r.invert }).nth(1).isChecked()).toBe(true);
        expect(await form.getByRole('checkbox', { name: r.invert }).first().isChecked()).toBe(false);
        if (locale === 'es') expect((await wordsOf(form)).match(ENGLISH)).toBeNull();
        expect(await axeViolations(page)).toEqual([]);
        // Saved again unchanged, the tree is the same.
        await page.getByRole('button', { name: locale === 'en' ? 'Save' : 'Guardar' }).click();
        await page.getByRole('alert').getByText(locale === 'en' ? 'Saved' : 'Guardado', { exact: true }).waitFor();
        expect((await c.h.request({ url: `/api/admin/segments/${created.json().id}` })).json().filters).toEqual(SAVED);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 30_000);
  }
});
