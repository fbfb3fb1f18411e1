import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startBrowserHarness, type BrowserHarness } from '../helpers/browser.js';
import type { Harness } from '../helpers/harness.js';

describe('the admin reference page in Chromium', () => {
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
});
