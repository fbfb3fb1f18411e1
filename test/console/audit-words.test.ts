import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_EMAIL } from '../helpers/harness.js';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { adminCall } from '../helpers/admin.js';

const say = (locale: 'en' | 'es', en: string, es: string) => (locale === 'en' ? en : es);

// Issue 29, item 7: the audit log in words, pickers instead of ids, and a 422 named by the form's own labels.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: the audit log in words', () => {
  let c: ConsoleHarness;
  let api: ReturnType<typeof adminCall>;
  beforeAll(async () => { c = await startConsole(); api = adminCall(c.h); }, 90_000);
  afterAll(async () => { await c?.close(); });


  for (const { locale, scheme } of VARIANTS) {
    it(`says who did what to which user in which realm, filtered by pickers (${locale}, ${scheme})`, async () => {
      const uid = `acme-${locale}`;
      const realm = `Acme ${locale}`;
      await api('POST', '/realms', { uid, name: realm });
      const user = await api('POST', `/customers/${uid}/users`, { email: `ana-${locale}@example.com`, first_name: 'Ana', last_name: 'Pérez' });
      await api('PUT', `/customers/${uid}/users/${user.id}`, { external_id: 'crm-7' });
      await api('DELETE', `/customers/${uid}/users/${user.id}/sessions`);
      await api('DELETE', `/customers/${uid}/users/${user.id}`);

      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go('/audit');
        // The realm is picked by its name, searched on the server as the member types.
        const realmPicker = page.getByRole('combobox', { name: say(locale, 'Realm', 'Reino'), exact: true });
        await realmPicker.click();
        await realmPicker.fill(realm);
        await page.getByRole('option', { name: `${realm} (${uid})` }).click();
        await page.waitForURL((url) => url.searchParams.get('realm_uid') === uid);

        const sentences = [
          say(locale, `Deleted user Ana Pérez in realm ${realm}`, `Eliminó el usuario Ana Pérez en el reino ${realm}`),
          say(locale, `Ended every session of user Ana Pérez in realm ${realm}`, `Cerró todas las sesiones del usuario Ana Pérez en el reino ${realm}`),
          say(locale, `Changed user Ana Pérez in realm ${realm}`, `Cambió el usuario Ana Pérez en el reino ${realm}`),
          say(locale, `Created user Ana Pérez in realm ${realm}`, `Creó el usuario Ana Pérez en el reino ${realm}`),
        ];
        await page.getByRole('cell', { name: sentences[0], exact: true }).waitFor();
        const rows = page.locator('main tbody tr');
        expect(await rows.count()).toBe(4);
        const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
        expect(cells.map((row) => row[2])).toEqual(sentences);
        expect(cells.map((row) => row[1])).toEqual(Array(4).fill(OWNER_EMAIL));
        expect(cells.map((row) => row[3])).toEqual(Array(4).fill(say(locale, 'Done', 'Hecho')));
        // No route, path parameter, id or lower-case code is shown in the table.
        expect(await page.locator('main').textContent()).not.toMatch(/\/customers\/|\{id\}|realm_uid|team_members|\bPUT\b|\bDELETE\b/);
        expect(await axeViolations(page)).toEqual([]);

        // The detail keeps the API operation for developers, under its own label.
        await rows.nth(2).getByRole('button').click();
        const drawer = page.getByRole('dialog');
        await drawer.getByRole('cell', { name: 'PUT /customers/{realm_uid}/users/{id}' }).waitFor();
        await drawer.getByRole('cell', { name: sentences[2], exact: true }).waitFor();
        await drawer.getByRole('listitem').filter({ hasText: /^external_id$/ }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.keyboard.press('Escape');
        await drawer.waitFor({ state: 'hidden' });

        // The member is picked by name or email, never typed as an id.
        const memberPicker = page.getByRole('combobox', { name: say(locale, 'Member', 'Miembro'), exact: true });
        await memberPicker.click();
        await memberPicker.fill('owner');
        await page.getByRole('option', { name: new RegExp(OWNER_EMAIL) }).click();
        await page.waitForURL((url) => url.searchParams.has('member_id') && url.searchParams.get('realm_uid') === uid);
        await page.getByRole('cell', { name: sentences[3], exact: true }).waitFor();
        expect(await page.getByRole('spinbutton').count()).toBe(0);
        expect(await axeViolations(page)).toEqual([]);

        // A refused value is named by the form's own label, not by the server's path.
        await go(`/realms/${uid}/settings`);
        const logo = page.getByLabel(say(locale, 'Logo address', 'Dirección del logotipo'));
        await logo.fill('http://logo.example/a.png');
        await page.locator('main form button[type=submit]').click();
        const banner = page.getByRole('alert').filter({ hasText: say(locale, 'Some values are not valid', 'Algunos valores no son válidos') });
        await banner.waitFor();
        expect(await banner.textContent()).toContain(say(locale, 'Logo address: must be an absolute https address', 'Dirección del logotipo: must be an absolute https address'));
        expect(await banner.textContent()).not.toMatch(/settings|branding|logo_url/);
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }
});
