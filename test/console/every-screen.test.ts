import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { adminCall } from '../helpers/admin.js';
import { LOAN, makeOrigination, startFor } from '../originations/fixtures.js';

/** A 250-character name with accents, right-to-left text and an emoji: every table must cut it to one line. */
const LONG = 'Banco Nacional de Desarrollo Económico مرحبا 🌍 '.repeat(10).slice(0, 250);
const LAYOUT = '<!doctype html>\n<html lang="{{ locale }}">\n<head><title>{{ page.title }}</title></head>\n<body>\n<main>{% zone "main" %}</main>\n</body>\n</html>\n';

interface Cell { text: string; title: string | null; truncated: boolean; fits: boolean; lines: number; code: boolean }

/**
 * Every table cell of the page as its reader sees it. A cut cell shows one line, its whole text kept in the DOM and in its
 * title; a long name must be cut; any other cell must show its text whole, unclipped. A block of JSON (an event's
 * properties) is data to read and wraps instead.
 */
const cellsOf = (page: Page) => page.locator('main table tbody td').evaluateAll((cells) => cells.map((cell) => {
  const cut = cell.querySelector<HTMLElement>('[data-truncated]');
  const box = (cut ?? cell) as HTMLElement;
  const badge = cell.querySelector<HTMLElement>('.mantine-Badge-label');
  const fits = badge ?? box;
  const lineHeight = parseFloat(getComputedStyle(box).lineHeight) || 20;
  return {
    text: (box.textContent ?? '').trim(),
    title: box.getAttribute('title'),
    truncated: !!cut,
    fits: fits.scrollWidth <= fits.clientWidth + 1,
    lines: Math.round(box.getBoundingClientRect().height / lineHeight),
    code: !!cell.querySelector('pre'),
  } satisfies Cell;
}));

/** The console's router as the page's window holds it (TanStack Router sets `__TSR_ROUTER__` in a browser). */
interface RouterWindow { __TSR_ROUTER__: { history: { push(path: string): void }; state: { status: string; resolvedLocation?: { publicHref: string } } } }

/**
 * Moves to a console path as a click on a link does, through the console's router, without reloading: the console and
 * axe-core stay loaded, which makes the sweep three times faster than loading each screen. Done once the router has
 * loaded the new screen and its heading shows.
 */
async function visit(page: Page, path: string) {
  await page.evaluate((to) => (window as unknown as RouterWindow).__TSR_ROUTER__.history.push(to), `/admin${path}`);
  await page.waitForFunction(() => {
    const { state } = (window as unknown as RouterWindow).__TSR_ROUTER__;
    return state.status === 'idle' && state.resolvedLocation?.publicHref === location.pathname + location.search;
  });
  await page.locator('main h1').first().waitFor();
}

/** How far main scrolls sideways: long names, emoji and right-to-left text must not push it wider than the window. */
const overflowOfMain = (page: Page) => page.evaluate(() => { const main = document.querySelector('main')!; return main.scrollWidth - main.clientWidth; });

// Issue 29's sweep: every screen of the console, in English and Spanish, light and dark, with its "new" dialog open where it
// has one: no axe violation, no sideways scroll, and a 250-character name cut to one line in every table. Embedded only.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: every screen', () => {
  let c: ConsoleHarness;
  /** `dialog`: the screen's New/Add/Invite button opens a dialog (on other screens it leads to a page, or there is none). */
  const screens: { path: string; table?: boolean; dialog?: boolean }[] = [];

  beforeAll(async () => {
    c = await startConsole();
    const call = adminCall(c.h);
    const api = (method: 'POST' | 'PUT', url: string, payload: unknown, status = 201) => call(method, url, payload, status);
    const realm = 'wide';
    await api('POST', '/realms', { uid: realm, name: LONG });
    await api('POST', `/customers/${realm}/custom_fields`, { key: 'tier', name: LONG, type: 'text' });
    await api('POST', `/customers/${realm}/oauth_clients`, { name: LONG, redirect_uris: ['https://app.example.com/callback'] });
    const user = await api('POST', `/customers/${realm}/users`, { email: 'lupe@example.com', first_name: LONG, last_name: 'Ortiz', password: 'a long secret 1' });
    await api('POST', `/customers/${realm}/users/${user.id}/events`, { type: 'support_call', properties: { note: LONG } });
    const segment = await api('POST', '/segments', { realm_uid: realm, name: LONG, filters: { all: [] } });
    const campaign = await api('POST', '/messaging/campaigns', { realm_uid: realm, name: LONG, type: 'mailing', subject: LONG, body: '<p>Hello</p>' });
    await api('POST', `/messaging/campaigns/${campaign.id}/deliveries`, { starts_at: '2100-01-01T00:00:00Z' });

    const space = 'wide-space';
    await api('POST', '/content/spaces', { uid: space, name: LONG, default_locale: 'en', locales: ['en'] });
    await api('POST', `/content/spaces/${space}/types`, { uid: 'note', name: LONG, fields: [{ name: 'body', type: 'rich_text' }] });
    const entry = await api('POST', `/content/spaces/${space}/types/note/entries`, { name: LONG, fields: { body: 'Hello' } });

    const site = 'wide-site';
    await api('POST', '/sites', { uid: site, name: LONG, default_locale: 'en', locales: ['en'] });
    await api('POST', `/sites/${site}/layouts`, { name: 'main', source: LAYOUT });
    const page = await api('POST', `/sites/${site}/layout_pages`, { layout: 'main', locales: { en: { title: LONG, slug: 'about' } } });
    await api('POST', `/sites/${site}/menus`, { uid: 'main', name: LONG, items: [{ labels: { en: LONG }, page_id: page.id }] });
    await api('POST', `/sites/${site}/publish`, { note: LONG });

    const form = await api('POST', '/forms', {
      uid: 'wide-form', name: LONG, default_locale: 'en', locales: ['en'], fields: [{ name: 'message', type: 'long_text', labels: { en: LONG } }],
    });
    const webhook = await api('POST', '/webhooks', { url: 'https://hooks.example.com/atrium', event_types: ['realm_user.updated'], description: LONG });
    const application = await api('POST', '/api_access/applications', { name: LONG });
    const member = await api('POST', '/team_members', { email: 'wide@example.com', password: 'a sturdy password', name: LONG, roles: [{ key: 'realm_admin', target: realm }] });
    await api('POST', `/team_members/${member.id}/access_tokens`, { application_id: application.id });
    const role = await api('POST', '/roles', { key: 'wide_role', name: LONG, context: 'realm', permissions: ['realms.read'] });
    await api('POST', `/customers/${realm}/groups`, { name: LONG, member_ids: [member.id] });
    const origination = await makeOrigination(c.h, realm, { ...LOAN, name: LONG });
    const submission = await startFor(c.h, realm, origination.id, user.id);

    screens.push(
      { path: '/' }, { path: '/account' },
      { path: '/realms', table: true, dialog: true }, { path: `/realms/${realm}` }, { path: `/realms/${realm}/settings` },
      { path: `/realms/${realm}/fields`, table: true, dialog: true }, { path: `/realms/${realm}/identity-provider` },
      { path: `/realms/${realm}/clients`, table: true, dialog: true }, { path: `/realms/${realm}/integrations` },
      { path: `/realms/${realm}/users`, table: true, dialog: true }, { path: `/realms/${realm}/users/${user.id}` },
      { path: `/realms/${realm}/email-templates` }, { path: `/realms/${realm}/events`, table: true },
      { path: '/segments', table: true }, { path: `/segments/${segment.id}` }, { path: '/segments/new' },
      { path: '/campaigns', table: true, dialog: true }, { path: `/campaigns/${campaign.id}`, table: true },
      { path: '/content', table: true, dialog: true }, { path: `/content/${space}`, table: true, dialog: true }, { path: `/content/${space}/assets` },
      { path: `/content/${space}/types/note` }, { path: `/content/${space}/types/note/entries`, table: true },
      { path: `/content/${space}/types/note/entries/${entry.meta.uuid}` },
      { path: '/sites', table: true, dialog: true }, { path: `/sites/${site}` }, { path: `/sites/${site}/pages`, table: true, dialog: true },
      { path: `/sites/${site}/pages/${page.id}` }, { path: `/sites/${site}/menus`, table: true, dialog: true }, { path: `/sites/${site}/menus/main` },
      { path: `/sites/${site}/publishing`, table: true },
      { path: '/forms', table: true }, { path: `/forms/${form.uid}` }, { path: `/forms/${form.uid}/responses` },
      { path: '/email-templates' },
      { path: '/webhooks', table: true, dialog: true }, { path: `/webhooks/${webhook.id}` },
      { path: '/applications', table: true, dialog: true }, { path: `/applications/${application.id}` },
      { path: '/members', table: true, dialog: true }, { path: `/members/${member.id}`, table: true },
      { path: '/roles', table: true, dialog: true }, { path: `/roles/${role.id}` },
      { path: `/reviewer-groups?realm=${realm}`, table: true, dialog: true },
      { path: `/originations?realm=${realm}`, table: true }, { path: `/originations/${realm}/${origination.id}` }, { path: `/originations/new?realm=${realm}` },
      { path: `/submissions?realm=${realm}&user=${user.id}`, table: true }, { path: `/submissions/${realm}/${submission.id}` },
      { path: '/audit', table: true },
    );
  }, 120_000);
  afterAll(async () => { await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    it(`shows every screen and its "new" dialog with no accessibility violation, and cuts a 250-character name to one line in every table (${locale}, ${scheme})`, async () => {
      const { page, problems, signIn, close } = await c.open({ locale, scheme });
      const newButton = page.locator('main').getByRole('button', { name: locale === 'en' ? /^(New|Add|Invite) / : /^(Nuev[oa]|Añadir|Invitar) / }).first();
      try {
        await signIn();
        const failures: string[] = [];
        for (const { path, table, dialog: hasDialog } of screens) {
          await visit(page, path);
          if (table && !await page.locator('main table tbody tr').first().waitFor({ timeout: 10_000 }).then(() => true, () => false)) {
            failures.push(`${path}: no table row shows`);
          }
          await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"], main .mantine-Loader-root'));
          for (const violation of await axeViolations(page)) failures.push(`${path}: ${violation}`);
          const overflow = await overflowOfMain(page);
          if (overflow > 0) failures.push(`${path}: main scrolls sideways by ${overflow}px`);
          for (const cell of await cellsOf(page)) {
            if (cell.truncated) {
              if (cell.title !== cell.text || cell.lines > 1) failures.push(`${path}: "${cell.text.slice(0, 30)}…" is cut without its whole text in one line and its title`);
            } else if (cell.text.includes(LONG.slice(0, 60)) && !cell.code) {
              failures.push(`${path}: a long name is not cut to one line (${cell.text.slice(0, 30)}…)`);
            } else if (!cell.fits) {
              failures.push(`${path}: "${cell.text.slice(0, 40)}" is clipped`);
            }
          }
          if (hasDialog) {
            await newButton.click();
            const dialog = page.getByRole('dialog');
            if (!await dialog.waitFor({ timeout: 10_000 }).then(() => true, () => false)) {
              failures.push(`${path}: its New button opens no dialog`);
              continue;
            }
            for (const violation of await axeViolations(page)) failures.push(`${path} (dialog): ${violation}`);
            await page.keyboard.press('Escape');
            await dialog.waitFor({ state: 'hidden' });
          }
        }
        expect(failures).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 300_000);
  }
});
