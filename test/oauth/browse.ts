import { expect } from 'vitest';
import { CookieJar } from '../helpers/cookie-jar.js';

/** The name/value pairs of a page's form inputs (hidden fields included). */
export function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const tag of html.match(/<input\b[^>]*>/g) ?? []) {
    const name = /\bname="([^"]*)"/.exec(tag)?.[1];
    if (name) fields[name] = decodeEntities(/\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '');
  }
  return fields;
}

function decodeEntities(text: string): string {
  return text.replace(/&#(\d+);/g, (_m, n) => String.fromCharCode(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, n) => String.fromCharCode(parseInt(n, 16)))
    .replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * Follows redirects from `start` like a browser with a cookie jar; sent to a realm's login page, it fills
 * in the form and signs in. Stops at the first address under `stopAt` (the client's redirect URI).
 */
export async function browse(jar: CookieJar, start: string, login: { username: string; password: string }, stopAt: string): Promise<URL> {
  let url = new URL(start, jar.base);
  for (let hops = 0; hops < 10; hops++) {
    if (url.toString().startsWith(stopAt)) return url;
    let res = await jar.fetch(url.toString());
    if (res.status === 200 && /\/login$/.test(url.pathname)) {
      const fields = formFields(await res.text());
      res = await jar.post(url.toString(), { ...fields, username: login.username, password: login.password });
    }
    expect([302, 303], `${url}: ${res.status}`).toContain(res.status);
    url = new URL(res.headers.get('location')!, url);
  }
  throw new Error('too many redirects');
}

export { CookieJar };
