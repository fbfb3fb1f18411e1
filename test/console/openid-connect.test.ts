import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';

// Issue 31 item 8, part: OpenID Connect turned on from a realm's settings, and its addresses shown with copy buttons.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: a realm\'s OpenID Connect', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    const L = (en: string, es: string) => (locale === 'en' ? en : es);

    it(`turns OpenID Connect on, shows its addresses, rotates its key on demand and on a schedule, and sets a client's logout addresses, ID token algorithm and custom fields claim (${locale}, ${scheme})`, async () => {
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
        // Scheduled rotation, offered once OpenID Connect is on.
        await page.getByLabel(L('Rotate signing keys every (days)', 'Rotar las claves de firma cada (días)')).fill('30');
        await page.locator('main form button[type=submit]').click();
        const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: discovery }) });
        await row.waitFor();
        expect(await row.textContent()).toContain(`/realms/${uid}/.well-known/openid-configuration`);
        expect((await c.h.request({ url: `/api/admin/realms/${uid}` })).json().settings).toMatchObject({ openid_connect_enabled: true, signing_key_rotation_days: 30 });
        expect((await fetch(`${c.base}/realms/${uid}/.well-known/openid-configuration`)).status).toBe(200);
        expect(await axeViolations(page)).toEqual([]);

        // Key rotation, after a confirmation: the JWKS then publishes the new key beside the old one.
        const kids = async () => (await (await fetch(`${c.base}/realms/${uid}/oauth/jwks`)).json()).keys.length;
        expect(await kids()).toBe(1);
        const rotate = L('Rotate the signing key', 'Cambiar la clave de firma');
        await page.getByRole('button', { name: rotate }).click();
        const dialog = page.getByRole('dialog', { name: rotate });
        expect(await axeViolations(page)).toEqual([]);
        await dialog.getByRole('button', { name: rotate }).click();
        await page.getByText(L('A new signing key is in use', 'Se usa una clave de firma nueva')).waitFor();
        expect(await kids()).toBe(2);

        // A client's OpenID Connect settings, from the clients screen.
        await go(`/realms/${uid}/clients`);
        await page.getByRole('button', { name: L('New OAuth client', 'Nuevo cliente OAuth') }).first().click();
        const form = page.getByRole('dialog', { name: L('New OAuth client', 'Nuevo cliente OAuth') });
        await form.getByLabel(L('Name', 'Nombre')).fill('Web app');
        await form.getByLabel(L('Redirect URIs (one per line)', 'URI de redirección (una por línea)')).fill('https://app.example/callback');
        await form.getByLabel(L('Addresses to return to after signing out (one per line)', 'Direcciones a las que volver tras cerrar la sesión (una por línea)')).fill('https://app.example/bye');
        await form.getByLabel(L('Back-channel logout address', 'Dirección de cierre de sesión por canal secundario')).fill('https://app.example/backchannel');
        await form.getByLabel(L('Custom fields claim in userinfo', 'Claim de campos personalizados en userinfo')).fill('https://app.example/fields');
        // Scopes are picked from those the realm knows, not typed.
        const pick = async (label: string, options: string[]) => {
          await form.getByRole('combobox', { name: label, exact: true }).focus();
          await page.keyboard.press('ArrowDown');
          for (const option of options) await page.getByRole('option', { name: option, exact: true }).click();
          // Tab, not Escape, closes the list: Escape would close the dialog too.
          await page.keyboard.press('Tab');
        };
        await pick(L('Scopes', 'Ámbitos'), ['openid', 'profile']);
        await pick(L('Scopes of its own tokens (client_credentials)', 'Ámbitos de sus propios tokens (client_credentials)'), ['public']);
        await form.getByRole('combobox', { name: L('ID token algorithm', 'Algoritmo del token de ID'), exact: true }).click();
        await page.getByRole('option', { name: 'ES256' }).click();
        expect(await axeViolations(page)).toEqual([]);
        await form.locator('button[type=submit]').click();
        await expect.poll(async () => (await c.h.request({ url: `/api/admin/customers/${uid}/oauth_clients` })).json().oauth_clients[0]?.post_logout_redirect_uris)
          .toEqual(['https://app.example/bye']);
        expect((await c.h.request({ url: `/api/admin/customers/${uid}/oauth_clients` })).json().oauth_clients[0]).toMatchObject({
          backchannel_logout_uri: 'https://app.example/backchannel', id_token_signed_response_alg: 'ES256', custom_fields_claim: 'https://app.example/fields', client_credentials_scopes: ['public'], scopes: ['openid', 'profile'],
        });
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 90_000);
  }
});
