import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_HOURS } from '../../src/admin-auth/sessions.js';
import { consoleRoutes } from '../../src/console/routes/console.js';
import { realms } from '../../src/tables/realms.js';
import { axeViolations, startConsole, VARIANTS, type ConsoleHarness } from '../helpers/console.js';

// The console runs against a server on the embedded database (issue 15); the PostgreSQL run skips it.
describe.skipIf(!!process.env.DATABASE_URL)('admin console: serving, sign-in, session, realms', () => {
  let c: ConsoleHarness;
  beforeAll(async () => { c = await startConsole(); }, 90_000);
  afterAll(async () => { await c?.close(); });

  it('serves the build at /admin: precompressed, hashed assets immutable, index.html no-cache, HTML fallback for GET only', async () => {
    expect((await c.h.app.inject({ url: '/admin' })).statusCode).toBe(200);

    const index = await c.h.app.inject({ url: '/admin/', headers: { 'accept-encoding': 'br, gzip' } });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    expect(index.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    const html = (await c.h.app.inject({ url: '/admin/' })).body;
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await c.h.app.inject({ url: script, headers: { 'accept-encoding': 'br' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await c.h.app.inject({ url: script, headers: { 'accept-encoding': 'gzip' } })).headers['content-encoding']).toBe('gzip');

    const deep = await c.h.app.inject({ url: '/admin/realms/some-realm?q=x' });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('<div id="root">');
    expect((await c.h.app.inject({ method: 'POST', url: '/admin/realms' })).statusCode).toBe(404);
    expect((await c.h.app.inject({ url: '/admin/assets/missing-abc123.js' })).statusCode).toBe(404);
  });

  it('starts without the build, says so in its log, and answers /admin with 503 and how to build it', async () => {
    const lines: string[] = [];
    const app = Fastify();
    await app.register(consoleRoutes({ log: { warn: (line: string) => lines.push(line) } as never }, '/nonexistent/admin/'));
    const answer = await app.inject({ url: '/admin/realms' });
    expect(answer.statusCode).toBe(503);
    expect(answer.body).toContain('npm run build');
    expect((await app.inject({ url: '/admin' })).statusCode).toBe(503);
    expect(lines).toEqual([expect.stringContaining('not built')]);
    await app.close();
  });

  for (const { locale, scheme } of VARIANTS) {
    it(`signs in, creates, edits and deletes a realm with no accessibility violation (${locale}, ${scheme})`, async () => {
      const { page, problems, signIn, go, close } = await c.open({ locale, scheme });
      try {
        await go('/');
        await page.waitForURL(/\/admin\/sign-in/);
        expect(await page.locator('html').getAttribute('lang')).toBe(locale);
        expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
        expect(await axeViolations(page)).toEqual([]);
        await signIn();
        expect(await axeViolations(page)).toEqual([]);

        const uid = `realm-${locale}`;
        await page.getByRole('navigation').getByRole('link', { name: locale === 'en' ? 'Realms' : 'Reinos' }).click();
        await page.getByRole('button', { name: locale === 'en' ? 'New realm' : 'Nuevo reino' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await dialog.getByLabel(locale === 'en' ? 'Identifier' : 'Identificador').fill(uid);
        await dialog.getByLabel(locale === 'en' ? 'Name' : 'Nombre').fill('مرحبا 🌍 <script>window.__xss=1</script>');
        await dialog.locator('button[type=submit]').click();
        await page.waitForURL(new RegExp(`/admin/realms/${uid}$`));
        await page.getByRole('heading', { level: 1, name: /مرحبا 🌍 <script>/ }).waitFor();
        expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
        expect(await axeViolations(page)).toEqual([]);

        const name = page.getByLabel(locale === 'en' ? 'Name' : 'Nombre');
        await name.fill('Renamed realm');
        await page.locator('main form button[type=submit]').click();
        await page.getByRole('heading', { level: 1, name: 'Renamed realm' }).waitFor();
        expect((await c.h.request({ url: `/api/admin/realms/${uid}` })).json().name).toBe('Renamed realm');
        // The save's toast sits at the top, over the header, and takes no click but its close button's: what lies
        // under it (a Save button) stays usable.
        const toast = page.locator('.mantine-Notification-root').first();
        await toast.waitFor();
        const box = (await toast.boundingBox())!;
        expect(box.y + box.height).toBeLessThan(120);
        const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        expect(await page.evaluate(({ x, y }) => Boolean(document.elementFromPoint(x, y)?.closest('.mantine-Notification-root')), point)).toBe(false);

        await page.getByRole('button', { name: locale === 'en' ? 'Delete' : 'Eliminar' }).first().click();
        await page.getByRole('dialog').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('dialog').getByRole('button', { name: locale === 'en' ? 'Delete' : 'Eliminar' }).click();
        await page.waitForURL(/\/admin\/realms$/);
        expect((await c.h.request({ url: `/api/admin/realms/${uid}` })).statusCode).toBe(404);

        // A stale link to the deleted realm shows the not-found page.
        await go(`/realms/${uid}`);
        await page.getByRole('heading', { level: 1, name: locale === 'en' ? 'Not found' : 'No encontrado' }).waitFor();
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }

  for (const { locale, scheme } of VARIANTS) {
    it(`says a wrong email or password is wrong, and how long to wait when sign-in is locked (${locale}, ${scheme})`, async () => {
      const text = locale === 'en'
        ? { wrong: 'Wrong email or password.', locked: 'Too many attempts. Try again in 15 minutes.' }
        : { wrong: 'Correo o contraseña incorrectos.', locked: 'Demasiados intentos. Vuelve a intentarlo dentro de 15 minutos.' };
      const email = `locked-${locale}@atrium.test`;
      const { page, problems, go, close } = await c.open({ locale, scheme });
      try {
        await go('/sign-in');
        const attempt = async () => {
          await page.locator('input[type=email]').fill(email);
          await page.locator('input[type=password]').fill('not the password');
          await page.locator('form button[type=submit]').click();
        };
        await attempt();
        await page.getByRole('alert').getByText(text.wrong, { exact: true }).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        // Nine more failures reach the limit of ten: the next attempt is refused with Retry-After (15 minutes).
        for (let i = 0; i < 9; i++) {
          expect((await c.h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email, password: 'not the password' } })).statusCode).toBe(401);
        }
        await attempt();
        await page.getByRole('alert').getByText(text.locked, { exact: true }).waitFor();
        expect(page.url()).toContain('/admin/sign-in');
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }

  it('refuses a write without the CSRF header, keeps the session over a reload, and signs in again at the same URL after expiry', async () => {
    const { page, signIn, go, close } = await c.open();
    try {
      await signIn();
      const refused = await page.evaluate(async () => (await fetch('/api/admin/realms', {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid: 'no-csrf', name: 'No CSRF' }),
      })).status);
      expect(refused).toBe(403);

      await go('/realms?q=renamed');
      await page.reload();
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.getByRole('button', { name: 'New realm' }).click();
      await page.getByRole('dialog').getByLabel('Identifier').fill('after-reload');
      await page.getByRole('dialog').getByLabel('Name').fill('After reload');
      await page.getByRole('dialog').locator('button[type=submit]').click();
      await page.waitForURL(/\/admin\/realms\/after-reload$/);

      await page.getByRole('navigation').getByRole('link', { name: 'Realms' }).click();
      await page.getByRole('link', { name: 'after-reload' }).waitFor();
      c.h.clock.advance((SESSION_HOURS + 1) * 3_600_000);
      await page.getByLabel('Search').fill('after');
      await page.waitForURL(/\/admin\/sign-in/);
      await page.getByRole('status').filter({ hasText: 'Your session has ended' }).waitFor();
      await signIn();
      expect(page.url()).toMatch(/\/admin\/realms\?q=after$/);
      await page.getByRole('link', { name: 'after-reload' }).waitFor();
    } finally {
      await close();
    }
  }, 60_000);

  it('works by keyboard: ? lists the shortcuts, Esc closes, Ctrl+K goes to a screen, / focuses the search', async () => {
    const { page, problems, signIn, close } = await c.open();
    try {
      await signIn();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      await page.keyboard.press('Shift+?');
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await help.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });

      await page.keyboard.press('Control+k');
      const spotlightSearch = page.getByPlaceholder('Go to…');
      await spotlightSearch.waitFor();
      await expect.poll(() => spotlightSearch.evaluate((input) => input === document.activeElement)).toBe(true);
      await page.keyboard.type('Realms');
      await page.locator('.mantine-Spotlight-action', { hasText: 'Realms' }).first().waitFor();
      await page.keyboard.press('ArrowDown');
      await page.locator('.mantine-Spotlight-action[data-selected]').waitFor();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/admin\/realms$/);

      await page.locator('[data-list-search]').waitFor();
      await page.keyboard.press('/');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.dataset.listSearch)).toBe('true');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('remembers dark mode and Spanish over a reload, with the scheme set before the app runs', async () => {
    const { page, signIn, go, close } = await c.open({ locale: 'en', scheme: 'light' });
    try {
      await signIn();
      await page.locator('header label', { hasText: 'Dark' }).click();
      await page.getByRole('combobox', { name: 'Language' }).click();
      await page.getByRole('option', { name: 'Español' }).click();
      await page.locator('html[lang=es]').waitFor({ state: 'attached' });
      await go('/realms');
      await page.waitForLoadState('domcontentloaded');
      expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
      await page.getByRole('heading', { level: 1, name: 'Reinos' }).waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('es');
    } finally {
      await close();
    }
  }, 60_000);

  it('keeps the realm list paginated with 1,000 realms, its page and search in the URL', async () => {
    const now = new Date();
    await c.h.ctx.db.insert(realms).values(Array.from({ length: 1000 }, (_, i) => ({ uid: `bulk-${String(i).padStart(4, '0')}`, name: `Bulk realm ${i}`, createdAt: now, updatedAt: now })));
    const { page, signIn, close } = await c.open();
    const perPage: string[] = [];
    page.on('request', (request) => { if (request.url().includes('/api/admin/realms?')) perPage.push(new URL(request.url()).searchParams.get('per_page') ?? ''); });
    try {
      await signIn();
      await page.getByRole('navigation').getByRole('link', { name: 'Realms' }).click();
      await page.locator('main table tbody tr').nth(19).waitFor();
      expect(await page.locator('main table tbody tr').count()).toBe(20);
      await page.getByText(/1,00\d in all/).waitFor();
      await page.getByRole('button', { name: /^Page 2 of 5\d$/ }).click();
      await page.waitForURL(/page=2/);
      await page.getByLabel('Search').fill('bulk-0999');
      await page.locator('main table tbody tr').filter({ hasText: 'bulk-0999' }).waitFor();
      await page.waitForURL(/q=bulk-0999/);
      expect(await page.locator('main table tbody tr').count()).toBe(1);
      expect(perPage.length).toBeGreaterThan(0);
      expect(perPage.every((value) => Number(value) <= 20)).toBe(true);
    } finally {
      await close();
    }
  }, 60_000);
});
