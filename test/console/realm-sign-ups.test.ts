import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, startConsoleWithSmtp, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { CookieJar, inputValue } from '../helpers/cookie-jar.js';
import { mailText, type SmtpListener } from '../helpers/smtp.js';

const say = (locale: 'en' | 'es', en: string, es: string) => (locale === 'en' ? en : es);

// Issue 29, item 8: an invitation sent from the console reaches the mailbox; a moderated realm's sign-ups awaiting approval.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: a realm\'s invitations and the sign-ups awaiting approval', () => {
  let rig: Awaited<ReturnType<typeof startConsoleWithSmtp>>;
  let c: ConsoleHarness;
  let smtp: SmtpListener;
  beforeAll(async () => {
    rig = await startConsoleWithSmtp();
    ({ console: c, smtp } = rig);
  }, 90_000);
  afterAll(() => rig?.close());

  const makeRealm = async (uid: string, mode: string) => {
    const res = await c.h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid, name: uid, settings: { activation_mode: mode } } });
    expect(res.statusCode, res.body).toBe(201);
  };
  /** Signs up at the realm's page, as a visitor would. */
  const signUp = async (uid: string, email: string) => {
    const jar = new CookieJar(c.base);
    const page = await (await jar.fetch(`/realms/${uid}/signup`)).text();
    const res = await jar.post(`/realms/${uid}/signup`, { email, password: 'a long secret 1', csrf_token: inputValue(page, 'csrf_token') ?? '', redirect_uri: '' });
    expect(res.status).toBeLessThan(400);
  };

  for (const { locale, scheme } of VARIANTS) {
    it(`sends an invitation from an invitation-only realm's users, and lists only the sign-ups awaiting approval (${locale}, ${scheme})`, async () => {
      const invitational = `club-${locale}`;
      const moderated = `guild-${locale}`;
      await makeRealm(invitational, 'invitation_only');
      await makeRealm(moderated, 'moderated');
      await signUp(moderated, `waiting-a-${locale}@example.com`);
      await signUp(moderated, `waiting-b-${locale}@example.com`);
      expect((await c.h.request({ method: 'POST', url: `/api/admin/customers/${moderated}/users`, payload: { email: `made-${locale}@example.com` } })).statusCode).toBe(201);
      expect((await c.h.request({ method: 'POST', url: `/api/admin/customers/${moderated}/users`, payload: { email: `off-${locale}@example.com`, active: false } })).statusCode).toBe(201);

      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go(`/realms/${invitational}/users`);
        await page.getByRole('button', { name: say(locale, 'Invite to sign up', 'Invitar a registrarse') }).click();
        const dialog = page.getByRole('dialog');
        const invited = `guest-${locale}@example.com`;
        await dialog.getByLabel(say(locale, 'Email', 'Correo electrónico')).fill(invited);
        expect(await axeViolations(page)).toEqual([]);
        await dialog.getByRole('button', { name: say(locale, 'Send the invitation', 'Enviar la invitación') }).click();
        await dialog.waitFor({ state: 'hidden' });
        await page.getByText(say(locale, `Invitation sent to ${invited}`, `Invitación enviada a ${invited}`)).waitFor();
        const mail = await smtp.next(invited);
        expect(mailText(mail)).toMatch(new RegExp(`/realms/${invitational}/signup\\?invitation=[A-Za-z0-9_-]{43}`));

        // Inviting an address the realm already has is refused on the address's own label.
        await page.getByRole('button', { name: say(locale, 'Invite to sign up', 'Invitar a registrarse') }).click();
        await signUpAccepted(invitational, mailText(mail));
        await dialog.getByLabel(say(locale, 'Email', 'Correo electrónico')).fill(invited);
        await dialog.getByRole('button', { name: say(locale, 'Send the invitation', 'Enviar la invitación') }).click();
        await dialog.getByRole('alert').filter({ hasText: say(locale, 'Email: has already been taken', 'Correo electrónico: has already been taken') }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await dialog.getByRole('button', { name: say(locale, 'Cancel', 'Cancelar') }).click();

        // The moderated realm: every user, then only those awaiting approval.
        await go(`/realms/${moderated}/users`);
        await page.getByRole('link', { name: `made-${locale}@example.com` }).waitFor();
        expect(await page.locator('main tbody tr').count()).toBe(4);
        await page.getByLabel(say(locale, 'Status', 'Estado'), { exact: true }).first().click();
        await page.getByRole('option', { name: say(locale, 'Awaiting approval', 'Pendiente de aprobación'), exact: true }).click();
        await page.waitForURL((url) => url.searchParams.get('status') === 'awaiting_moderation');
        await page.getByRole('link', { name: `made-${locale}@example.com` }).waitFor({ state: 'detached' });
        const rows = await page.locator('main tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
        expect(rows.map((row) => row[0]).sort()).toEqual([`waiting-a-${locale}@example.com`, `waiting-b-${locale}@example.com`]);
        expect(rows.map((row) => row[2])).toEqual(Array(2).fill(say(locale, 'Awaiting approval', 'Pendiente de aprobación') + say(locale, 'Approve', 'Aprobar')));
        expect(await axeViolations(page)).toEqual([]);

        // Approving one takes it off the list; the user may sign in.
        const approved = `waiting-a-${locale}@example.com`;
        await page.getByRole('button', { name: say(locale, `Approve ${approved}`, `Aprobar a ${approved}`) }).click();
        await page.getByText(say(locale, `${approved} may sign in now`, `${approved} ya puede iniciar sesión`)).waitFor();
        await page.getByRole('link', { name: approved }).waitFor({ state: 'detached' });
        expect(await page.locator('main tbody tr').count()).toBe(1);
        const listed = (await c.h.request({ url: `/api/admin/customers/${moderated}/users?status=active` })).json().users.map((user: { email: string }) => user.email);
        expect(listed.sort()).toEqual([`made-${locale}@example.com`, approved]);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }

  /** Follows the invitation link of the mail and signs up with it: the address becomes a user of the realm. */
  async function signUpAccepted(uid: string, text: string) {
    const path = new RegExp(`/realms/${uid}/signup\\?invitation=[A-Za-z0-9_-]{43}`).exec(text)![0];
    const jar = new CookieJar(c.base);
    const page = await (await jar.fetch(path)).text();
    const res = await jar.post(`/realms/${uid}/signup`, {
      password: 'a long secret 1', csrf_token: inputValue(page, 'csrf_token') ?? '', redirect_uri: '', invitation: inputValue(page, 'invitation') ?? '',
    });
    expect(res.status).toBeLessThan(400);
  }
});
