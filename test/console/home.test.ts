import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { adminCall } from '../helpers/admin.js';

// The home screen (issue 29, "also expected"): counts of what the member may read and the next steps of a new account.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: the home screen', () => {
  let c: ConsoleHarness;
  let api: ReturnType<typeof adminCall>;
  beforeAll(async () => { c = await startConsole(); api = adminCall(c.h); }, 90_000);
  afterAll(async () => { await c?.close(); });

  const total = async (url: string) => (await api('GET', url)).meta.total_entries as number;
  /** The number the overview shows beside a count's name. */
  const shown = (page: Page, label: string) => page.locator('dl > div')
    .filter({ has: page.getByRole('term').getByText(label, { exact: true }) }).getByRole('definition').textContent();
  const step = (page: Page, name: string) => page.getByRole('link', { name, exact: true });

  it('shows the next steps of an empty account, each gone once its thing exists', async () => {
    const { page, problems, signIn, close } = await c.open();
    try {
      await signIn();
      await step(page, 'Create your first realm').waitFor();
      for (const name of ['Create a content space', 'Create a site', 'Create a form']) await step(page, name).waitFor();
      expect(await shown(page, 'Realms')).toBe('0');
      expect(await axeViolations(page)).toEqual([]);

      // The link leads to the screen that creates it; back home, the step is done and the next ones show.
      await step(page, 'Create your first realm').click();
      await page.getByRole('button', { name: 'New realm' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Identifier').fill('acme');
      await dialog.getByLabel('Name').fill('Acme');
      await dialog.locator('button[type=submit]').press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Acme' }).waitFor();
      await page.getByRole('link', { name: 'Atrium' }).click();
      await step(page, 'Add an OAuth client to Acme').waitFor();
      await step(page, 'Create a segment of Acme').waitFor();
      await expect.poll(() => step(page, 'Create your first realm').count()).toBe(0);
      expect(await shown(page, 'Realms')).toBe('1');

      await api('POST', '/customers/acme/oauth_clients', { name: 'Shop', redirect_uris: ['https://shop.example.com/callback'] });
      await api('POST', '/content/spaces', { uid: 'news', name: 'News', default_locale: 'en', locales: ['en'] });
      await page.reload();
      await step(page, 'Create a segment of Acme').waitFor();
      // Once counted: one OAuth client in Acme, one space.
      await expect.poll(() => page.getByRole('row').nth(1).getByRole('cell').nth(1).textContent()).toBe('1');
      await expect.poll(() => shown(page, 'Content spaces')).toBe('1');
      expect(await step(page, 'Add an OAuth client to Acme').count()).toBe(0);
      expect(await step(page, 'Create a content space').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows a realm admin only its realm, and only the steps its role may take', async () => {
    await api('POST', '/realms', { uid: 'limited', name: 'Limited' });
    await api('POST', '/team_members', { email: 'realm-admin@example.com', password: 'realm admin password 1', roles: [{ key: 'realm_admin', target: 'limited' }] });
    const { page, problems, signIn, close } = await c.open();
    try {
      await signIn('realm-admin@example.com', 'realm admin password 1');
      await step(page, 'Add an OAuth client to Limited').waitFor();
      await step(page, 'Create a segment of Limited').waitFor();
      for (const name of ['Create your first realm', 'Create a content space', 'Create a site']) expect(await step(page, name).count(), name).toBe(0);
      expect(await shown(page, 'Realms')).toBe('1');
      expect(await page.getByRole('table', { name: 'Latest realms' }).getByRole('rowheader').allTextContents()).toEqual(['Limited']);
      // Without content.read or site.read, those are not counted at all.
      for (const name of ['Content spaces', 'Sites']) expect(await page.getByRole('term').getByText(name, { exact: true }).count(), name).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  for (const { locale, scheme } of VARIANTS) {
    const L = (en: string, es: string) => (locale === 'en' ? en : es);

    it(`counts what the API counts, with no accessibility violation (${locale}, ${scheme})`, async () => {
      const uid = `shop-${locale}`;
      await api('POST', '/realms', { uid, name: `Shop ${locale}` });
      for (const n of [1, 2, 3]) await api('POST', `/customers/${uid}/users`, { email: `u${n}-${locale}@example.com`, password: 'a long secret 1' });
      await api('POST', '/segments', { name: `All ${locale}`, realm_uid: uid, filters: { all: [] } });
      // Two campaigns, one of them scheduled.
      const campaign = await api('POST', '/messaging/campaigns', { realm_uid: uid, name: `News ${locale}`, type: 'mailing', subject: 'Hi', body: 'Hello' });
      await api('POST', '/messaging/campaigns', { realm_uid: uid, name: `Draft ${locale}`, type: 'mailing', subject: 'Hi', body: 'Hello' });
      await api('POST', `/messaging/campaigns/${campaign.id}/deliveries`, { starts_at: '2100-01-01T00:00:00Z' });
      const { page, problems, signIn, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await page.getByRole('heading', { level: 2, name: L('Overview', 'Resumen') }).waitFor();
        const expected: [string, string][] = [
          [L('Realms', 'Reinos'), '/realms'], [L('Segments', 'Segmentos'), '/segments'], [L('Campaigns', 'Campañas'), '/messaging/campaigns'],
          [L('Campaigns with a delivery', 'Campañas con un envío'), '/messaging/campaigns?filtered=true'],
          [L('Content spaces', 'Espacios de contenido'), '/content/spaces'], [L('Sites', 'Sitios'), '/sites'], [L('Forms', 'Formularios'), '/forms'],
        ];
        for (const [label, url] of expected) {
          await expect.poll(() => shown(page, label)).toBe(String(await total(`${url}${url.includes('?') ? '&' : '?'}per_page=1`)));
        }
        // The latest realm first, with its users and OAuth clients.
        const row = page.getByRole('table', { name: L('Latest realms', 'Últimos reinos') }).getByRole('row').nth(1);
        await expect.poll(() => row.getByRole('cell').allTextContents())
          .toEqual([String(await total(`/customers/${uid}/users?per_page=1`)), String(await total(`/customers/${uid}/oauth_clients?per_page=1`))]);
        expect(await row.getByRole('rowheader').textContent()).toBe(`Shop ${locale}`);
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  }
});
