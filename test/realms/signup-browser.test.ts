import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startBrowserHarness, type BrowserHarness } from '../helpers/browser.js';
import type { Harness } from '../helpers/harness.js';
import { makeRealm } from '../helpers/realms.js';
import { activationLinkIn, startSmtp, type SmtpListener } from '../helpers/smtp.js';

describe('sign-up with an activation email in Chromium', () => {
  let env: BrowserHarness;
  let smtp: SmtpListener;
  let h: Harness;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    env = await startBrowserHarness({ SMTP_URL: smtp.url });
    ({ h, base, browser } = env);
  });
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });

  it('signs up from the login page, follows the mailed link, confirms and lands signed in on the profile', async () => {
    const realm = await makeRealm(h, { name: 'Personal Banking', settings: { activation_mode: 'activation_email' } });
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/realms/${realm.uid}/login`);
    await Promise.all([page.waitForURL(`${base}/realms/${realm.uid}/signup`), page.getByRole('link', { name: 'Create an account' }).click()]);
    expect(await page.title()).toBe('Create an account · Personal Banking');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Username (optional)').fill('grace');
    await page.getByLabel('Password').fill('a long secret 1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Check your email');
    expect(await page.getByRole('status').textContent()).toContain('We sent a link to grace@example.com');
    expect((await page.context().cookies()).find((c) => c.name === `atrium_realm_${realm.uid}`)).toBeUndefined();

    const link = activationLinkIn(await smtp.next('grace@example.com'));
    await page.goto(`${base}${link}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Activate your Personal Banking account');
    await Promise.all([page.waitForURL(`${base}/realms/${realm.uid}/profile`), page.getByRole('button', { name: 'Activate my account' }).click()]);
    const main = await page.locator('main').textContent();
    expect(main).toContain('Signed in as grace@example.com');
    expect(main).toContain('grace');
    const session = (await page.context().cookies()).find((c) => c.name === `atrium_realm_${realm.uid}`);
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    // The link is used up: following it again says so.
    const again = await page.goto(`${base}${link}`);
    expect(again?.status()).toBe(410);
    expect(await page.getByRole('alert').textContent()).toContain('This activation link was already used');
  });
});
