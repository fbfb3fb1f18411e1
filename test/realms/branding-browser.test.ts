import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startBrowserHarness, type BrowserHarness } from '../helpers/browser.js';
import type { Harness } from '../helpers/harness.js';
import { makeRealm } from '../helpers/realms.js';

// A 1×1 PNG: the logo, served from another origin.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const LOGO = 'https://cdn.brand.test/acme/logo.png';

describe('a branded realm page in Chromium', () => {
  let env: BrowserHarness;
  let h: Harness;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    env = await startBrowserHarness();
    ({ h, base, browser } = env);
  });
  afterAll(async () => { await env?.close(); });

  /** A page whose requests to the logo's origin are answered here (the browser stays off the network); what reached it and what the CSP refused. */
  async function openPage(locale: string) {
    const context = await browser.newContext({ locale });
    const logoRequests: string[] = [];
    await context.route('https://cdn.brand.test/**', (route) => {
      logoRequests.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'image/png', body: PNG });
    });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) violations.push(message.text()); });
    return { page, logoRequests, violations };
  }

  it('shows the logo from its https origin, the brand colour on the button with readable text, and the page title, in Spanish', async () => {
    const realm = await makeRealm(h, {
      name: 'Acme', settings: { branding: { logo_url: LOGO, primary_color: '#0f766e', page_title: 'Acme Portal' } },
    });
    const { page, logoRequests, violations } = await openPage('es-MX');
    await page.goto(`${base}/realms/${realm.uid}/login`);

    expect(await page.title()).toBe('Iniciar sesión · Acme Portal');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    const logo = page.getByRole('img', { name: 'Acme' });
    expect(await logo.getAttribute('src')).toBe(LOGO);
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    expect(logoRequests).toEqual([LOGO]);
    expect(violations).toEqual([]);

    const button = page.getByRole('button', { name: 'Iniciar sesión' });
    expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(15, 118, 110)');
    expect(await button.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 255)');
    const link = page.getByRole('link', { name: '¿Olvidaste tu contraseña?' });
    expect(await link.evaluate((el) => getComputedStyle(el).textDecorationColor)).toBe('rgb(15, 118, 110)');
    await page.context().close();
  });

  it('writes black text on a light brand colour, and has no logo when none is set', async () => {
    const realm = await makeRealm(h, { name: 'Sunny', settings: { branding: { primary_color: '#facc15' } } });
    const { page, logoRequests } = await openPage('en-US');
    await page.goto(`${base}/realms/${realm.uid}/login`);
    expect(await page.title()).toBe('Sign in · Sunny');
    const button = page.getByRole('button', { name: 'Sign in' });
    expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(250, 204, 21)');
    expect(await button.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(0, 0, 0)');
    expect(await page.getByRole('img').count()).toBe(0);
    expect(logoRequests).toEqual([]);
    await page.context().close();
  });
});
