import { existsSync } from 'node:fs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Chromium executable the browser tests launch, found once per run by test/global-setup.ts. */
    chromiumPath: string;
  }
}

/**
 * The Chromium to drive: CHROMIUM_PATH when set, then Debian's when installed, otherwise the one shipped
 * inside the npm package @sparticuz/chromium, which unpacks it into the temp folder on first use (a few seconds).
 */
export async function findChromium(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  const { default: packaged } = await import('@sparticuz/chromium');
  return packaged.executablePath();
}
