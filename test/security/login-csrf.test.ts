import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_EMAIL, OWNER_PASSWORD, startHarness, type Harness } from '../helpers/harness.js';

/** Login CSRF: another site's page must not sign a visitor's browser in to the attacker's admin account. */
describe('admin sign-in refuses what another site can send', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  const signIn = (headers: Record<string, string>, payload: string) =>
    h.request({ method: 'POST', url: '/api/admin/session', token: null, headers, payload });
  const json = JSON.stringify({ email: OWNER_EMAIL, password: OWNER_PASSWORD });

  it('answers a form post with 415 and sets no cookie', async () => {
    const form = `email=${encodeURIComponent(OWNER_EMAIL)}&password=${encodeURIComponent(OWNER_PASSWORD)}`;
    const res = await signIn({ 'content-type': 'application/x-www-form-urlencoded' }, form);
    expect(res.statusCode).toBe(415);
    expect(res.headers['set-cookie']).toBeUndefined();
    // text/plain is the other type a form may send without a preflight.
    expect((await signIn({ 'content-type': 'text/plain' }, json)).statusCode).toBe(415);
  });

  it('answers a request the browser marks as from another site with 403 and sets no cookie', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const res = await signIn({ 'content-type': 'application/json', 'sec-fetch-site': site }, json);
      expect(res.statusCode).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('signs in from the console itself and from clients that send no Sec-Fetch-Site', async () => {
    for (const headers of [{ 'sec-fetch-site': 'same-origin' }, {}] as Record<string, string>[]) {
      const res = await signIn({ 'content-type': 'application/json; charset=utf-8', ...headers }, json);
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['set-cookie'])).toContain('HttpOnly');
    }
  });
});
