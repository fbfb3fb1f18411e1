import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../helpers/admin.js';
import { startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';
import { choose, exactly, expectAccessible } from './content-steps.js';

/** The console's words the sites journey clicks and reads, in each language. */
const TEXT = {
  en: {
    sites: 'Sites', newSite: 'New site', uid: 'Identifier', name: 'Name', defaultLocale: 'Default locale', otherLocales: 'Other locales',
    newLayout: 'New layout', save: 'Save', source: 'Liquid source', pages: 'Pages', newPage: 'New page', inLocale: 'Locale {locale}',
    pageTitle: 'Title', addBlock: 'Add block', markdownIn: 'Markdown ({locale})', draftSaved: 'Draft saved', preview: 'Preview',
    publishing: 'Publishing', reviewNote: 'Note for the reviewers', askReview: 'Ask for review', approveNumber: 'Approve request {id}',
    reviewApproved: 'Approved', publish: 'Publish', current: 'served', previewPage: 'Page to preview', previewLocale: 'Preview locale',
  },
  es: {
    sites: 'Sitios', newSite: 'Nuevo sitio', uid: 'Identificador', name: 'Nombre', defaultLocale: 'Idioma predeterminado', otherLocales: 'Otros idiomas',
    newLayout: 'Nueva plantilla', save: 'Guardar', source: 'Código Liquid', pages: 'Páginas', newPage: 'Nueva página', inLocale: 'Idioma {locale}',
    pageTitle: 'Título', addBlock: 'Añadir bloque', markdownIn: 'Markdown ({locale})', draftSaved: 'Borrador guardado', preview: 'Vista previa',
    publishing: 'Publicación', reviewNote: 'Nota para quienes revisan', askReview: 'Pedir revisión', approveNumber: 'Aprobar la solicitud {id}',
    reviewApproved: 'Aprobada', publish: 'Publicar', current: 'servida', previewPage: 'Página que ver', previewLocale: 'Idioma de la vista previa',
  },
};

const BROKEN_LAYOUT = '<!doctype html>\n<html lang="{{ locale }}">\n<body>\n{% if page.title %}\n<main>{% zone "main" %}</main>\n</body>\n</html>\n';
const LAYOUT = '<!doctype html>\n<html lang="{{ locale }}">\n<head><title>{{ page.title }}</title></head>\n<body>\n<main>{% zone "main" %}</main>\n</body>\n</html>\n';

describe.skipIf(!!process.env.DATABASE_URL)('admin console: sites', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  for (const { locale, scheme } of VARIANTS) {
    it(`creates a site in two locales, a layout (a Liquid error shown at its line, then fixed), a page with a rich text block, publishes it and serves both locales (${locale}, ${scheme})`, async () => {
      const text = TEXT[locale];
      const uid = `web-${locale}`;
      const { page, problems, signIn, close } = await c.open({ locale, scheme });
      const adminApi = (url: string) => c.h.request({ url: `/api/admin/sites/${uid}${url}` });
      try {
        await signIn();
        // The site: created in the dialog with English and Spanish.
        await page.getByRole('navigation').getByRole('link', { name: text.sites, exact: true }).click();
        await page.getByRole('button', { name: text.newSite }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel(exactly(text.uid)).fill(uid);
        await dialog.getByLabel(exactly(text.name)).fill(`Web ${locale}`);
        await dialog.getByLabel(exactly(text.defaultLocale)).fill('en');
        await dialog.getByLabel(text.otherLocales).fill('es');
        await dialog.getByLabel(text.otherLocales).press('Enter');
        await expectAccessible(page);
        await dialog.locator('button[type=submit]').click();
        await dialog.waitFor({ state: 'detached' });
        await expect.poll(async () => (await adminApi('')).json()).toMatchObject({ default_locale: 'en', locales: ['en', 'es'] });
        await expectAccessible(page);
        await page.locator('main table tbody tr').filter({ hasText: uid }).getByRole('link', { name: uid }).click();

        // A layout that does not parse: the 422 is shown in an alert and at its line in the editor; then fixed.
        await page.getByRole('link', { name: text.newLayout }).click();
        await page.getByLabel(exactly(text.name)).fill('main');
        const editor = page.locator('[data-code-editor] .cm-content');
        await editor.fill(BROKEN_LAYOUT);
        await page.getByRole('button', { name: text.save, exact: true }).click();
        const alert = page.getByRole('alert').filter({ hasText: /line 4/ });
        await alert.waitFor();
        await page.locator('[data-code-editor] .cm-lintRange-error').first().waitFor();
        expect(await page.getByRole('textbox', { name: text.source }).count()).toBe(1);
        await expectAccessible(page);
        await editor.fill(LAYOUT);
        await page.getByRole('button', { name: text.save, exact: true }).click();
        await page.waitForURL(/\/design\/layouts\/\d+$/);
        await expect.poll(() => page.locator('[data-code-editor] .cm-lintRange-error').count()).toBe(0);
        expect((await adminApi('/layouts')).json().layouts.map((l: { name: string; source: string }) => [l.name, l.source])).toEqual([['main', LAYOUT]]);
        await expectAccessible(page);

        // A home page in both locales, with a rich text block in each.
        await page.getByRole('link', { name: text.pages, exact: true }).click();
        await page.getByRole('button', { name: text.newPage }).click();
        const form = page.getByRole('dialog');
        await form.getByRole('group', { name: `${text.inLocale.replace('{locale}', 'en')}` }).getByLabel(exactly(text.pageTitle)).fill('Home');
        await form.getByRole('group', { name: `${text.inLocale.replace('{locale}', 'es')}` }).getByLabel(exactly(text.pageTitle)).fill('Inicio');
        await expectAccessible(page);
        await form.locator('button[type=submit]').click();
        await page.waitForURL(/\/pages\/\d+$/);
        await page.getByRole('button', { name: text.addBlock }).click();
        await page.getByLabel(text.markdownIn.replace('{locale}', 'en')).fill('Hello from **the site**');
        await page.getByLabel(text.markdownIn.replace('{locale}', 'es')).fill('Hola desde **el sitio**');
        await expectAccessible(page);
        await page.getByRole('button', { name: text.save, exact: true }).click();
        await page.getByText(text.draftSaved).first().waitFor();
        const pageId = Number(/\/pages\/(\d+)$/.exec(page.url())![1]);
        expect((await adminApi(`/layout_pages/${pageId}`)).json()).toMatchObject({
          layout: 'main', locales: { en: { title: 'Home' }, es: { title: 'Inicio' } },
          blocks: [{ zone: 'main', type: 'rich_text', markdown: { en: 'Hello from **the site**', es: 'Hola desde **el sitio**' } }],
        });
        // The lock the editor took is the owner's.
        const locks = await c.h.request({ url: `/api/admin/locks?resource_type=layout_page&resource_id=${pageId}` });
        expect(locks.json().locks).toHaveLength(1);

        // Preview of the drafts in a frame.
        await page.getByRole('button', { name: text.preview, exact: true }).click();
        const frame = page.frameLocator('iframe');
        await frame.getByText('Hello from').waitFor();
        await expectAccessible(page);
        await page.keyboard.press('Escape');

        // Ask for review, approve, publish.
        await page.getByRole('link', { name: text.publishing }).click();
        await page.getByLabel(text.reviewNote).fill('First version');
        await page.getByRole('button', { name: text.askReview }).click();
        await page.getByRole('button', { name: new RegExp(`^${text.approveNumber.replace('{id}', '\\d+')}$`) }).click();
        await page.getByRole('cell', { name: text.reviewApproved }).waitFor();
        await expectAccessible(page);
        await page.getByRole('button', { name: text.publish, exact: true }).click();
        await page.getByText(text.current, { exact: true }).waitFor();
        await expect.poll(async () => (await adminApi('')).json().published_version).toBe(1);
        await expectAccessible(page);
        await choose(page, page, text.previewPage, 'Home');
        await choose(page, page, text.previewLocale, 'es');
        await page.getByRole('button', { name: text.preview, exact: true }).click();
        await page.frameLocator('iframe').getByText('Hola desde').waitFor();
        await page.keyboard.press('Escape');

        // The served site in both locales.
        await page.goto(`/sites/${uid}/`);
        await page.getByText('Hello from the site').waitFor();
        expect(await page.locator('strong').textContent()).toBe('the site');
        await page.goto(`/sites/${uid}/es/`);
        await page.getByText('Hola desde el sitio').waitFor();
        expect(await page.locator('html').getAttribute('lang')).toBe('es');
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 180_000);

    it(`cuts a 250-character site name to one line, the status badge, the date and the row buttons whole beside it (${locale}, ${scheme})`, async () => {
      const uid = `wide-${locale}`;
      const created = await c.h.request({ method: 'POST', url: '/api/admin/sites', payload: { uid, name: 'Sitio institucional del Banco مرحبا 🌍 '.repeat(10).slice(0, 250), default_locale: 'en', locales: ['en'] } });
      expect(created.statusCode, created.body).toBe(201);
      const name: string = created.json().name;
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await signIn();
        await go(`/sites?q=${uid}`);
        const row = page.locator('main tbody tr', { has: page.getByRole('link', { name: uid, exact: true }) });
        await row.waitFor();
        const cells = await row.locator('td').evaluateAll((tds) => tds.map((td) => {
          const box = (td.querySelector('[data-truncated]') ?? td) as HTMLElement;
          const fits = td.querySelector<HTMLElement>('.mantine-Badge-label') ?? box;
          return { text: box.textContent ?? '', title: box.getAttribute('title'), height: box.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(box).lineHeight), fits: fits.scrollWidth <= fits.clientWidth };
        }));
        const [uidCell, nameCell, , publishedCell, updatedCell, actionsCell] = cells;
        // The name: one line cut with an ellipsis, its whole text in the DOM (read by screen readers) and in its title.
        expect(nameCell).toMatchObject({ text: name, title: name, fits: false });
        expect(await row.getByRole('cell', { name }).count()).toBe(1);
        for (const cell of [uidCell!, nameCell!, updatedCell!]) expect(cell.height, cell.text).toBeLessThanOrEqual(cell.lineHeight * 1.5);
        expect(publishedCell).toMatchObject({ text: locale === 'en' ? 'Not published yet' : 'Aún sin publicar', fits: true });
        expect(updatedCell!.fits && actionsCell!.fits).toBe(true);
        const inside = await row.getByRole('button').evaluateAll((all) => all.map((button) => { const box = button.getBoundingClientRect(); const cell = button.closest('td')!.getBoundingClientRect(); return box.left >= cell.left - 0.5 && box.right <= cell.right + 0.5; }));
        expect(inside).toEqual([true, true]);
        expect(await page.evaluate(() => document.querySelector('main')!.scrollWidth - document.querySelector('main')!.clientWidth)).toBeLessThanOrEqual(0);
        await expectAccessible(page);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 30_000);
  }

  it('moves pages in the tree, edits a menu (a broken item flagged), compares two versions and rolls back, takes a lock over and keeps the text of the editor that lost it (en, dark)', async () => {
    const api = (method: 'POST' | 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) => c.h.request({ method, url: `/api/admin/sites/tree${url}`, payload });
    expect((await c.h.request({ method: 'POST', url: '/api/admin/sites', payload: { uid: 'tree', name: 'Tree', default_locale: 'en', locales: ['en'] } })).statusCode).toBe(201);
    expect((await api('POST', '/layouts', { name: 'main', source: LAYOUT })).statusCode).toBe(201);
    const ids: Record<string, number> = {};
    for (const title of ['Alpha', 'Beta', 'Gamma']) {
      const res = await api('POST', '/layout_pages', { layout: 'main', locales: { en: { title, slug: title.toLowerCase() } } });
      expect(res.statusCode, res.body).toBe(201);
      ids[title] = res.json().id;
    }
    const tree = async () => (await api('GET', '/layout_pages')).json().layout_pages.map((p: { id: number; parent_id: number | null }) => [p.id, p.parent_id]);
    const developer = await createMember(c.h, [{ key: 'site_developer', target: 'tree' }]);
    // In the dark scheme: the banners, the menu editor and the diff are checked by axe there too.
    const owner = await c.open({ scheme: 'dark' });
    const second = await c.open({ scheme: 'dark' });
    const { page } = owner;
    try {
      await owner.signIn();
      // The tree: Beta up, Gamma under Alpha, then out again.
      await owner.go('/sites/tree/pages');
      await page.getByRole('button', { name: 'Move Beta up' }).click();
      await expect.poll(tree).toEqual([[ids.Beta, null], [ids.Alpha, null], [ids.Gamma, null]]);
      await page.getByRole('button', { name: /^Indent Gamma/ }).click();
      await expect.poll(tree).toEqual([[ids.Beta, null], [ids.Alpha, null], [ids.Gamma, ids.Alpha]]);
      await expectAccessible(page);
      await page.getByRole('button', { name: /^Outdent Gamma/ }).click();
      await expect.poll(tree).toEqual([[ids.Beta, null], [ids.Alpha, null], [ids.Gamma, null]]);

      // A menu: an item for Alpha, one for Beta, a nested address; Beta deleted, its item flagged.
      await page.getByRole('link', { name: 'Menus' }).click();
      await page.getByRole('button', { name: 'New menu' }).click();
      await page.getByRole('dialog').getByLabel(exactly('Identifier')).fill('main');
      await page.getByRole('dialog').getByLabel(exactly('Name')).fill('Main menu');
      await expectAccessible(page);
      await page.getByRole('dialog').locator('button[type=submit]').click();
      await page.waitForURL(/\/menus\/main$/);
      for (const [n, label] of [[1, 'Alpha'], [2, 'Beta'], [3, 'Elsewhere']] as const) {
        await page.getByRole('button', { name: 'Add item' }).click();
        const item = page.getByRole('group', { name: `Item ${n}`, exact: true });
        await item.getByLabel(exactly('Label (en)')).fill(label);
        if (n === 3) {
          await item.getByText('Address', { exact: true }).click();
          await item.getByLabel('Target address').fill('https://example.com/');
          await item.getByRole('button', { name: 'Indent Item 3' }).click();
        } else {
          await choose(page, item, 'Target page', label);
        }
      }
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(async () => (await api('GET', '/menus/main')).json().items).toMatchObject([
        { labels: { en: 'Alpha' }, page_id: ids.Alpha },
        { labels: { en: 'Beta' }, page_id: ids.Beta, children: [{ labels: { en: 'Elsewhere' }, url: 'https://example.com/' }] },
      ]);
      expect((await api('DELETE', `/layout_pages/${ids.Beta}`)).statusCode).toBe(204);
      await page.reload();
      await page.getByRole('group', { name: 'Item 2', exact: true }).getByText('Its page was deleted').waitFor();
      await expectAccessible(page);

      // Two versions: compared, then version 1 restored after a confirmation.
      expect((await api('POST', '/publish', { note: 'one' })).statusCode).toBe(201);
      expect((await api('PUT', `/layout_pages/${ids.Alpha}`, { locales: { en: { title: 'Alpha two', slug: 'alpha' } } })).statusCode).toBe(200);
      expect((await api('POST', '/publish', { note: 'two' })).statusCode).toBe(201);
      await page.getByRole('link', { name: 'Publishing' }).click();
      await choose(page, page, 'Compare from', 'Version 1');
      await choose(page, page, 'to', 'Version 2');
      await page.getByRole('button', { name: 'Compare', exact: true }).click();
      const diff = page.getByRole('table', { name: 'Differences between versions 1 and 2' });
      await diff.getByText('Alpha two').first().waitFor();
      await diff.getByRole('cell', { name: `Page ${ids.Alpha} (changed)`, exact: true }).waitFor();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Roll back to this version: version 1' }).click();
      await page.getByRole('dialog').getByText('published at once as a new version').waitFor();
      await expectAccessible(page);
      await page.getByRole('dialog').getByRole('button', { name: 'Roll back to this version' }).click();
      await expect.poll(async () => (await api('GET', '/versions')).json().versions[0]).toMatchObject({ number: 3, restored_from: 1, current: true });
      await page.getByText('Rolled back to version 1').first().waitFor();

      // A publish scheduled an hour ahead, then cancelled; a review asked for, then withdrawn.
      expect((await api('PUT', `/layout_pages/${ids.Alpha}`, { locales: { en: { title: 'Alpha three', slug: 'alpha' } } })).statusCode).toBe(200);
      const later = new Date(Date.now() + 3_600_000);
      const local = `${later.getFullYear()}-${String(later.getMonth() + 1).padStart(2, '0')}-${String(later.getDate()).padStart(2, '0')}T${String(later.getHours()).padStart(2, '0')}:${String(later.getMinutes()).padStart(2, '0')}`;
      await page.getByLabel('Publish at (optional)').fill(local);
      await page.getByRole('button', { name: 'Schedule', exact: true }).click();
      await expect.poll(async () => (await api('GET', '/scheduled_publishes')).json().scheduled_publishes.length).toBe(1);
      await page.getByRole('button', { name: /^Cancel the publish of / }).waitFor();
      await expectAccessible(page);
      await page.getByRole('button', { name: /^Cancel the publish of / }).click();
      await expect.poll(async () => (await api('GET', '/scheduled_publishes')).json().scheduled_publishes.length).toBe(0);
      await page.getByLabel('Note for the reviewers').fill('Third');
      await page.getByRole('button', { name: 'Ask for review' }).click();
      await page.getByRole('button', { name: /^Withdraw request \d+$/ }).click();
      await expect.poll(async () => (await api('GET', '/review_requests')).json().review_requests[0].status).toBe('withdrawn');

      // The developer edits Alpha; the owner takes the lock over; the developer's save keeps the text and offers to copy it.
      await second.go('/sign-in');
      await second.signIn(developer.email, developer.password);
      await second.go(`/sites/tree/pages/${ids.Alpha}`);
      await second.page.getByRole('button', { name: 'Save', exact: true }).waitFor();
      await expect.poll(async () => (await c.h.request({ url: `/api/admin/locks?resource_type=layout_page&resource_id=${ids.Alpha}` })).json().locks[0]?.holder.name).toBe('Test Member');
      await owner.go(`/sites/tree/pages/${ids.Alpha}`);
      const banner = page.getByRole('alert').filter({ hasText: 'Edited by Test Member since' });
      await banner.waitFor();
      await expectAccessible(page);
      await banner.getByRole('button', { name: 'Take over' }).click();
      await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
      await second.page.getByLabel(exactly('Title')).fill('Typed while taken');
      await second.page.getByRole('button', { name: 'Save', exact: true }).click();
      const lost = second.page.getByRole('alert').filter({ hasText: 'took over this item' });
      await lost.waitFor();
      await lost.getByRole('button', { name: 'Copy' }).waitFor();
      expect(await second.page.getByLabel(exactly('Title')).inputValue()).toBe('Typed while taken');
      expect(await second.page.getByLabel(exactly('Title')).getAttribute('readonly')).not.toBeNull();
      expect(await second.page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
      await expectAccessible(second.page);
      expect((await api('GET', `/layout_pages/${ids.Alpha}`)).json().locales.en.title).toBe('Alpha three');

      // The owner, holding the lock now, adds a block of every type: each one's fields pass axe.
      for (const type of ['Content list', 'Content entry', 'Menu', 'Liquid']) {
        await choose(page, page, 'Type of block', type);
        await page.getByRole('button', { name: 'Add block' }).click();
      }
      await page.getByLabel('Filters').fill('fields.category=news');
      await expectAccessible(page);
      expect([...owner.problems, ...second.problems]).toEqual([]);
    } finally {
      await owner.close();
      await second.close();
    }
  }, 120_000);

  it('shows a second member who holds the page\'s edit lock, with read-only and no take-over for a developer', async () => {
    const api = (method: 'POST' | 'GET', url: string, payload?: object) => c.h.request({ method, url: `/api/admin${url}`, payload });
    expect((await api('POST', '/sites', { uid: 'locked', name: 'Locked', default_locale: 'en', locales: ['en'] })).statusCode).toBe(201);
    const layout = await api('POST', '/sites/locked/layouts', { name: 'main', source: LAYOUT });
    expect(layout.statusCode).toBe(201);
    const created = await api('POST', '/sites/locked/layout_pages', { layout: 'main', locales: { en: { title: 'About', slug: 'about' } } });
    expect(created.statusCode, created.body).toBe(201);
    const pageId = created.json().id;
    const developer = await createMember(c.h, [{ key: 'site_developer', target: 'locked' }]);
    const owner = await c.open();
    const second = await c.open();
    try {
      await owner.signIn();
      await owner.go(`/sites/locked/pages/${pageId}`);
      await owner.page.getByRole('button', { name: 'Save', exact: true }).waitFor();
      let holder = '';
      await expect.poll(async () => {
        const lock = (await api('GET', `/locks?resource_type=layout_page&resource_id=${pageId}`)).json().locks[0];
        holder = lock?.holder.name ?? '';
        return holder;
      }).not.toBe('');

      await second.go('/sign-in');
      await second.signIn(developer.email, developer.password);
      // A site role edits its site but neither creates nor deletes sites.
      await second.page.getByRole('navigation').getByRole('link', { name: 'Sites', exact: true }).click();
      await second.page.locator('main table tbody tr').filter({ hasText: 'locked' }).getByRole('button', { name: 'Edit' }).waitFor();
      expect(await second.page.getByRole('button', { name: 'New site' }).count()).toBe(0);
      expect(await second.page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
      await second.go(`/sites/locked/pages/${pageId}`);
      const banner = second.page.getByRole('alert').filter({ hasText: `Edited by ${holder} since` });
      await banner.waitFor();
      expect(await banner.getByRole('button', { name: 'Take over' }).count()).toBe(0);
      expect(await second.page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
      await expectAccessible(second.page);
      await banner.getByRole('button', { name: 'Open read-only' }).click();
      await second.page.getByRole('alert').filter({ hasText: 'Read-only' }).waitFor();
      expect(await second.page.getByLabel(exactly('Title')).getAttribute('readonly')).not.toBeNull();
      await expectAccessible(second.page);

      // The owner leaves the editor: the lock is released, and the developer's editor takes it when opened again.
      await owner.page.getByRole('link', { name: 'Back to the pages' }).click();
      await expect.poll(async () => (await api('GET', `/locks?resource_type=layout_page&resource_id=${pageId}`)).json().locks.length).toBe(0);
      await second.page.reload();
      await second.page.getByRole('button', { name: 'Save', exact: true }).waitFor();
      expect(await second.page.getByRole('alert').count()).toBe(0);
      // Leaving the page itself (not a route of the console) releases the lock too (keepalive).
      await expect.poll(async () => (await api('GET', `/locks?resource_type=layout_page&resource_id=${pageId}`)).json().locks[0]?.holder.name).toBe('Test Member');
      await second.page.goto('/sites/locked/');
      await expect.poll(async () => (await api('GET', `/locks?resource_type=layout_page&resource_id=${pageId}`)).json().locks.length).toBe(0);

      // The template editor too: the owner's open layout is read-only for the developer, CodeMirror included.
      await owner.go(`/sites/locked/design/layouts/${layout.json().id}`);
      await owner.page.getByRole('button', { name: 'Save', exact: true }).waitFor();
      await expect.poll(async () => (await api('GET', `/locks?resource_type=site_template&resource_id=${layout.json().id}`)).json().locks.length).toBe(1);
      await second.go(`/sites/locked/design/layouts/${layout.json().id}`);
      await second.page.getByRole('alert').filter({ hasText: `Edited by ${holder} since` }).waitFor();
      expect(await second.page.locator('[data-code-editor] .cm-content').getAttribute('contenteditable')).toBe('false');
      expect(await second.page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
      await expectAccessible(second.page);
      expect([...owner.problems, ...second.problems]).toEqual([]);
    } finally {
      await owner.close();
      await second.close();
    }
  }, 90_000);
});
