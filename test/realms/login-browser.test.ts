import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startBrowserHarness, type BrowserHarness } from '../helpers/browser.js';
import type { Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';

describe('realm sign-in page in Chromium', () => {
  let env: BrowserHarness;
  let h: Harness;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    env = await startBrowserHarness();
    ({ h, base, browser } = env);
  });
  afterAll(async () => { await env?.close(); });

  it('signs in with the labelled fields and lands on the redirect path', async () => {
    const realm = await makeRealm(h, { name: 'Personal Banking' });
    await makeRealmUser(h, realm.uid, { email: 'ada@example.com', username: 'ada', first_name: 'Ada', last_name: 'Lovelace' });
    const target = `/realms/${realm.uid}/profile?from=browser`;
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/realms/${realm.uid}/login?redirect_uri=${encodeURIComponent(target)}`);
    expect(await page.title()).toBe('Sign in · Personal Banking');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to Personal Banking');

    // A wrong password first: the error is announced and tied to the fields.
    await page.getByLabel('Email or username').fill('ada');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('alert').textContent()).toBe('The email, username or password is not correct.');
    expect(await page.getByLabel('Email or username').getAttribute('aria-describedby')).toBe('login-error');
    expect(await page.title()).toBe('Error: Sign in · Personal Banking');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');

    await page.getByLabel('Password').fill('a long secret 1');
    await Promise.all([page.waitForURL(`${base}${target}`), page.getByRole('button', { name: 'Sign in' }).click()]);
    expect(page.url()).toBe(`${base}${target}`);
    expect(await page.locator('main').textContent()).toContain('Signed in as Ada Lovelace');
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === `atrium_realm_${realm.uid}`)).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    // And out again through the sign-out page's form.
    await page.getByRole('link', { name: 'Sign out' }).click();
    await Promise.all([page.waitForURL(`${base}/realms/${realm.uid}/login`), page.getByRole('button', { name: 'Sign out' }).click()]);
    expect((await page.context().cookies()).find((c) => c.name === `atrium_realm_${realm.uid}`)).toBeUndefined();
  });
});
