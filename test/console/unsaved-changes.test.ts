import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { adminSessions } from '../../src/tables/admin-auth.js';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness, type Locale } from '../helpers/console.js';

/** The kept drafts of the tab (session storage), by key. */
const keptDrafts = (page: Page) => page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('atrium.draft:')));

// Issue 29 item 9: unsaved changes asked about, kept across a re-sign-in, and lists offline; browser tests run on the embedded database only.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: unsaved changes and the offline state', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  const api = (method: 'GET' | 'POST', url: string, payload?: unknown) => c.h.request({ method, url: `/api/admin${url}`, ...(payload ? { payload } : {}) });
  // Submitted by keyboard (a notification of the previous save may lie over the button), once the previous save is over.
  const submit = (page: Page) => page.locator('main form button[type=submit]:not([data-loading])').first().press('Enter');
  /** Ends every console session on the server, as an expiry would. */
  const endSessions = () => c.h.ctx.db.delete(adminSessions);

  for (const { locale, scheme } of VARIANTS) {
    const L = (en: string, es: string) => (locale === ('en' satisfies Locale) ? en : es);

    it(`asks before leaving an edited form, keeps the edit across a re-sign-in, and offers a retry offline (${locale}, ${scheme})`, async () => {
      const uid = `guard-${locale}`;
      expect((await api('POST', '/realms', { uid, name: `Guarded ${locale}` })).statusCode).toBe(201);
      const segment = await api('POST', '/segments', { realm_uid: uid, name: 'Everyone', filters: { all: [] } });
      expect(segment.statusCode).toBe(201);
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      const leaveDialog = page.getByRole('dialog', { name: L('Leave without saving?', '¿Salir sin guardar?') });
      const realmTab = (name: string) => page.getByRole('navigation', { name: L('Realm sections', 'Secciones del reino') }).getByRole('link', { name, exact: true }).click();
      const pageTitle = page.getByLabel(L('Page title', 'Título de página'));
      const keptBanner = page.getByText(L('Unsaved changes were kept', 'Se conservaron cambios sin guardar'));
      try {
        await signIn();

        // Realm settings: leaving with an edit asks; Stay keeps the edit, Leave discards it.
        await go(`/realms/${uid}/settings`);
        await pageTitle.fill('Edited, not saved');
        await realmTab(L('Custom fields', 'Campos personalizados'));
        await leaveDialog.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await leaveDialog.getByRole('button', { name: L('Stay', 'Quedarse') }).click();
        await leaveDialog.waitFor({ state: 'hidden' });
        expect(new URL(page.url()).pathname).toBe(`/admin/realms/${uid}/settings`);
        expect(await pageTitle.inputValue()).toBe('Edited, not saved');
        await realmTab(L('Custom fields', 'Campos personalizados'));
        await leaveDialog.getByRole('button', { name: L('Leave', 'Salir') }).click();
        await page.waitForURL((url) => url.pathname === `/admin/realms/${uid}/fields`);
        await page.getByRole('button', { name: L('New field', 'Nuevo campo') }).waitFor();
        await realmTab(L('Sign-in settings', 'Ajustes de acceso'));
        expect(await pageTitle.inputValue()).toBe('');
        expect((await api('GET', `/realms/${uid}`)).json().settings.branding.page_title).toBeNull();

        // A segment: unchanged, it is left without a question; edited, the same dialog.
        // Required: the label ends with an asterisk.
        const segmentName = page.getByLabel(new RegExp(`^${L('Name', 'Nombre')}`));
        const toRealms = () => page.getByRole('navigation', { name: L('Main navigation', 'Navegación principal') }).getByRole('link', { name: L('Realms', 'Reinos'), exact: true }).click();
        await go(`/segments/${segment.json().id}`);
        await segmentName.waitFor();
        await toRealms();
        await page.waitForURL((url) => url.pathname === '/admin/realms');
        await go(`/segments/${segment.json().id}`);
        await segmentName.fill('Everyone, renamed');
        await toRealms();
        await leaveDialog.getByRole('button', { name: L('Stay', 'Quedarse') }).click();
        await leaveDialog.waitFor({ state: 'hidden' });
        expect(await segmentName.inputValue()).toBe('Everyone, renamed');
        await toRealms();
        await leaveDialog.getByRole('button', { name: L('Leave', 'Salir') }).click();
        await page.waitForURL((url) => url.pathname === '/admin/realms');

        // A campaign the same: Leave discards the edited name.
        const campaign = await api('POST', '/messaging/campaigns', { realm_uid: uid, name: 'Autumn', type: 'mailing', subject: 'Hi', body: '<p>Hello</p>' });
        expect(campaign.statusCode).toBe(201);
        const campaignName = page.getByLabel(new RegExp(`^${L('Campaign name', 'Nombre de la campaña')}`));
        await go(`/campaigns/${campaign.json().id}`);
        await campaignName.fill('Autumn, renamed');
        await toRealms();
        await leaveDialog.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await leaveDialog.getByRole('button', { name: L('Leave', 'Salir') }).click();
        await page.waitForURL((url) => url.pathname === '/admin/realms');
        expect((await api('GET', `/messaging/campaigns/${campaign.json().id}`)).json().name).toBe('Autumn');

        // The session ends while the settings are edited: saving goes to sign-in, and back on the screen Restore brings the edit back.
        await go(`/realms/${uid}/settings`);
        await pageTitle.fill('Kept across a sign-in');
        await endSessions();
        await submit(page);
        await page.waitForURL((url) => url.pathname === '/admin/sign-in');
        await signIn();
        expect(new URL(page.url()).pathname).toBe(`/admin/realms/${uid}/settings`);
        await keptBanner.waitFor();
        expect(await pageTitle.inputValue()).toBe('');
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('button', { name: L('Restore', 'Restaurar') }).click();
        await keptBanner.waitFor({ state: 'hidden' });
        expect(await pageTitle.inputValue()).toBe('Kept across a sign-in');
        expect(await keptDrafts(page)).toEqual([]);
        await submit(page);
        await expect.poll(async () => (await api('GET', `/realms/${uid}`)).json().settings.branding.page_title).toBe('Kept across a sign-in');

        // Kept again, then signing out forgets it: after the next sign-in the screen offers nothing.
        await pageTitle.fill('Forgotten at sign-out');
        await endSessions();
        await submit(page);
        await page.waitForURL((url) => url.pathname === '/admin/sign-in');
        expect(await keptDrafts(page)).toHaveLength(1);
        await signIn();
        await keptBanner.waitFor();
        await page.getByRole('button', { name: L('Sign out', 'Cerrar sesión') }).click();
        await page.waitForURL((url) => url.pathname === '/admin/sign-in');
        expect(await keptDrafts(page)).toEqual([]);
        await signIn();
        await go(`/realms/${uid}/settings`);
        await pageTitle.waitFor();
        expect(await pageTitle.inputValue()).toBe('Kept across a sign-in');
        expect(await keptBanner.count()).toBe(0);

        // Offline: the list says so instead of showing an empty table, and Retry shows the rows once the server answers.
        const realmsList = (url: URL) => url.pathname === '/api/admin/realms';
        await page.route(realmsList, (route) => route.abort('internetdisconnected'));
        await go('/realms');
        const offline = page.getByRole('alert').filter({ hasText: L('You are offline, or the server cannot be reached', 'Estás sin conexión, o no se puede contactar con el servidor') });
        await offline.waitFor();
        expect(await page.getByRole('table').count()).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
        await page.unroute(realmsList);
        await offline.getByRole('button', { name: L('Retry', 'Reintentar') }).click();
        await page.getByRole('row').filter({ hasText: `Guarded ${locale}` }).waitFor();
        expect(await offline.count()).toBe(0);
        expect(problems).toEqual([]);

        // Closing the tab with an edit: the browser asks first.
        await go(`/realms/${uid}/settings`);
        await pageTitle.fill('Edited before closing');
        let asked: string | null = null;
        page.once('dialog', (question) => { asked = question.type(); void question.accept(); });
        await page.close({ runBeforeUnload: true });
        await page.waitForEvent('close');
        expect(asked).toBe('beforeunload');
      } finally {
        await close();
      }
    }, 120_000);

    it(`keeps a dialog's draft without its password across a re-sign-in (${locale}, ${scheme})`, async () => {
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      const dialog = page.getByRole('dialog', { name: L('New member', 'Nuevo miembro') });
      const email = dialog.getByLabel(new RegExp(`^${L('Email', 'Correo electrónico')}`));
      const password = dialog.getByLabel(new RegExp(`^${L('Password', 'Contraseña')}`));
      const newMember = () => page.getByRole('button', { name: L('New member', 'Nuevo miembro') }).click();
      try {
        await signIn();
        await go('/members');
        await newMember();
        await email.fill(`kept-${locale}@atrium.test`);
        await password.fill('never in storage 42');
        await endSessions();
        await dialog.locator('button[type=submit]').press('Enter');
        await page.waitForURL((url) => url.pathname === '/admin/sign-in');
        const stored = await page.evaluate(() => Object.entries(sessionStorage).filter(([key]) => key.startsWith('atrium.draft:')).map(([, value]) => value).join());
        expect(stored).toContain(`kept-${locale}@atrium.test`);
        expect(stored).not.toContain('never in storage');

        await signIn();
        await newMember();
        await dialog.getByText(L('Unsaved changes were kept', 'Se conservaron cambios sin guardar')).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await dialog.getByRole('button', { name: L('Restore', 'Restaurar') }).click();
        expect(await email.inputValue()).toBe(`kept-${locale}@atrium.test`);
        expect(await password.inputValue()).toBe('');
        // Cancelling the dialog drops the edit without a question.
        await dialog.getByRole('button', { name: L('Cancel', 'Cancelar') }).click();
        await dialog.waitFor({ state: 'hidden' });
        expect(await page.getByRole('dialog').count()).toBe(0);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }
});
