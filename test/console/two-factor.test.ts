import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../helpers/admin.js';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';

const say = (locale: 'en' | 'es', en: string, es: string) => (locale === 'en' ? en : es);

// Two-factor sign-in in the console (issue 29), on the embedded database; the PostgreSQL run skips it.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: two-factor sign-in', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  /** The code the authenticator app shows at the server's clock, one time step later than any code used before. */
  const nextCode = (secret: string) => {
    c.h.clock.advance(30_000);
    return generateSync({ secret, epoch: Math.floor(c.h.clock.now().getTime() / 1000) });
  };

  async function passwordStep(page: Page, member: Member) {
    await page.goto('/admin/sign-in');
    await page.locator('input[type=email]').fill(member.email);
    await page.locator('input[type=password]').fill(member.password);
    await page.locator('form button[type=submit]').click();
  }

  /** Sets up the authenticator app on the two-factor section shown; answers the secret and the recovery codes. */
  async function enrol(page: Page, locale: 'en' | 'es'): Promise<{ secret: string; codes: string[] }> {
    await page.getByRole('button', { name: say(locale, 'Set up an authenticator app', 'Configurar una aplicación de autenticación') }).click();
    const secret = (await page.locator('[data-totp-secret]').textContent())!;
    await page.getByRole('img', { name: say(locale, 'QR code to add Atrium to an authenticator app', 'Código QR para añadir Atrium a una aplicación de autenticación') }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel(say(locale, 'Code from the app', 'Código de la aplicación')).fill(nextCode(secret));
    await page.getByRole('button', { name: say(locale, 'Turn on', 'Activar') }).click();
    const shown = page.locator('[data-recovery-codes]');
    await shown.waitFor();
    const codes = (await shown.textContent())!.split(/\s+/).filter(Boolean);
    expect(codes).toHaveLength(10);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: say(locale, 'I have saved them', 'Ya los guardé') }).click();
    return { secret, codes };
  }

  for (const { locale, scheme } of VARIANTS) {
    it(`sets up an authenticator app, signs in with its codes and with recovery codes once each (${locale}, ${scheme})`, async () => {
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        const member = await createMember(c.h, [{ key: 'account_user' }]);
        await signIn(member.email, member.password);
        await go('/account');
        const { secret, codes: first } = await enrol(page, locale);
        await page.getByText(say(locale, 'On: signing in asks for a code of your authenticator app.', 'Activado: al iniciar sesión se pide un código de tu aplicación de autenticación.')).waitFor();
        // New recovery codes replace the first ones, after a confirmation.
        const renew = say(locale, 'New recovery codes', 'Nuevos códigos de recuperación');
        await page.getByRole('button', { name: renew }).click();
        await page.getByRole('dialog').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('dialog').getByRole('button', { name: renew }).click();
        await page.locator('[data-recovery-codes]').waitFor();
        const codes = (await page.locator('[data-recovery-codes]').textContent())!.split(/\s+/).filter(Boolean);
        expect(codes).toHaveLength(10);
        expect(codes).not.toContain(first[0]);
        await page.getByRole('button', { name: say(locale, 'I have saved them', 'Ya los guardé') }).click();
        expect((await c.h.request({ url: '/api/admin/two_factor', token: member.token })).json()).toMatchObject({ totp: true, recovery_codes_left: 10 });

        const signOut = () => page.getByRole('button', { name: say(locale, 'Sign out', 'Cerrar sesión') }).click();
        await signOut();
        await passwordStep(page, member);
        const code = page.getByLabel(say(locale, 'Code from your authenticator app', 'Código de tu aplicación de autenticación'));
        await code.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await code.fill(nextCode(secret));
        await page.locator('form button[type=submit]').click();
        // The sign-in screen has a heading too: wait for the address to leave it.
        await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
        await page.locator('main h1').first().waitFor();

        // A recovery code signs in once.
        for (const expected of ['in', 'refused'] as const) {
          if (expected === 'in') await signOut();
          await passwordStep(page, member);
          await page.getByRole('button', { name: say(locale, 'Use a recovery code instead', 'Usar un código de recuperación') }).click();
          await page.getByLabel(say(locale, 'Recovery code', 'Código de recuperación')).fill(codes[0]);
          await page.locator('form button[type=submit]').click();
          if (expected === 'in') {
            await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
            await signOut();
            await page.locator('input[type=email]').waitFor();
          } else {
            await page.getByRole('alert').getByText(say(locale, 'Wrong code.', 'Código incorrecto.')).waitFor();
            expect(await axeViolations(page)).toEqual([]);
          }
        }
        expect(problems).toEqual([]);

        // An owner resets it for the member, who lost it.
        const owner = await c.open({ locale, scheme });
        try {
          await owner.signIn();
          await owner.go(`/members/${member.id}`);
          const reset = say(locale, 'Reset two-factor sign-in', 'Restablecer el inicio de sesión en dos pasos');
          await owner.page.getByRole('button', { name: reset }).click();
          const dialog = owner.page.getByRole('dialog');
          await dialog.waitFor();
          expect(await axeViolations(owner.page)).toEqual([]);
          await dialog.getByRole('button', { name: reset }).click();
          await expect.poll(async () => (await c.h.request({ url: '/api/admin/two_factor', token: member.token })).json().totp).toBe(false);
          expect(owner.problems).toEqual([]);
        } finally {
          await owner.close();
        }
      } finally {
        await close();
      }
    });

    it(`requires a second factor of every member when the account says so (${locale}, ${scheme})`, async () => {
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go('/account');
        const required = page.getByLabel(say(locale, 'Require two-factor sign-in for every member', 'Exigir el inicio de sesión en dos pasos a todos los miembros'));
        await required.check();
        expect(await axeViolations(page)).toEqual([]);
        await page.locator('main form button[type=submit]').click();
        await expect.poll(async () => (await c.h.request({ url: '/api/admin/account' })).json().second_factor_required).toBe(true);
        await page.getByRole('button', { name: say(locale, 'Sign out', 'Cerrar sesión') }).click();

        const member = await createMember(c.h, [{ key: 'account_user' }]);
        await passwordStep(page, member);
        await page.getByRole('heading', { level: 1, name: say(locale, 'Set up two-factor sign-in', 'Configura el inicio de sesión en dos pasos') }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        // Nothing else is reachable until then.
        await go('/realms');
        await page.getByRole('heading', { level: 1, name: say(locale, 'Set up two-factor sign-in', 'Configura el inicio de sesión en dos pasos') }).waitFor();
        expect(await page.getByRole('navigation').count()).toBe(0);
        await enrol(page, locale);
        await page.getByRole('navigation').first().waitFor();
        expect((await c.h.request({ url: '/api/admin/two_factor', token: member.token })).json()).toMatchObject({ totp: true, required: true });
        expect(problems).toEqual([]);
      } finally {
        await c.h.request({ method: 'PUT', url: '/api/admin/account', payload: { second_factor_required: false } });
        await close();
      }
    });
  }
});
