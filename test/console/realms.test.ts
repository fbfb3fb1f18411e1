import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness, type Locale } from '../helpers/console.js';
import { CLIENT_ID, CLIENT_SECRET, startProvider, type TestProvider } from '../delegation/provider.js';

const XSS_NAME = '<script>window.__xss=1</script> مرحبا 🌍';
const XSS_FIELD = '<script>window.__xss=2</script>';

/** Main never scrolls sideways: long names, emoji and right-to-left text wrap. */
async function overflowOfMain(page: Page): Promise<number> {
  return page.evaluate(() => { const main = document.querySelector('main')!; return main.scrollWidth - main.clientWidth; });
}

// The realm screens of the console (issue 15, items 3, 7 and 9); browser tests run on the embedded database only.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: a realm and its users', () => {
  let c: ConsoleHarness;
  let idp: TestProvider;
  beforeAll(async () => { c = await startConsole({ OUTBOUND_ALLOW_PRIVATE: '1' }); idp = await startProvider(['http://127.0.0.1/unused']); }, 90_000);
  afterAll(async () => { await idp?.close(); await c?.close(); });

  const api = (method: 'GET' | 'POST', url: string, payload?: unknown) => c.h.request({ method, url: `/api/admin${url}`, ...(payload ? { payload } : {}) });
  // Submitted by keyboard (a notification of the previous save may lie over the button), once the previous save is over.
  const submit = (scope: Page | Locator, form = 'form') => scope.locator(`${form} button[type=submit]:not([data-loading])`).first().press('Enter');

  for (const { locale, scheme } of VARIANTS) {
    const L = (en: string, es: string) => (locale === ('en' satisfies Locale) ? en : es);

    it(`creates, edits and deletes on every realm screen, impersonates a user, with no accessibility violation (${locale}, ${scheme})`, async () => {
      const uid = `bank-${locale}`;
      expect((await api('POST', '/realms', { uid, name: 'Banca مرحبا 🌍' })).statusCode).toBe(201);
      expect((await api('POST', `/customers/${uid}/custom_fields`, { key: 'note', name: 'Note', type: 'text' })).statusCode).toBe(201);
      expect((await api('POST', `/customers/${uid}/custom_fields`, { key: 'plan', name: 'Plan', type: 'dropdown', options: ['silver', 'gold'] })).statusCode).toBe(201);
      const { page, context, problems, signIn, go, close } = await c.open({ locale, scheme });
      const tab = (name: string) => page.getByRole('navigation', { name: L('Realm sections', 'Secciones del reino') }).getByRole('link', { name, exact: true }).click();
      const dialog = page.getByRole('dialog');
      const confirmDeleteDialog = async () => {
        await dialog.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await dialog.getByRole('button', { name: L('Delete', 'Eliminar') }).click();
      };
      try {
        await signIn();

        // Sign-in settings.
        await go(`/realms/${uid}/settings`);
        await page.getByLabel(L('Session lifetime (minutes)', 'Duración de la sesión (minutos)')).fill('240');
        await page.getByLabel(L('Page title', 'Título de página')).fill('Banca');
        expect(await axeViolations(page)).toEqual([]);
        await submit(page, 'main form');
        await expect.poll(async () => (await api('GET', `/realms/${uid}`)).json().settings).toMatchObject({ session_lifetime_minutes: 240, branding: { page_title: 'Banca' } });
        await page.getByLabel(L('Page title', 'Título de página')).fill('');
        await submit(page, 'main form');
        await expect.poll(async () => (await api('GET', `/realms/${uid}`)).json().settings.branding.page_title).toBeNull();
        // Below them, the addresses an app or an identity provider is configured with, each with a copy button.
        await page.getByText(`${c.base}/realms/${uid}/login`, { exact: true }).waitFor();
        await page.getByText(`${c.base}/.well-known/oauth-authorization-server/realms/${uid}`, { exact: true }).waitFor();
        await page.getByText(`${c.base}/realms/${uid}/delegated_login/callback`, { exact: true }).waitFor();
        await page.getByRole('button', { name: L('Copy: Sign-in page', 'Copiar: Página de acceso') }).waitFor();
        expect(await axeViolations(page)).toEqual([]);

        // Custom fields.
        await tab(L('Custom fields', 'Campos personalizados'));
        await page.getByRole('button', { name: L('New field', 'Nuevo campo') }).click();
        await dialog.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        // A 422 lands on its field: the key is taken.
        await dialog.getByLabel(L('Key', 'Clave')).fill('note');
        await dialog.getByLabel(L('Name', 'Nombre')).fill('Tier');
        await submit(dialog);
        await dialog.locator('input[aria-invalid=true][data-path=key]').waitFor();
        await dialog.getByLabel(L('Key', 'Clave')).fill('tier');
        await submit(dialog);
        const tierRow = page.getByRole('row').filter({ hasText: 'tier' });
        await tierRow.getByRole('button', { name: L('Edit', 'Editar') }).click();
        await dialog.getByLabel(L('Name', 'Nombre')).fill('Tier level');
        await submit(dialog);
        const fields = async () => (await api('GET', `/customers/${uid}/custom_fields`)).json().custom_fields.map((field: { name: string }) => field.name);
        await expect.poll(fields).toEqual(['Note', 'Plan', 'Tier level']);
        await tierRow.getByRole('button', { name: L('Delete', 'Eliminar') }).click();
        await confirmDeleteDialog();
        await expect.poll(fields).toEqual(['Note', 'Plan']);

        // OAuth clients: the secret is shown once, in the answer that created the client.
        await tab(L('OAuth clients', 'Clientes OAuth'));
        await page.getByRole('button', { name: L('New OAuth client', 'Nuevo cliente OAuth') }).click();
        await dialog.getByLabel(L('Name', 'Nombre')).fill('Mobile app');
        await dialog.getByLabel(/Redirect URIs|URI de redirección/).fill('https://app.example.com/callback');
        await submit(dialog);
        const secret = await dialog.locator('[data-secret]').textContent();
        expect(secret!.length).toBeGreaterThan(20);
        expect(await axeViolations(page)).toEqual([]);
        await dialog.getByRole('button', { name: L('Close', 'Cerrar'), exact: true }).last().click();
        const clientRow = page.getByRole('row').filter({ hasText: 'Mobile app' });
        await clientRow.getByRole('button', { name: L('Edit', 'Editar') }).click();
        expect(await dialog.locator('[data-secret]').count()).toBe(0);
        await dialog.getByLabel(L('Name', 'Nombre')).fill('Mobile');
        await submit(dialog);
        const clients = async () => (await api('GET', `/customers/${uid}/oauth_clients`)).json().oauth_clients;
        await expect.poll(async () => (await clients()).map((client: { name: string }) => client.name)).toEqual(['Mobile']);
        expect(JSON.stringify(await clients())).not.toContain(secret);
        // A new secret, after a confirmation that says the current one stops working: shown once.
        await page.getByRole('row').filter({ hasText: 'Mobile' }).getByRole('button', { name: L('Edit', 'Editar') }).click();
        const regenerate = L('Regenerate the secret', 'Regenerar el secreto');
        await page.getByRole('dialog', { name: L('Edit OAuth client', 'Editar cliente OAuth') }).getByRole('button', { name: regenerate }).click();
        const confirmation = page.getByRole('dialog', { name: regenerate });
        await confirmation.getByText(L('stops working at once', 'deja de funcionar al instante'), { exact: false }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await confirmation.getByRole('button', { name: regenerate }).click();
        const shown = page.getByRole('dialog', { name: L('Edit OAuth client', 'Editar cliente OAuth') }).locator('[data-secret]');
        await shown.waitFor();
        const regenerated = await shown.textContent();
        expect(regenerated!.length).toBeGreaterThan(20);
        expect(regenerated).not.toBe(secret);
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('dialog', { name: L('Edit OAuth client', 'Editar cliente OAuth') }).getByRole('button', { name: L('Close', 'Cerrar'), exact: true }).last().click();
        expect(JSON.stringify(await clients())).not.toContain(regenerated);
        await page.getByRole('row').filter({ hasText: 'Mobile' }).getByRole('button', { name: L('Delete', 'Eliminar') }).click();
        await confirmDeleteDialog();
        await expect.poll(async () => (await clients()).length).toBe(0);

        // Identity provider (OpenID discovery against a provider on loopback).
        await tab(L('Identity provider', 'Proveedor de identidad'));
        await page.getByLabel(L('Issuer', 'Emisor')).fill(idp.issuer);
        await page.getByLabel(L('Client ID', 'ID de cliente')).fill(CLIENT_ID);
        await page.getByLabel(L('Client secret', 'Secreto de cliente')).fill(CLIENT_SECRET);
        await page.getByLabel(L('Button label', 'Texto del botón')).fill('Example');
        expect(await axeViolations(page)).toEqual([]);
        await submit(page, 'main form');
        const provider = () => api('GET', `/customers/${uid}/identity_provider`);
        await expect.poll(async () => (await provider()).statusCode).toBe(200);
        await page.getByLabel(L('Client secret (leave empty to keep the stored one)', 'Secreto de cliente (vacío para conservar el guardado)')).waitFor();
        await page.getByLabel(L('Button label', 'Texto del botón')).fill('Example ID');
        await submit(page, 'main form');
        await expect.poll(async () => (await provider()).json().button_label).toBe('Example ID');
        await page.getByRole('button', { name: L('Delete', 'Eliminar') }).nth(1).click();
        await confirmDeleteDialog();
        await expect.poll(async () => (await provider()).statusCode).toBe(404);

        // Integrations: Zendesk single sign-on (the shared secret is never shown back).
        await tab(L('Integrations', 'Integraciones'));
        await page.getByLabel(L('Subdomain', 'Subdominio')).fill('bank');
        await page.getByLabel(L('Key ID', 'ID de clave')).fill('key-1');
        await page.getByLabel(L('Shared secret', 'Secreto compartido')).fill('a shared secret of the help desk');
        expect(await axeViolations(page)).toEqual([]);
        await submit(page, 'main form');
        const zendesk = () => api('GET', `/customers/${uid}/integrations/zendesk`);
        await expect.poll(async () => (await zendesk()).statusCode).toBe(200);
        // The form comes back for the stored integration: the secret may now be left empty.
        await page.getByLabel(L('Shared secret (leave empty to keep the stored one)', 'Secreto compartido (vacío para conservar el guardado)')).waitFor();
        await page.getByLabel(L('Subdomain', 'Subdominio')).fill('bank-help');
        await submit(page, 'main form');
        await expect.poll(async () => (await zendesk()).json().subdomain).toBe('bank-help');
        await page.getByRole('button', { name: L('Delete', 'Eliminar') }).nth(1).click();
        await confirmDeleteDialog();
        await expect.poll(async () => (await zendesk()).statusCode).toBe(404);

        // Users: create with a custom field value, edit, impersonate, events, delete.
        await tab(L('Users', 'Usuarios'));
        await page.getByRole('button', { name: L('New user', 'Nuevo usuario') }).click();
        await dialog.waitFor();
        await dialog.getByLabel('Note').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await dialog.getByLabel(L('Email', 'Correo electrónico')).fill(`ada-${locale}@example.com`);
        await dialog.getByLabel(L('First name', 'Nombre'), { exact: true }).fill(XSS_NAME);
        await dialog.getByLabel(L('Password', 'Contraseña'), { exact: true }).fill('a long secret 1');
        await dialog.getByLabel('Note').fill(XSS_FIELD);
        await dialog.getByLabel('Plan').click();
        await page.getByRole('option', { name: 'gold' }).click();
        await submit(dialog);
        await page.waitForURL(/\/users\/\d+$/);
        const userId = Number(/\/users\/(\d+)$/.exec(page.url())![1]);
        await page.getByRole('heading', { level: 2, name: /<script>window.__xss=1/ }).waitFor();
        expect(await page.getByLabel('Note').inputValue()).toBe(XSS_FIELD);
        expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
        expect(await overflowOfMain(page)).toBeLessThanOrEqual(0);
        expect(await axeViolations(page)).toEqual([]);

        await page.getByLabel(L('Last name', 'Primer apellido'), { exact: true }).fill('Lovelace');
        await submit(page, 'main form');
        const user = () => api('GET', `/customers/${uid}/users/${userId}`);
        await expect.poll(async () => (await user()).json().last_name).toBe('Lovelace');
        expect((await user()).json().custom_fields).toEqual([{ key: 'note', value: XSS_FIELD }, { key: 'plan', value: 'gold' }]);

        await page.getByLabel(L('Subject', 'Asunto')).fill('Welcome');
        await submit(page, `main form[aria-label="${L('Send a notification', 'Enviar una notificación')}"]`);
        await page.getByRole('alert').getByText(L('Sent', 'Enviada'), { exact: true }).waitFor();
        // The user's inbox, as the user sees it, below: the new notification, unread.
        await page.getByRole('row').filter({ hasText: 'Welcome' }).getByText(L('Unread', 'Sin leer')).waitFor();
        await page.getByText(L('1 unread', '1 sin leer')).waitFor();

        await page.getByText(L('No active session', 'Ninguna sesión activa')).waitFor();
        await page.getByRole('button', { name: L('Revoke all sessions', 'Revocar todas las sesiones') }).click();
        await page.getByText(L('Every session of this user was revoked', 'Se revocaron todas las sesiones de este usuario')).waitFor();

        // Impersonation: a confirmation saying it is recorded, then the one-time URL in a new tab, signed in as the user.
        await page.getByRole('button', { name: L('Impersonate', 'Suplantar') }).click();
        await dialog.getByText(L('The impersonation is recorded', 'La suplantación queda registrada'), { exact: false }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        const opened: string[] = [];
        context.on('request', (request) => { if (request.url().includes('/session/access/')) opened.push(request.url()); });
        const [link, tabPage] = await Promise.all([
          page.waitForResponse((response) => response.url().endsWith(`/users/${userId}/impersonate`)),
          context.waitForEvent('page'),
          dialog.getByRole('button', { name: L('Open a session as this user', 'Abrir una sesión como este usuario') }).click(),
        ]);
        const { url } = await link.json() as { url: string };
        await tabPage.waitForURL(new RegExp(`/realms/${uid}/profile$`));
        expect(opened).toEqual([url]);
        await tabPage.getByText(`ada-${locale}@example.com`).first().waitFor();
        await tabPage.close();

        // The impersonation's session is listed with its browser, and ending it signs that browser out.
        await page.reload();
        const sessionRow = page.getByRole('row').filter({ hasText: 'Chrome' });
        await sessionRow.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        expect((await api('GET', `/customers/${uid}/users/${userId}/sessions`)).json().sessions).toHaveLength(1);
        await sessionRow.getByRole('button', { name: L('End', 'Cerrar') }).click();
        await page.getByText(L('The session was ended', 'Se cerró la sesión')).waitFor();
        await expect.poll(async () => (await api('GET', `/customers/${uid}/users/${userId}/sessions`)).json().sessions).toEqual([]);

        await tab(L('Events', 'Eventos'));
        await page.getByLabel(L('Event type', 'Tipo de evento')).fill('user_login_log');
        await page.waitForURL(/type=user_login_log/);
        await page.getByRole('row').filter({ hasText: L('Impersonated', 'Suplantado') }).waitFor();
        expect(await axeViolations(page)).toEqual([]);

        // Filters come from the URL too; event properties render as text.
        expect((await api('POST', `/customers/${uid}/users/${userId}/events`, { type: 'support_call', properties: { note: '<script>window.__xss=3</script>' } })).statusCode).toBe(201);
        await go(`/realms/${uid}/events?user_id=${userId}`);
        await page.getByRole('row').filter({ hasText: 'support_call' }).getByText('<script>window.__xss=3</script>', { exact: false }).waitFor();
        expect(await page.getByRole('row').filter({ hasText: 'user_login_log' }).count()).toBe(1);
        // A built-in event type reads in words, above its key.
        expect(await page.getByRole('row').filter({ hasText: 'user_login_log' }).getByText(L('Signed in', 'Inició sesión'), { exact: true }).count()).toBe(1);
        expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();

        await go(`/realms/${uid}/users/${userId}`);
        await page.getByRole('button', { name: L('Delete user', 'Eliminar usuario') }).click();
        await confirmDeleteDialog();
        await page.waitForURL(/\/users$/);
        await expect.poll(async () => (await user()).statusCode).toBe(404);
        // A stale link to the deleted user shows the not-found page.
        await go(`/realms/${uid}/users/${userId}`);
        await page.getByRole('heading', { level: 1, name: L('Not found', 'No encontrado') }).waitFor();
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);

    it(`cuts a 250-character name or subject to one line with its whole text kept, never squeezing the email, Yes or the date (${locale}, ${scheme})`, async () => {
      const uid = `wide-${locale}`;
      const realm = await api('POST', '/realms', { uid, name: 'Banco Nacional de Desarrollo مرحبا 🌍 '.repeat(10).slice(0, 250) });
      expect(realm.statusCode, realm.body).toBe(201);
      const realmName: string = realm.json().name;
      expect(realmName.length).toBeGreaterThanOrEqual(249);
      const firstName = 'Guadalupe María de los Ángeles '.repeat(10).slice(0, 250);
      const created = await api('POST', `/customers/${uid}/users`, { email: `lupe-${locale}@example.com`, first_name: firstName, last_name: 'Ortiz', password: 'a long secret 1' });
      expect(created.statusCode, created.body).toBe(201);
      const userName: string = created.json().name;
      expect(userName.length).toBeGreaterThan(250);
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      /** The row's cells as the reader sees them: one line box each, whether their text fits, their title and whole text. */
      const cellsOf = (row: Locator) => row.locator('td').evaluateAll((cells) => cells.map((cell) => {
        const box = (cell.querySelector('[data-truncated]') ?? cell) as HTMLElement;
        const badge = cell.querySelector<HTMLElement>('.mantine-Badge-label');
        const fits = badge ?? box;
        return {
          text: box.textContent ?? '',
          title: box.getAttribute('title'),
          height: box.getBoundingClientRect().height,
          lineHeight: parseFloat(getComputedStyle(box).lineHeight),
          fits: fits.scrollWidth <= fits.clientWidth,
        };
      }));
      try {
        await signIn();

        // The realms list: the name shows one line, cut, its whole text in the DOM and in its title; Yes and the date show whole.
        await go(`/realms?q=${uid}`);
        const realmRow = page.locator('main tbody tr', { has: page.getByRole('link', { name: uid, exact: true }) });
        await realmRow.waitFor();
        expect(await page.locator('main tbody tr').count()).toBe(1);
        const [uidCell, nameCell, activeCell, updatedCell] = await cellsOf(realmRow);
        expect(nameCell).toMatchObject({ text: realmName, title: realmName, fits: false });
        expect(await realmRow.getByRole('cell', { name: realmName }).count()).toBe(1);
        for (const cell of [uidCell, nameCell, updatedCell]) expect(cell.height, cell.text).toBeLessThanOrEqual(cell.lineHeight * 1.5);
        expect(uidCell).toMatchObject({ text: uid, fits: true });
        expect(activeCell).toMatchObject({ text: L('Yes', 'Sí'), fits: true });
        expect(updatedCell.fits, updatedCell.text).toBe(true);
        expect(await overflowOfMain(page)).toBeLessThanOrEqual(0);
        expect(await axeViolations(page)).toEqual([]);

        // The realm's users: the email keeps one line and shows whole beside a 250-character first name.
        await go(`/realms/${uid}/users`);
        const userRow = page.locator('main tbody tr', { has: page.getByRole('link', { name: `lupe-${locale}@example.com` }) });
        await userRow.waitFor();
        const [emailCell, userNameCell, userStatusCell, createdCell] = await cellsOf(userRow);
        expect(userNameCell).toMatchObject({ text: userName, title: userName, fits: false });
        expect(await userRow.getByRole('cell', { name: userName }).count()).toBe(1);
        expect(emailCell).toMatchObject({ text: `lupe-${locale}@example.com`, title: `lupe-${locale}@example.com`, fits: true });
        expect(emailCell.height).toBeLessThanOrEqual(emailCell.lineHeight * 1.5);
        for (const cell of [userNameCell, createdCell]) expect(cell.height, cell.text).toBeLessThanOrEqual(cell.lineHeight * 1.5);
        expect(userStatusCell).toMatchObject({ text: L('Active', 'Activo'), fits: true });
        expect(createdCell.fits, createdCell.text).toBe(true);
        expect(await overflowOfMain(page)).toBeLessThanOrEqual(0);
        expect(await axeViolations(page)).toEqual([]);

        // Custom fields and OAuth clients: a 250-character name stays one line; Yes, the type and both row buttons show whole.
        const field = await api('POST', `/customers/${uid}/custom_fields`, { key: 'tier', name: realmName, type: 'text', required: true });
        expect(field.statusCode, field.body).toBe(201);
        const client = await api('POST', `/customers/${uid}/oauth_clients`, { name: realmName, redirect_uris: ['https://app.example.com/callback'] });
        expect(client.statusCode, client.body).toBe(201);
        for (const [path, yes] of [[`/realms/${uid}/fields`, 3], [`/realms/${uid}/clients`, 2]] as const) {
          await go(path);
          const row = page.locator('main tbody tr').filter({ hasText: realmName.slice(0, 40) });
          await row.getByRole('button', { name: L('Delete', 'Eliminar') }).waitFor();
          const cells = await cellsOf(row);
          const named = cells.find((cell) => cell.title === realmName);
          expect(named, path).toMatchObject({ text: realmName, fits: false });
          expect(named!.height, path).toBeLessThanOrEqual(named!.lineHeight * 1.5);
          expect([L('Yes', 'Sí'), 'No'], path).toContain(cells[yes]!.text);
          expect(cells.every((cell) => cell.fits || cell === named), path).toBe(true);
          const buttons = await row.getByRole('button').evaluateAll((all) => all.map((button) => { const box = button.getBoundingClientRect(); const cell = button.closest('td')!.getBoundingClientRect(); return box.right <= cell.right + 0.5 && box.left >= cell.left - 0.5; }));
          expect(buttons, path).toEqual([true, true]);
          expect(await overflowOfMain(page), path).toBeLessThanOrEqual(0);
          expect(await axeViolations(page), path).toEqual([]);
        }

        // The user's notifications: a 250-character subject stays one line, cut; the sent date and the unread badge show whole.
        const subject = 'Su solicitud de crédito hipotecario fue aprobada 🌍 '.repeat(10).slice(0, 250);
        const sent = await api('POST', `/customers/${uid}/users/${created.json().id}/notifications`, { subject, body: 'Aprobada' });
        expect(sent.statusCode, sent.body).toBe(201);
        await go(`/realms/${uid}/users/${created.json().id}`);
        const notificationRow = page.locator('main tbody tr').filter({ hasText: subject.slice(0, 40) });
        await notificationRow.waitFor();
        const [sentCell, subjectCell, , openedCell] = await cellsOf(notificationRow);
        expect(subjectCell).toMatchObject({ text: subject, title: subject, fits: false });
        for (const cell of [sentCell, subjectCell]) expect(cell.height, cell.text).toBeLessThanOrEqual(cell.lineHeight * 1.5);
        expect(sentCell.fits && openedCell.fits).toBe(true);
        expect(await overflowOfMain(page)).toBeLessThanOrEqual(0);
        expect(await axeViolations(page)).toEqual([]);

        // On a phone the table scrolls sideways inside its container, and still nothing is squeezed.
        await go(`/realms/${uid}/users`);
        await userRow.waitFor();
        await page.setViewportSize({ width: 390, height: 800 });
        await expect.poll(() => overflowOfMain(page)).toBeLessThanOrEqual(0);
        const [narrowEmail, , narrowActive, narrowCreated] = await cellsOf(userRow);
        expect(narrowEmail.height).toBeLessThanOrEqual(narrowEmail.lineHeight * 1.5);
        expect(narrowActive.fits && narrowCreated.fits).toBe(true);
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }

  it('keeps the layout with a 10 KB name, pages, sorts and searches users on the server, and Ctrl+K finds users of the realm in the URL', async () => {
    const uid = 'long-names';
    const long = `${'مرحبا بالعالم 🌍 '.repeat(400)}${'x'.repeat(3_000)}`;
    expect((await api('POST', '/realms', { uid, name: long.slice(0, 10_000) })).statusCode).toBe(201);
    // A user's names take 255 characters each: unbroken right-to-left text and emoji at that length.
    const name255 = 'مرحبا🌍'.repeat(40).slice(0, 255);
    const created = await api('POST', `/customers/${uid}/users`, { email: 'grace@example.com', first_name: 'Grace', last_name: name255, second_last_name: name255, password: 'a long secret 1' });
    expect(created.statusCode, created.body).toBe(201);
    for (let n = 0; n < 24; n += 1) expect((await api('POST', `/customers/${uid}/users`, { email: `user-${n}@example.com`, first_name: `User ${n}` })).statusCode).toBe(201);
    const { page, problems, signIn, go, close } = await c.open();
    try {
      await signIn();
      for (const path of [`/realms/${uid}`, `/realms/${uid}/users`, `/realms/${uid}/users/${created.json().id}`]) {
        await go(path);
        await page.locator('main h1').first().waitFor();
        await page.locator('main table, main form').first().waitFor();
        expect(await overflowOfMain(page), path).toBeLessThanOrEqual(0);
      }
      // The users list is one server page at a time, sorted and searched on the server, its state in the URL.
      const usersQueries: string[] = [];
      page.on('request', (request) => { if (request.url().includes(`/customers/${uid}/users?`)) usersQueries.push(request.url()); });
      await go(`/realms/${uid}/users`);
      await expect.poll(() => page.locator('main tbody tr').count()).toBe(20);
      expect(usersQueries.every((url) => new URL(url).searchParams.get('per_page') === '20')).toBe(true);
      await page.getByRole('button', { name: 'Email' }).click();
      await page.waitForURL(/sort_by=email&sort_order=asc/);
      await expect.poll(() => page.locator('main tbody tr').first().textContent()).toContain('grace@example.com');
      await page.getByLabel('Search').fill('grace');
      await page.waitForURL(/q=grace/);
      await expect.poll(() => page.locator('main tbody tr').count()).toBe(1);
      await page.locator('main h1').first().click();
      await page.keyboard.press('Control+K');
      await page.getByRole('dialog').getByLabel('Go to…').fill('grace');
      await page.getByRole('button', { name: /grace@example\.com/ }).click();
      await page.waitForURL(new RegExp(`/realms/${uid}/users/${created.json().id}$`));
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 40_000);

  it('hides the writes a realm viewer lacks: no create, edit, delete or impersonation', async () => {
    const uid = 'viewed';
    expect((await api('POST', '/realms', { uid, name: 'Viewed realm' })).statusCode).toBe(201);
    expect((await api('POST', `/customers/${uid}/users`, { email: 'lin@example.com', first_name: 'Lin' })).statusCode).toBe(201);
    const member = await api('POST', '/team_members', { email: 'viewer@example.com', password: 'viewer password 1', roles: [{ key: 'realm_viewer', target: uid }] });
    expect(member.statusCode, member.body).toBe(201);
    const { page, problems, signIn, go, close } = await c.open();
    try {
      await signIn('viewer@example.com', 'viewer password 1');
      await go(`/realms/${uid}/users`);
      await page.getByRole('link', { name: 'lin@example.com' }).click();
      await page.getByRole('heading', { level: 2, name: 'Lin' }).waitFor();
      const sections = page.getByRole('navigation', { name: 'Realm sections' });
      expect(await sections.getByRole('link').allTextContents()).toEqual(['Overview', 'Sign-in settings', 'Custom fields', 'OAuth clients', 'Users', 'Events']);
      for (const name of ['Delete', 'Impersonate', 'Revoke all sessions', 'Save']) expect(await page.getByRole('button', { name }).count(), name).toBe(0);
      await go(`/realms/${uid}/users`);
      await page.getByRole('link', { name: 'lin@example.com' }).waitFor();
      expect(await page.getByRole('button', { name: 'New user' }).count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 30_000);
});
