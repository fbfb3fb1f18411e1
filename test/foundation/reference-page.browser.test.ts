import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startBrowserHarness, type BrowserHarness } from '../helpers/browser.js';
import { OWNER_EMAIL, OWNER_PASSWORD, type Harness } from '../helpers/harness.js';

// Swagger UI in Chromium runs once, against the embedded database, as the console's journeys do: what it sends and what
// the server answers are the catalog's, tested on both databases by the API tests and the fuzzer.
describe.skipIf(!!process.env.DATABASE_URL)('the admin reference page in Chromium', () => {
  let env: BrowserHarness;
  let h: Harness;
  let base: string;
  let browser: Browser;
  beforeAll(async () => {
    env = await startBrowserHarness();
    ({ h, base, browser } = env);
  });
  afterAll(async () => { await env?.close(); });

  it('lists sections and models, takes a token and executes an operation', async () => {
    // Swagger UI renders sections as they come into view: a tall window shows the first several at once.
    const page = await browser.newPage({ viewport: { width: 1280, height: 4000 } });
    await page.goto(`${base}/api/admin/docs`);
    await page.getByRole('heading', { name: /Atrium admin API/ }).waitFor();
    for (const section of ['Session', 'Team', 'Roles', 'API access']) {
      await page.locator('.opblock-tag', { hasText: section }).first().waitFor();
    }
    await page.locator('section.models, .models').first().waitFor();

    await page.getByRole('button', { name: /Authorize/ }).first().click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('input').first().fill(h.ownerToken);
    await dialog.locator('button.modal-btn.authorize').first().click();
    await dialog.locator('button.btn-done').first().click();

    const operation = page.locator('.opblock-get', { has: page.locator('[data-path="/roles"]') }).first();
    await operation.locator('.opblock-summary').click();
    const tryItOut = operation.getByRole('button', { name: 'Try it out' });
    if (await tryItOut.count()) await tryItOut.click();
    const answered = page.waitForResponse((res) => res.url().startsWith(`${base}/api/admin/roles`));
    await operation.getByRole('button', { name: 'Execute' }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.request().headers().authorization).toBe(`Bearer ${h.ownerToken}`);
    await operation.locator('.live-responses-table .response-col_status', { hasText: '200' }).first().waitFor();
    await expect.poll(() => operation.locator('.live-responses-table').innerText()).toContain('account_owner');
    await page.close();
  });

  it('executes a write with the console\'s session cookie, sending the session\'s CSRF token', async () => {
    const created = await h.request({ method: 'POST', url: '/api/admin/content/spaces', payload: { uid: 'tried', name: 'Tried', default_locale: 'en', locales: ['en'] } });
    expect(created.statusCode, created.body).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 4000 } });
    const signedIn = await context.request.post(`${base}/api/admin/session`, { data: { email: OWNER_EMAIL, password: OWNER_PASSWORD } });
    expect(signedIn.status()).toBe(200);
    const { csrf_token: csrf } = await signedIn.json();
    const page = await context.newPage();
    await page.goto(`${base}/api/admin/docs#/Content/deleteAContentSpace`);
    const operation = page.locator('.opblock-delete', { has: page.locator('[data-path="/content/spaces/{space_uid}"]') }).first();
    await operation.waitFor();
    if (!(await operation.getByRole('button', { name: 'Execute' }).count())) await operation.locator('.opblock-summary').click();
    const tryItOut = operation.getByRole('button', { name: 'Try it out' });
    if (await tryItOut.count()) await tryItOut.click();
    await operation.locator('input[placeholder="space_uid"]').fill('tried');
    const answered = page.waitForResponse((res) => res.url() === `${base}/api/admin/content/spaces/tried`);
    await operation.getByRole('button', { name: 'Execute' }).click();
    const response = await answered;
    expect(response.status()).toBe(204);
    expect(response.request().headers()['x-csrf-token']).toBe(csrf);
    expect((await h.request({ method: 'GET', url: '/api/admin/content/spaces/tried' })).statusCode).toBe(404);
    await context.close();
  });
});
