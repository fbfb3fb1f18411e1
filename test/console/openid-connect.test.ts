import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';

// Issue 31 item 8, part: OpenID Connect turned on from a realm's settings, and its addresses shown with copy buttons.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: a realm\'s OpenID Connect', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    const L = (en: string, es: string) => (locale === 'en' ? en : es);

    it(`turns OpenID Connect on and shows its addresses (${locale}, ${scheme})`, async () => {
      const uid = `oidc-${locale}`;
      expect((await c.h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid, name: `OIDC ${locale}` } })).statusCode).toBe(201);
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go(`/realms/${uid}/settings`);
        const discovery = L('OpenID Connect discovery', 'Descubrimiento de OpenID Connect');
        await page.getByRole('rowheader', { name: L('Revocation endpoint', 'Punto de revocación') }).waitFor();
        expect(await page.getByRole('rowheader', { name: discovery }).count()).toBe(0);

        await page.getByLabel(L('OpenID Connect (ID tokens, userinfo, refresh tokens, logout)', 'OpenID Connect (tokens de identidad, userinfo, tokens de actualización, cierre de sesión)')).check();
        await page.locator('main form button[type=submit]').click();
        const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: discovery }) });
        await row.waitFor();
        expect(await row.textContent()).toContain(`/realms/${uid}/.well-known/openid-configuration`);
        expect((await c.h.request({ url: `/api/admin/realms/${uid}` })).json().settings.openid_connect_enabled).toBe(true);
        expect((await fetch(`${c.base}/realms/${uid}/.well-known/openid-configuration`)).status).toBe(200);
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
