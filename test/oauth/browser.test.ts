import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import type { Harness } from '../helpers/harness.js';
import { startBrowserHarness, type BrowserHarness } from '../helpers/browser.js';
import { createClient, createRealm, createUser, USER_PASSWORD, type ClientFixture } from './fixtures.js';

describe('signing in through authorize in Chromium', () => {
  let env: BrowserHarness;
  let h: Harness;
  let base: string;
  let browser: Browser;
  let callbackServer: http.Server;
  let callback: string;
  let client: ClientFixture;
  const hits: string[] = [];

  beforeAll(async () => {
    env = await startBrowserHarness();
    ({ h, base, browser } = env);
    // The client application: a tiny listener that only records where it was sent.
    callbackServer = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Client</title><p>Signed in</p>');
    });
    await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
    callback = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
    const bank = await createRealm(h, 'bank');
    await createUser(h, bank, 'ana@bank.test');
    client = await createClient(h, 'bank', { redirect_uris: [callback] });
  }, 60_000);
  afterAll(async () => {
    // Each part is closed only if setup got as far as making it.
    if (callbackServer?.listening) await new Promise((resolve) => callbackServer.close(resolve));
    await env?.close();
  });

  it('goes from authorize to the login page, signs in and lands on the redirect URI with a code and the same state', async () => {
    const page = await browser.newPage();
    const state = 'st-8c1f "&<>';
    const query = new URLSearchParams({ response_type: 'code', client_id: client.uid, redirect_uri: callback, state, scope: 'public' });
    await page.goto(`${base}/realms/bank/oauth/authorize?${query}`);
    expect(new URL(page.url()).pathname).toBe('/realms/bank/login');
    await page.getByLabel(/email|user/i).first().fill('ana@bank.test');
    await page.getByLabel(/password/i).first().fill(USER_PASSWORD);
    await Promise.all([
      page.waitForURL((url) => url.toString().startsWith(callback)),
      page.locator('form button[type=submit], form input[type=submit]').first().click(),
    ]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('code')).toBeTruthy();
    expect(landed.searchParams.get('state')).toBe(state);
    expect(hits.some((hit) => hit.startsWith('/callback?'))).toBe(true);
    await page.close();
  }, 60_000);
});
