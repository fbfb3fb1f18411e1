import { chromium, type Browser } from 'playwright-core';
import { startHarness, type Harness } from './harness.js';
import { listen } from './server.js';

/** Debian's Chromium, driven by playwright-core; flags keep it off the (closed) network. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

export interface BrowserHarness {
  h: Harness;
  /** The app's base address on loopback. */
  base: string;
  browser: Browser;
  close(): Promise<void>;
}

/** The application on a real loopback port and a Chromium to drive it. */
export async function startBrowserHarness(): Promise<BrowserHarness> {
  const h = await startHarness();
  const base = await listen(h);
  // Without a browser the harness is closed here, its database and temporary folder with it.
  const browser = await launchBrowser().catch(async (err) => {
    await h.close();
    throw err;
  });
  return {
    h, base, browser,
    close: async () => {
      await browser.close();
      await h.close();
    },
  };
}
