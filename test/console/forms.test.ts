import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { PNG } from '../forms/helpers.js';
import { choose, exactly, expectAccessible } from './content-steps.js';

/** The console's words the forms journey clicks and reads, in each language. */
const TEXT = {
  en: {
    forms: 'Forms', newForm: 'New form', uid: 'Identifier', name: 'Name', addField: 'Add field', fieldType: 'Field type', fieldName: 'Field name',
    label: 'Label (en)', required: 'Required', email: 'Email', checkbox: 'Checkbox', moveUp: 'Move {name} up', moveDown: 'Move {name} down',
    minFill: 'Minimum fill time (seconds)', save: 'Save', responses: 'Responses', exportCsv: 'Export CSV', status: 'Status', spam: 'Spam',
    all: 'All', markSpam: 'Mark as spam', notSpam: 'Not spam', noResponses: 'No responses.', showIf: 'Show only when this field has an answer', preview: 'Preview', file: 'File',
  },
  es: {
    forms: 'Formularios', newForm: 'Nuevo formulario', uid: 'Identificador', name: 'Nombre', addField: 'Añadir campo', fieldType: 'Tipo de campo', fieldName: 'Nombre del campo',
    label: 'Etiqueta (en)', required: 'Obligatorio', email: 'Correo electrónico', checkbox: 'Casilla', moveUp: 'Subir {name}', moveDown: 'Bajar {name}',
    minFill: 'Tiempo mínimo para rellenarlo (segundos)', save: 'Guardar', responses: 'Respuestas', exportCsv: 'Exportar CSV', status: 'Estado', spam: 'Spam',
    all: 'Todas', markSpam: 'Marcar como spam', notSpam: 'No es spam', noResponses: 'No hay respuestas.', showIf: 'Mostrar solo cuando este campo tenga respuesta', preview: 'Vista previa', file: 'Archivo',
  },
};

// The console's journeys run on the embedded database only, like every console test: the browser sees no difference.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: forms', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    it(`builds a form (text, email, required checkbox), answers it on its hosted page, finds the response, marks it spam and back, and exports it (${locale}, ${scheme})`, async () => {
      const text = TEXT[locale];
      const uid = `contact-${locale}`;
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await page.getByRole('navigation').getByRole('link', { name: text.forms, exact: true }).click();
        await page.getByRole('button', { name: text.newForm }).click();
        await page.getByLabel(exactly(text.uid)).fill(uid);
        await page.getByLabel(exactly(text.name)).fill(`Contact ${locale}`);

        // Three fields, each set in the side panel once added (the new field is the selected one).
        const fields: { name: string; label: string; type?: string; required?: boolean }[] = [
          { name: 'full_name', label: 'Full name' },
          { name: 'email', label: 'Email address', type: text.email },
          { name: 'agree', label: 'I agree to be contacted', type: text.checkbox, required: true },
        ];
        for (const field of fields) {
          await page.getByRole('button', { name: text.addField }).click();
          if (field.type) await choose(page, page, text.fieldType, field.type);
          await page.getByLabel(exactly(text.fieldName)).fill(field.name);
          await page.getByLabel(exactly(text.label)).fill(field.label);
          if (field.required) await page.getByLabel(exactly(text.required)).check();
        }
        // The checkbox shows only once an email is given: a condition picked from the earlier fields.
        await choose(page, page, text.showIf, 'email');
        // Moved up above the email, then back down.
        await page.getByRole('button', { name: text.moveUp.replace('{name}', 'agree') }).click();
        await page.getByRole('button', { name: text.moveDown.replace('{name}', 'agree') }).click();
        // A file field last: its answers download from the responses table.
        await page.getByRole('button', { name: text.addField }).click();
        await choose(page, page, text.fieldType, text.file);
        await page.getByLabel(exactly(text.fieldName)).fill('cv');
        await page.getByLabel(exactly(text.label)).fill('CV');
        await page.getByLabel(exactly(text.minFill)).fill('0');
        // The preview beside the builder asks the fields as the hosted page will, disabled.
        const preview = page.getByRole('group', { name: text.preview, exact: true });
        expect(await preview.getByLabel('Email address').isDisabled()).toBe(true);
        expect(await preview.getByRole('checkbox', { name: 'I agree to be contacted' }).count()).toBe(1);
        await expectAccessible(page);
        await page.getByRole('button', { name: text.save, exact: true }).click();
        await page.waitForURL(new RegExp(`/admin/forms/${uid}$`));
        const stored = (await c.h.request({ url: `/api/admin/forms/${uid}` })).json();
        expect(stored).toMatchObject({
          name: `Contact ${locale}`, access: 'public', spam: { min_fill_seconds: 0 },
          fields: [
            { name: 'full_name', type: 'text', labels: { en: 'Full name' } },
            { name: 'email', type: 'email', labels: { en: 'Email address' } },
            { name: 'agree', type: 'checkbox', required: true, labels: { en: 'I agree to be contacted' }, show_if: { field: 'email' } },
            { name: 'cv', type: 'file', labels: { en: 'CV' } },
          ],
        });
        await expectAccessible(page);

        // Answered on the hosted page in the same browser.
        await page.goto(`/forms/${uid}`);
        await page.getByLabel('Full name').fill('Ada Lovelace');
        await page.getByLabel('Email address').fill(`Ada.${locale}@Example.com`);
        await page.getByLabel('I agree to be contacted').check();
        await page.getByLabel('CV').setInputFiles({ name: 'cv.png', mimeType: 'image/png', buffer: PNG });
        await page.getByRole('button', { name: 'Send' }).click();
        await expect.poll(async () => (await c.h.request({ url: `/api/admin/forms/${uid}/responses` })).json().responses.map((r: { status: string }) => r.status)).toEqual(['received']);

        // The response in the console's table.
        await go(`/forms/${uid}`);
        await page.getByRole('link', { name: text.responses, exact: true }).click();
        const row = page.locator('main table tbody tr').filter({ hasText: `ada.${locale}@example.com` });
        await row.waitFor();
        await expect.poll(() => row.textContent()).toContain('full_name: Ada Lovelace');
        await expectAccessible(page);

        // Export: the CSV the link downloads with the session.
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: text.exportCsv }).click()]);
        const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '');
        const lines = csv.trim().split('\r\n');
        expect(lines[0]).toBe('id,submitted_at,status,spam_reason,email,user_id,locale,full_name,email,agree,cv');
        expect(lines).toHaveLength(2);
        expect(lines[1]).toContain(`,received,,ada.${locale}@example.com,,`);
        expect(lines[1]).toMatch(/,Ada Lovelace,ada\.\w+@example\.com,true,cv\.png$/);
        // The file answer downloads the file with the session.
        const [file] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: 'cv.png' }).click()]);
        expect(file.suggestedFilename()).toBe('cv.png');
        expect((await readFile((await file.path())!)).equals(PNG)).toBe(true);

        // Marked spam: it leaves the received ones and shows in the spam view, where it is marked not spam again.
        await row.getByRole('button', { name: text.markSpam }).click();
        await expect.poll(async () => (await c.h.request({ url: `/api/admin/forms/${uid}/responses?status=spam` })).json().responses).toHaveLength(1);
        await choose(page, page, text.status, text.spam);
        await page.waitForURL(/status=spam/);
        const spamRow = page.locator('main table tbody tr').filter({ hasText: `ada.${locale}@example.com` });
        await spamRow.getByRole('button', { name: text.notSpam }).waitFor();
        await expectAccessible(page);
        await spamRow.getByRole('button', { name: text.notSpam }).click();
        await page.getByText(text.noResponses).waitFor();
        expect((await c.h.request({ url: `/api/admin/forms/${uid}/responses?status=received` })).json().responses).toHaveLength(1);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 180_000);
  }
});
