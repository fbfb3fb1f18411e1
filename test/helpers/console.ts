import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { startBrowserHarness, type BrowserHarness } from './browser.js';
import { OWNER_EMAIL, OWNER_PASSWORD } from './harness.js';
import { startSmtp, type SmtpListener } from './smtp.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type Locale = 'en' | 'es';
export type Scheme = 'light' | 'dark';

export interface ConsoleHarness extends BrowserHarness {
  /** A new browser context (own cookies and storage) in that language and colour scheme, with its page and problems. */
  open(options?: { locale?: Locale; scheme?: Scheme }): Promise<ConsolePage>;
}

export interface ConsolePage {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors (an untranslated message logs one) and requests that left the origin. */
  problems: string[];
  /** Signs in through the sign-in page as the owner (or another member) and waits for the first screen. */
  signIn(email?: string, password?: string): Promise<void>;
  /** Goes to a console path (`/realms`), relative to /admin. */
  go(path: string): Promise<void>;
  close(): Promise<void>;
}

/** The server on the embedded database with its console built, and Chromium; `open` gives a fresh browser profile. */
export async function startConsole(env: Record<string, string> = {}): Promise<ConsoleHarness> {
  const harness = await startBrowserHarness(env);
  return {
    ...harness,
    async open({ locale = 'en', scheme = 'light' } = {}) {
      const context = await harness.browser.newContext({ baseURL: harness.base, locale, colorScheme: scheme, reducedMotion: 'reduce' });
      // Playwright's 30 s for an action was once too short in CI on a machine at 2.5 times its usual slowness, two
      // Chromiums and real server processes sharing two cores: a click waited 30 s for its link to be visible and stable.
      // A journey's own timeout (60 to 120 s) still bounds it.
      context.setDefaultTimeout(60_000);
      // The console's own choices start from the browser's: Accept-Language and prefers-color-scheme.
      const page = await context.newPage();
      const problems: string[] = [];
      // Chromium logs every 4xx answer as "Failed to load resource"; the console's own errors are what counts.
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('request', (request) => { if (!request.url().startsWith(harness.base) && !request.url().startsWith('data:')) problems.push(`left the origin: ${request.url()}`); });
      const go = async (path: string) => { await page.goto(`/admin${path}`); };
      return {
        context, page, problems, go,
        async signIn(email = OWNER_EMAIL, password = OWNER_PASSWORD) {
          if (!page.url().includes('/admin/sign-in')) await go('/sign-in');
          await page.locator('input[type=email]').fill(email);
          await page.locator('input[type=password]').fill(password);
          await page.locator('form button[type=submit]').click();
          await page.waitForURL((url) => !url.pathname.startsWith('/admin/sign-in'));
          await page.locator('main h1').first().waitFor();
        },
        close: () => context.close(),
      };
    },
  };
}

/** startConsole with its mail going to a real SMTP listener; `close` stops both. */
export async function startConsoleWithSmtp(): Promise<{ console: ConsoleHarness; smtp: SmtpListener; close(): Promise<void> }> {
  const smtp = await startSmtp();
  const harness = await startConsole({ SMTP_URL: smtp.url });
  return { console: harness, smtp, close: async () => { await harness.close(); await smtp.close(); } };
}

/** The WCAG 2.1 A and AA violations axe-core finds on the page as it is now (open dialogs included), one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (an injected <script> would be refused).
  if (!await page.evaluate(() => 'axe' in window)) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; help: string; nodes: { target: unknown[]; html: string; failureSummary?: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations.map((violation) => `${violation.id} (${violation.help}): ${violation.nodes.slice(0, 3).map((node) => `${node.html.slice(0, 120)} ${(node.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)}`).join(' | ')}`);
  });
  return violations;
}

/** Runs each journey in English and Spanish, light and dark: the issue asks the same journeys in both languages and dark mode. */
export const VARIANTS: { locale: Locale; scheme: Scheme }[] = [
  { locale: 'en', scheme: 'light' }, { locale: 'es', scheme: 'dark' },
];
