import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { inputValue } from '../helpers/cookie-jar.js';
import type { Harness } from '../helpers/harness.js';

const cookiesOf = (res: LightMyRequestResponse) => res.cookies.map((c) => `${c.name}=${c.value}`);

/**
 * A browser's visit of a realm page and its form: the page (GET), then its form (hidden fields and `fields`) posted with
 * the cookies so far, from `remoteAddress` (the harness's default, 127.0.0.1, unless given).
 */
export async function submitForm(h: Harness, path: string, fields: Record<string, string>, cookies: string[] = [], remoteAddress?: string): Promise<LightMyRequestResponse & { jar: string[] }> {
  const page = await h.request({ method: 'GET', url: path, token: null, headers: cookies.length ? { cookie: cookies.join('; ') } : {} });
  expect(page.statusCode, page.body).toBe(200);
  const jar = [...cookies, ...cookiesOf(page)];
  const res = await h.request({
    method: 'POST', url: path, token: null, remoteAddress,
    headers: { cookie: jar.join('; '), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      csrf_token: inputValue(page.body, 'csrf_token') ?? '', redirect_uri: inputValue(page.body, 'redirect_uri') ?? '', ...fields,
    }).toString(),
  });
  return Object.assign(res, { jar: [...jar.filter((c) => !res.cookies.some((s) => c.startsWith(`${s.name}=`))), ...cookiesOf(res)] });
}

/** Asks for a code on the realm's otp_login page. */
export const requestCodeAtPage = (h: Harness, realmUid: string, identifier: string, query = '', remoteAddress?: string) =>
  submitForm(h, `/realms/${realmUid}/otp_login${query}`, { identifier }, [], remoteAddress);

/** POST verify_otp_code, without any credential. */
export const verify = (h: Harness, realmUid: string, identifier: string, code: string) => h.request({
  method: 'POST', url: `/api/customers/realms/${realmUid}/verify_otp_code`, token: null, payload: { identifier, code },
});

/** A 6-digit code that is not this one. */
export const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
