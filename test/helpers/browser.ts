import { inject } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { findChromium } from './chromium.js';
import { startHarness, type Harness } from './harness.js';
import { listen } from './server.js';

/** Chromium driven by playwright-core; flags keep it off the (closed) network. Fails within 30 s with the reason. */
export async function launchBrowser(): Promise<Browser> {
  // Found by the run's global setup; a file run without it (another config) finds it here.
  const executablePath = inject('chromiumPath') ?? await findChromium();
  try {
    return await chromium.launch({
      executablePath,
      headless: true,
      timeout: 30_000,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
  } catch (error) {
    throw new Error(`Chromium at ${executablePath} did not start (set CHROMIUM_PATH to another browser, or delete a half-unpacked one to unpack it again): ${(error as Error).message}`);
  }
}

export interface BrowserHarness {
  h: Harness;
  /** The app's base address on loopback. */
  base: string;
  browser: Browser;
  close(): Promise<void>;
}

/** The application (with those settings) on a real loopback port and a Chromium to drive it; on failure, nothing is left running. */
export async function startBrowserHarness(env: Record<string, string> = {}): Promise<BrowserHarness> {
  const h = await startHarness(env);
  let browser: Browser;
  let base: string;
  try {
    base = await listen(h);
    browser = await launchBrowser();
  } catch (error) {
    await h.close();
    throw error;
  }
  return {
    h, base, browser,
    close: async () => {
      await browser.close();
      await h.close();
    },
  };
}
