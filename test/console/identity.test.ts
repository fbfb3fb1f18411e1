import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../helpers/admin.js';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';

const say = (locale: 'en' | 'es', en: string, es: string) => (locale === 'en' ? en : es);

// The console's Administration area (issue 15) against a server on the embedded database; the PostgreSQL run skips it.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: account, team members, roles, audit log', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    it(`edits the account, creates, edits and deletes a team member (${locale}, ${scheme})`, async () => {
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await c.h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: `Robot ${locale}` } });
        await go('/sign-in');
        await signIn();

        await page.getByRole('navigation').getByRole('link', { name: say(locale, 'Account', 'Cuenta') }).click();
        const name = page.getByLabel(say(locale, 'Account name', 'Nombre de la cuenta'));
        await name.waitFor();
        // The pointer leaves the nav link it clicked (a hovered active link is the shell's own styling).
        await page.mouse.move(600, 5);
        expect(await axeViolations(page)).toEqual([]);
        await name.fill(`Account ${locale}`);
        await page.getByRole('combobox', { name: say(locale, 'Allowed file extensions', 'Extensiones de archivo permitidas') }).fill('webp');
        await page.keyboard.press('Enter');
        await page.locator('main form button[type=submit]').click();
        await expect.poll(async () => (await c.h.request({ url: '/api/admin/account' })).json().name).toBe(`Account ${locale}`);
        expect((await c.h.request({ url: '/api/admin/account' })).json().allowed_extensions).toContain('webp');

        // A 422 lands on its field.
        await page.getByLabel(say(locale, 'Upload limit (bytes)', 'Límite de subida (bytes)')).fill('0');
        await page.locator('main form button[type=submit]').click();
        await expect.poll(() => page.getByLabel(say(locale, 'Upload limit (bytes)', 'Límite de subida (bytes)')).getAttribute('aria-invalid')).toBe('true');

        // The refused value is not saved: leaving asks first.
        await page.getByRole('navigation').getByRole('link', { name: say(locale, 'Team members', 'Miembros del equipo') }).click();
        await page.getByRole('dialog').getByRole('button', { name: say(locale, 'Leave', 'Salir') }).click();
        await page.getByRole('button', { name: say(locale, 'New member', 'Nuevo miembro') }).click();
        const dialog = page.getByRole('dialog');
        await dialog.waitFor();
        const email = `new-${locale}@example.com`;
        await dialog.getByLabel(say(locale, 'Email', 'Correo electrónico')).fill(email);
        await dialog.getByLabel(say(locale, 'Name', 'Nombre'), { exact: true }).fill('مرحبا 🌍 <script>window.__xss=1</script>');
        await dialog.locator('input[type=password]').fill('a sturdy password');
        await dialog.getByRole('combobox', { name: 'Roles' }).click();
        await page.getByRole('option', { name: 'Default user' }).click();
        await page.keyboard.press('Escape');
        expect(await axeViolations(page)).toEqual([]);
        await dialog.locator('button[type=submit]').click();
        await page.waitForURL(/\/admin\/members\/\d+$/);
        await page.getByRole('heading', { level: 1, name: /مرحبا 🌍 <script>/ }).waitFor();
        expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
        expect(await axeViolations(page)).toEqual([]);
        const id = /members\/(\d+)$/.exec(page.url())![1];
        expect((await c.h.request({ url: `/api/admin/team_members/${id}` })).json().roles).toEqual([{ key: 'account_user', target: null }]);

        // An access token: its secret shown once, in a dialog with a warning and a copy button; then revoked.
        await page.getByRole('button', { name: say(locale, 'New access token', 'Nuevo token de acceso') }).click();
        await page.getByRole('dialog').getByRole('combobox', { name: say(locale, 'API application', 'Aplicación de API') }).click();
        await page.getByRole('option', { name: `Robot ${locale}` }).click();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('dialog').getByRole('button', { name: say(locale, 'Create', 'Crear') }).click();
        const shown = page.getByRole('dialog', { name: say(locale, 'Access token created', 'Token de acceso creado') });
        await shown.getByRole('button', { name: say(locale, 'Copy', 'Copiar') }).waitFor();
        const secret = (await shown.locator('[data-secret]').textContent())!;
        expect((await c.h.request({ url: '/api/admin/session', token: secret })).statusCode).not.toBe(401);
        expect(await axeViolations(page)).toEqual([]);
        await shown.getByRole('button', { name: say(locale, 'Close', 'Cerrar') }).last().click();
        await shown.waitFor({ state: 'hidden' });
        await page.getByRole('cell', { name: `Robot ${locale}` }).waitFor();
        expect(await page.content()).not.toContain(secret);
        await page.getByRole('button', { name: say(locale, 'Revoke', 'Revocar') }).click();
        await page.getByRole('dialog').getByRole('button', { name: say(locale, 'Delete', 'Eliminar') }).click();
        await page.getByRole('cell', { name: `Robot ${locale}` }).waitFor({ state: 'hidden' });
        expect((await c.h.request({ url: `/api/admin/team_members/${id}/access_tokens` })).json().access_tokens).toEqual([]);

        await page.getByLabel(say(locale, 'Name', 'Nombre'), { exact: true }).fill('Renamed member');
        await page.getByLabel(say(locale, 'Active', 'Activo')).uncheck();
        await page.locator('main form button[type=submit]').click();
        await page.getByRole('heading', { level: 1, name: 'Renamed member' }).waitFor();
        expect((await c.h.request({ url: `/api/admin/team_members/${id}` })).json().active).toBe(false);

        await go(`/members?q=new-${locale}&sort_by=email&sort_order=desc`);
        await page.getByRole('link', { name: email }).waitFor();
        expect(await page.getByRole('row').count()).toBe(2);
        await page.getByRole('link', { name: email }).click();

        await page.getByRole('button', { name: say(locale, 'Delete', 'Eliminar') }).first().click();
        await page.getByRole('dialog').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('dialog').getByRole('button', { name: say(locale, 'Delete', 'Eliminar') }).click();
        await page.waitForURL(/\/admin\/members$/);
        expect((await c.h.request({ url: `/api/admin/team_members/${id}` })).statusCode).toBe(404);

        // The audit log, filtered in its URL, says the three writes in words; the newest (the delete) first, the edit's attribute names in its drawer.
        await go(`/audit?resource_type=team_members&resource_id=${id}`);
        await page.getByRole('cell', { name: say(locale, 'Deleted team member Renamed member', 'Eliminó el miembro del equipo Renamed member') }).waitFor();
        expect(await page.getByRole('row').count()).toBe(4);
        await page.getByText(say(locale, 'Only: Renamed member', 'Solo: Renamed member')).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('row').nth(2).getByRole('button').click();
        const drawer = page.getByRole('dialog');
        await drawer.getByRole('listitem').filter({ hasText: /^active$/ }).waitFor();
        expect(await drawer.getByRole('listitem').allTextContents()).toEqual(expect.arrayContaining(['name', 'active', 'roles']));
        expect(await axeViolations(page)).toEqual([]);
        await page.keyboard.press('Escape');
        await drawer.waitFor({ state: 'hidden' });
        await page.getByLabel(say(locale, 'Kind of resource', 'Tipo de recurso'), { exact: true }).first().click();
        await page.getByRole('option', { name: say(locale, 'Realms', 'Reinos'), exact: true }).click();
        await page.waitForURL((url) => url.searchParams.get('resource_type') === 'realms' && !url.searchParams.has('resource_id'));
        await page.getByRole('status').filter({ hasText: say(locale, 'Nothing found', 'No se encontró nada') }).waitFor();
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }

  for (const { locale, scheme } of VARIANTS) {
    it(`cuts a 250-character member or role name to one line, the email, Yes, the date and the context whole beside it (${locale}, ${scheme})`, async () => {
      const email = `wide-${locale}@example.com`;
      const created = await c.h.request({ method: 'POST', url: '/api/admin/team_members', payload: { email, password: 'a sturdy password', name: 'Guadalupe María de los Ángeles مرحبا 🌍 '.repeat(10).slice(0, 250), roles: [{ key: 'account_user' }] } });
      expect(created.statusCode, created.body).toBe(201);
      const name: string = created.json().name;
      expect(name.length).toBeGreaterThanOrEqual(249);
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await go('/sign-in');
        await signIn();
        await go(`/members?q=wide-${locale}`);
        const row = page.locator('main tbody tr', { has: page.getByRole('link', { name: email }) });
        await row.waitFor();
        const cells = await row.locator('td').evaluateAll((tds) => tds.map((td) => {
          const box = (td.querySelector('[data-truncated]') ?? td) as HTMLElement;
          return { text: box.textContent ?? '', title: box.getAttribute('title'), height: box.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(box).lineHeight), fits: box.scrollWidth <= box.clientWidth };
        }));
        const [emailCell, nameCell, , activeCell, createdCell] = cells;
        // The name shows one line cut with an ellipsis, its whole text in the DOM (read by screen readers) and in its title.
        expect(nameCell).toMatchObject({ text: name, title: name, fits: false });
        expect(await row.getByRole('cell', { name }).count()).toBe(1);
        for (const cell of [emailCell, nameCell, createdCell]) expect(cell.height, cell.text).toBeLessThanOrEqual(cell.lineHeight * 1.5);
        expect(emailCell).toMatchObject({ text: email, fits: true });
        expect(activeCell).toMatchObject({ text: say(locale, 'Yes', 'Sí'), fits: true });
        expect(createdCell.fits, createdCell.text).toBe(true);
        expect(await page.evaluate(() => document.querySelector('main')!.scrollWidth - document.querySelector('main')!.clientWidth)).toBeLessThanOrEqual(0);
        expect(await axeViolations(page)).toEqual([]);

        // The roles list: a 250-character role name stays one line, its context and assignment count whole.
        const role = await c.h.request({ method: 'POST', url: '/api/admin/roles', payload: { key: `wide_${locale}`, name, context: 'account', permissions: [] } });
        expect(role.statusCode, role.body).toBe(201);
        await go(`/roles?q=wide_${locale}`);
        const roleRow = page.locator('main tbody tr', { has: page.getByRole('link', { name: `wide_${locale}` }) });
        await roleRow.waitFor();
        const roleCells = await roleRow.locator('td').evaluateAll((tds) => tds.map((td) => {
          const box = (td.querySelector('[data-truncated]') ?? td) as HTMLElement;
          return { text: box.textContent ?? '', title: box.getAttribute('title'), height: box.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(box).lineHeight), fits: box.scrollWidth <= box.clientWidth };
        }));
        expect(roleCells[1]).toMatchObject({ text: name, title: name, fits: false });
        expect(roleCells[1]!.height).toBeLessThanOrEqual(roleCells[1]!.lineHeight * 1.5);
        expect(roleCells[2]).toMatchObject({ text: say(locale, 'Account', 'Cuenta'), fits: true });
        expect(roleCells[3]).toMatchObject({ text: '0', fits: true });
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 30_000);

    it(`creates, edits and deletes a role; the owner role is read-only (${locale}, ${scheme})`, async () => {
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await go('/sign-in');
        await signIn();
        await go('/roles?sort_by=key&sort_order=asc');
        await page.getByRole('link', { name: 'account_owner' }).click();
        await page.getByRole('heading', { level: 1 }).waitFor();
        expect(await page.getByRole('button', { name: say(locale, 'Delete', 'Eliminar') }).count()).toBe(0);
        expect(await page.locator('main form').count()).toBe(0);

        await page.getByRole('navigation').getByRole('link', { name: 'Roles' }).click();
        await page.getByRole('button', { name: say(locale, 'New role', 'Nuevo rol') }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('textbox', { name: say(locale, 'Name', 'Nombre') }).fill(`Auditor ${locale}`);
        await dialog.getByRole('combobox', { name: say(locale, 'Permissions', 'Permisos') }).click();
        await page.getByRole('option', { name: /^audit\.read — Read the audit log/ }).click();
        await page.keyboard.press('Escape');
        expect(await axeViolations(page)).toEqual([]);
        await dialog.locator('button[type=submit]').click();
        await page.waitForURL(/\/admin\/roles\/\d+$/);
        await page.getByRole('heading', { level: 1, name: `Auditor ${locale}` }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        const id = /roles\/(\d+)$/.exec(page.url())![1];
        expect((await c.h.request({ url: `/api/admin/roles/${id}` })).json().permissions).toEqual(['audit.read']);

        await page.locator('main form').getByRole('textbox', { name: say(locale, 'Name', 'Nombre') }).fill('Renamed role');
        await page.locator('main form button[type=submit]').click();
        await page.getByRole('heading', { level: 1, name: 'Renamed role' }).waitFor();

        await page.getByRole('button', { name: say(locale, 'Delete', 'Eliminar') }).first().click();
        await page.getByRole('dialog').getByRole('button', { name: say(locale, 'Delete', 'Eliminar') }).click();
        await page.waitForURL(/\/admin\/roles$/);
        await page.getByRole('link', { name: 'account_owner' }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        expect((await c.h.request({ url: `/api/admin/roles/${id}` })).statusCode).toBe(404);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }

  it('hides create, edit and delete from a member with a read-only role', async () => {
    const reader = await createMember(c.h, [{ key: 'account_user' }]);
    const { page, problems, signIn, go, close } = await c.open();
    try {
      await go('/sign-in');
      await signIn(reader.email, reader.password);
      await go('/account');
      await page.getByLabel('Account name').waitFor();
      expect(await page.locator('main button[type=submit]').count()).toBe(0);
      await go('/members');
      await page.getByRole('link', { name: reader.email }).click();
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
      expect(await page.locator('main form').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'New access token' }).count()).toBe(0);
      await go('/members');
      await page.getByRole('link', { name: reader.email }).waitFor();
      expect(await page.getByRole('button', { name: 'New member' }).count()).toBe(0);
      await go('/roles');
      await page.getByRole('link', { name: 'account_owner' }).waitFor();
      expect(await page.getByRole('button', { name: 'New role' }).count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 30_000);
});
