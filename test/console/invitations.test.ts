import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../helpers/admin.js';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { memberInvitationTokenIn, startSmtp, type SmtpListener } from '../helpers/smtp.js';

const say = (locale: 'en' | 'es', en: string, es: string) => (locale === 'en' ? en : es);

// Issue 29, item 2: a member invited with a role limited to one realm, through the console and a real SMTP listener.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: inviting a team member', () => {
  let c: ConsoleHarness;
  let smtp: SmtpListener;
  beforeAll(async () => {
    smtp = await startSmtp();
    c = await startConsole({ SMTP_URL: smtp.url });
  }, 90_000);
  afterAll(async () => {
    await c?.close();
    await smtp?.close();
  });

  for (const { locale, scheme } of VARIANTS) {
    it(`invites a realm admin limited to one realm, who sets a password, signs in and sees only that realm (${locale}, ${scheme})`, async () => {
      for (const [uid, name] of [[`alpha-${locale}`, `Alpha ${locale}`], [`beta-${locale}`, `Beta ${locale}`]]) {
        expect((await c.h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid, name } })).statusCode).toBe(201);
      }
      const email = `invited-${locale}@example.com`;
      const owner = await c.open({ locale, scheme });
      try {
        const { page } = owner;
        await owner.signIn();
        await page.getByRole('navigation').getByRole('link', { name: say(locale, 'Team members', 'Miembros del equipo') }).click();
        await page.getByRole('button', { name: say(locale, 'Invite member', 'Invitar a un miembro') }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel(say(locale, 'Email', 'Correo electrónico')).fill(email);
        await dialog.getByLabel(say(locale, 'First name', 'Nombre'), { exact: true }).fill('Grace');
        await dialog.getByRole('button', { name: say(locale, 'Add a realm, space or site role', 'Añadir un rol de reino, espacio o sitio') }).click();
        await dialog.getByRole('combobox', { name: new RegExp(`^${say(locale, 'Role', 'Rol')}\\b`) }).click();
        await page.getByRole('option', { name: say(locale, 'Admin (Realm)', 'Admin (Reino)'), exact: true }).click();
        // The realm is searched on the server as the member types.
        const realm = dialog.getByRole('combobox', { name: new RegExp(`^${say(locale, 'Realm', 'Reino')}\\b`) });
        await realm.click();
        await realm.fill(`Alpha ${locale}`);
        await page.getByRole('option', { name: `Alpha ${locale} (alpha-${locale})` }).click();
        expect(await axeViolations(page)).toEqual([]);
        await dialog.locator('button[type=submit]').click();
        await dialog.waitFor({ state: 'hidden' });
        await page.getByRole('link', { name: email }).waitFor();
        expect(owner.problems).toEqual([]);
      } finally {
        await owner.close();
      }

      const token = memberInvitationTokenIn(await smtp.next(email));
      const invitee = await c.open({ locale, scheme });
      try {
        const { page, go } = invitee;
        await go(`/invitation/${token}`);
        const password = page.getByLabel(say(locale, 'New password', 'Contraseña nueva'));
        await password.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        // A weak password's message lands on its field; the link still works afterwards.
        await password.fill('short');
        await page.locator('form button[type=submit]').click();
        await page.getByText('is too short (minimum is 8 characters)').waitFor();
        expect(await password.getAttribute('aria-invalid')).toBe('true');
        expect(await axeViolations(page)).toEqual([]);
        await password.fill('a sturdy new password');
        await page.locator('form button[type=submit]').click();
        await page.waitForURL((url) => !url.pathname.startsWith('/admin/invitation'));
        await page.locator('main h1').first().waitFor();

        await go('/realms');
        await page.getByRole('link', { name: `alpha-${locale}` }).waitFor();
        expect(await page.getByRole('link', { name: `beta-${locale}` }).count()).toBe(0);
        expect(await page.locator('main tbody tr').count()).toBe(1);
        expect(await axeViolations(page)).toEqual([]);

        // The link worked once: opened again, it says so.
        await invitee.context.clearCookies();
        await go(`/invitation/${token}`);
        await password.fill('another sturdy password');
        await page.locator('form button[type=submit]').click();
        await page.getByRole('alert').filter({ hasText: say(locale, 'This invitation was used', 'Esta invitación ya se usó') }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        expect(invitee.problems).toEqual([]);
      } finally {
        await invitee.close();
      }
    }, 90_000);
  }
  for (const { locale, scheme } of VARIANTS) {
    it(`makes a member a writer of one space and a viewer of every site from the member page (${locale}, ${scheme})`, async () => {
      const space = `news-${locale}`;
      expect((await c.h.request({ method: 'POST', url: '/api/admin/content/spaces', payload: { uid: space, name: `News ${locale}`, default_locale: 'en', locales: ['en'] } })).statusCode).toBe(201);
      const member = await createMember(c.h, [{ key: 'account_user' }]);
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go(`/members/${member.id}`);
        const add = page.getByRole('button', { name: say(locale, 'Add a realm, space or site role', 'Añadir un rol de reino, espacio o sitio') });
        const roleOf = (row: number) => page.getByRole('combobox', { name: new RegExp(`^${say(locale, 'Role', 'Rol')}\\b`) }).nth(row);
        await add.click();
        await roleOf(0).click();
        await page.getByRole('option', { name: say(locale, 'Writer (Space)', 'Writer (Espacio)'), exact: true }).click();
        const target = page.getByRole('combobox', { name: new RegExp(`^${say(locale, 'Space', 'Espacio')}\\b`) });
        await target.fill(`News ${locale}`);
        await page.getByRole('option', { name: `News ${locale} (${space})` }).click();
        await add.click();
        await roleOf(1).click();
        await page.getByRole('option', { name: say(locale, 'Viewer (Site)', 'Viewer (Sitio)'), exact: true }).click();
        expect(await axeViolations(page)).toEqual([]);
        await page.locator('main form button[type=submit]').click();
        await expect.poll(async () => (await c.h.request({ url: `/api/admin/team_members/${member.id}` })).json().roles).toEqual([
          { key: 'account_user', target: null }, { key: 'space_writer', target: space }, { key: 'site_viewer', target: null },
        ]);
        // Saved and shown again: the space keeps its name, the site role says it reaches every site.
        await page.reload();
        await page.getByRole('combobox', { name: new RegExp(`^${say(locale, 'Space', 'Espacio')}\\b`) }).waitFor();
        expect(await page.getByRole('combobox', { name: new RegExp(`^${say(locale, 'Site', 'Sitio')}\\b`) }).getAttribute('placeholder'))
          .toBe(say(locale, 'Every site', 'Todos los sitios'));
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }
});
