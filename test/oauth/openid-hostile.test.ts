import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { createClient, createRealm, postForm, type ClientFixture } from './fixtures.js';

/** Issue 31, "Bad input": the OpenID Connect endpoints (outside the catalogs, so outside the fuzzer) answer hostile input with a 4xx. */
describe('OpenID Connect endpoints under hostile input', () => {
  let h: Harness;
  let app: ClientFixture;

  beforeAll(async () => {
    h = await startHarness();
    await createRealm(h, 'bank');
    await h.request({ method: 'PUT', url: '/api/admin/realms/bank', payload: { settings: { openid_connect_enabled: true } } });
    app = await createClient(h, 'bank', { scopes: ['openid', 'offline_access'] });
  });
  afterAll(async () => { await h?.close(); });

  const credentials = () => ({ client_id: app.uid, client_secret: app.secret });
  const big = 'x'.repeat(900 * 1024);

  it('answers a NUL byte, a near-megabyte value and a repeated field with a 4xx at every endpoint, never a 500', async () => {
    for (const value of ['a\u0000b', big]) {
      const answers = [
        await postForm(h, '/realms/bank/oauth/token', { grant_type: 'refresh_token', refresh_token: value, ...credentials() }),
        await postForm(h, '/realms/bank/oauth/introspect', { token: value, ...credentials() }),
        await postForm(h, '/realms/bank/oauth/revoke', { token: value, ...credentials() }),
        await postForm(h, '/realms/bank/oauth/logout', { id_token_hint: value }),
        await h.request({ method: 'GET', url: '/realms/bank/oauth/userinfo', token: value.length > 1000 ? big.slice(0, 8000) : 'a\u0001b' }),
      ];
      for (const answer of answers) expect(answer.statusCode, answer.body.slice(0, 200)).toBeLessThan(500);
      expect(answers[0].statusCode).toBe(400);
      // A NUL byte is refused before any endpoint sees it (the server-wide guard: 400); a long token is merely unknown.
      if (value === big) expect(answers[1].json()).toEqual({ active: false });
      else expect(answers[1].statusCode).toBe(400);
      expect(answers[3].statusCode).toBe(400);
      expect(answers[4].statusCode).toBe(401);
    }
    const repeated = await h.request({
      method: 'POST', url: '/realms/bank/oauth/token', token: null, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=refresh_token&refresh_token=a&refresh_token=b&client_id=${app.uid}&client_secret=${app.secret}`,
    });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json().error).toBe('invalid_request');
  });

  it('refuses a hint that is not a JWT of the realm, whatever its shape', async () => {
    for (const hint of ['', '.', '..', 'a.b.c', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.', `${'eyJ'.repeat(3)}.${'a'.repeat(10)}.`]) {
      const res = await h.request({ method: 'GET', url: `/realms/bank/oauth/logout?${new URLSearchParams({ id_token_hint: hint })}`, token: null });
      expect(res.statusCode, hint).toBe(400);
    }
  });

  it('answers an unknown realm with 404 at each OpenID Connect address', async () => {
    for (const path of ['/.well-known/openid-configuration', '/oauth/jwks', '/oauth/userinfo', '/oauth/logout']) {
      expect((await h.request({ method: 'GET', url: `/realms/nowhere${path}`, token: null })).statusCode, path).toBe(404);
    }
    expect((await postForm(h, '/realms/nowhere/oauth/introspect', { token: 'x', ...credentials() })).statusCode).toBe(404);
  });
});
