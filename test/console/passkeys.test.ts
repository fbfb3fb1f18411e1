import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../helpers/admin.js';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';

const say = (locale: 'en' | 'es', en: string, es: string) => (locale === 'en' ? en : es);

// Passkeys in the console (issue 29) through a virtual authenticator of the Chrome DevTools Protocol. A passkey belongs
// to a host name, never an IP address: this harness serves on http://localhost:<port>, with BASE_URL on localhost.
// On the embedded database; the PostgreSQL run skips it.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: passkeys', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole({ BASE_URL: 'http://localhost' }); }, 90_000);
  afterAll(async () => { await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    it(`adds a passkey, signs out, and signs in with the password and then the passkey (${locale}, ${scheme})`, async () => {
      expect(c.base).toMatch(/^http:\/\/localhost:\d+$/);
      const { context, page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        const cdp = await context.newCDPSession(page);
        await cdp.send('WebAuthn.enable');
        const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
          options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
        });
        const member = await createMember(c.h, [{ key: 'account_user' }]);
        await signIn(member.email, member.password);
        await go('/account');
        const name = page.getByLabel(say(locale, 'Passkey name', 'Nombre de la llave de acceso'));
        await name.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await name.fill('Laptop de prueba');
        await page.getByRole('button', { name: say(locale, 'Add a passkey', 'Añadir una llave de acceso') }).click();
        // The first second factor comes with the recovery codes, shown once.
        const shown = page.locator('[data-recovery-codes]');
        await shown.waitFor();
        expect((await shown.textContent())!.split(/\s+/).filter(Boolean)).toHaveLength(10);
        await page.getByRole('button', { name: say(locale, 'I have saved them', 'Ya los guardé') }).click();
        await page.locator('[data-passkeys]').getByText('Laptop de prueba').waitFor();
        await page.getByText(say(locale, 'not used yet', 'aún sin usar'), { exact: false }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
        expect(credentials).toHaveLength(1);
        expect((await c.h.request({ url: '/api/admin/two_factor', token: member.token })).json()).toMatchObject({ totp: false, passkeys: 1, recovery_codes_left: 10 });

        await page.getByRole('button', { name: say(locale, 'Sign out', 'Cerrar sesión') }).click();
        await page.locator('input[type=email]').waitFor();
        await page.locator('input[type=email]').fill(member.email);
        await page.locator('input[type=password]').fill(member.password);
        await page.locator('form button[type=submit]').click();
        const usePasskey = page.getByRole('button', { name: say(locale, 'Use a passkey', 'Usar una llave de acceso') });
        await usePasskey.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await usePasskey.click();
        await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
        await page.locator('main h1').first().waitFor();
        const [passkey] = (await c.h.request({ url: '/api/admin/two_factor/passkeys', token: member.token })).json().passkeys;
        expect(passkey).toMatchObject({ name: 'Laptop de prueba', last_used_at: expect.any(String) });

        // On an IP address, the account page says why passkeys are not offered.
        const base = c.h.ctx.config.baseUrl;
        c.h.ctx.config.baseUrl = base.replace('localhost', '127.0.0.1');
        try {
          await go('/account');
          await page.locator('[data-passkeys-unavailable]').waitFor();
          expect(await page.getByRole('button', { name: say(locale, 'Add a passkey', 'Añadir una llave de acceso') }).count()).toBe(0);
          expect(await axeViolations(page)).toEqual([]);
        } finally {
          c.h.ctx.config.baseUrl = base;
        }

        // Removing the passkey, after a confirmation, turns two-factor sign-in off again.
        await go('/account');
        await page.getByRole('button', { name: say(locale, 'Remove passkey Laptop de prueba', 'Quitar la llave de acceso Laptop de prueba') }).click();
        const dialog = page.getByRole('dialog');
        await dialog.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await dialog.getByRole('button', { name: say(locale, 'Remove passkey Laptop de prueba', 'Quitar la llave de acceso Laptop de prueba') }).click();
        await page.getByText(say(locale, 'No passkeys yet.', 'Aún no hay llaves de acceso.')).waitFor();
        expect((await c.h.request({ url: '/api/admin/two_factor', token: member.token })).json()).toMatchObject({ passkeys: 0, recovery_codes_left: 0 });
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });

    it(`lets a member the account requires a second factor of enrol with a passkey alone (${locale}, ${scheme})`, async () => {
      await c.h.request({ method: 'PUT', url: '/api/admin/account', payload: { second_factor_required: true } });
      const { context, page, problems, go, close } = await c.open({ locale, scheme });
      try {
        const cdp = await context.newCDPSession(page);
        await cdp.send('WebAuthn.enable');
        await cdp.send('WebAuthn.addVirtualAuthenticator', {
          options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
        });
        const member = await createMember(c.h, [{ key: 'account_user' }]);
        await go('/sign-in');
        await page.locator('input[type=email]').fill(member.email);
        await page.locator('input[type=password]').fill(member.password);
        await page.locator('form button[type=submit]').click();
        const enrolTitle = say(locale, 'Set up two-factor sign-in', 'Configura el inicio de sesión en dos pasos');
        await page.getByRole('heading', { level: 1, name: enrolTitle }).waitFor();
        expect(await page.getByRole('navigation').count()).toBe(0);
        await page.getByLabel(say(locale, 'Passkey name', 'Nombre de la llave de acceso')).fill('Security key');
        await page.getByRole('button', { name: say(locale, 'Add a passkey', 'Añadir una llave de acceso') }).click();
        await page.locator('[data-recovery-codes]').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('button', { name: say(locale, 'I have saved them', 'Ya los guardé') }).click();
        await page.getByRole('navigation').first().waitFor();
        expect((await c.h.request({ url: '/api/admin/two_factor', token: member.token })).json()).toMatchObject({ totp: false, passkeys: 1, required: true });
        expect(problems).toEqual([]);
      } finally {
        await c.h.request({ method: 'PUT', url: '/api/admin/account', payload: { second_factor_required: false } });
        await close();
      }
    });
  }
});
