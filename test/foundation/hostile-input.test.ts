import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { inputValue } from '../helpers/cookie-jar.js';

const PASSWORD = 'a long secret 1';

describe('hostile input gets a 4xx, never a 500', () => {
  let h: Harness;
  let realm: { uid: string };
  let user: { id: number; email: string };

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
    user = await makeRealmUser(h, realm.uid);
  });
  afterAll(async () => { await h?.close(); });

  const validationFailure = (res: { statusCode: number; json(): unknown }, field: string) => {
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: [expect.any(String)], details: [{ field, messages: [expect.any(String)] }] });
  };

  describe('integers beyond the 32-bit columns', () => {
    it('refuses ids out of range in the path with 422', async () => {
      for (const url of [
        '/api/admin/team_members/99999999999', '/api/admin/team_members/2147483648', '/api/admin/team_members/1e309',
        '/api/admin/team_members/-1e309', '/api/admin/roles/99999999999',
        '/api/admin/api_access/applications/99999999999', `/api/admin/customers/${realm.uid}/users/99999999999`,
        `/api/admin/customers/${realm.uid}/oauth_clients/99999999999`,
      ]) {
        validationFailure(await h.request({ method: 'GET', url }), 'id');
      }
      validationFailure(await h.request({ method: 'DELETE', url: `/api/admin/customers/${realm.uid}/custom_fields/99999999999` }), 'id');
      validationFailure(await h.request({ method: 'DELETE', url: `/api/admin/team_members/${h.ownerId}/access_tokens/99999999999` }), 'token_id');
    });

    it('still answers 404 for the largest id that fits', async () => {
      expect((await h.request({ method: 'GET', url: '/api/admin/team_members/2147483647' })).statusCode).toBe(404);
    });

    it('refuses integer body fields out of range with 422', async () => {
      validationFailure(await h.request({
        method: 'POST', url: `/api/admin/team_members/${h.ownerId}/access_tokens`, payload: { application_id: 2147483648 },
      }), 'application_id');
      validationFailure(await h.request({ method: 'PUT', url: '/api/admin/account', payload: { upload_max_bytes: 1099511627776 } }), 'upload_max_bytes');
      validationFailure(await h.request({
        method: 'PUT', url: `/api/admin/realms/${realm.uid}`, payload: { settings: { session_lifetime_minutes: 2 ** 40 } },
      }), 'settings.session_lifetime_minutes');
      validationFailure(await h.request({
        method: 'POST', url: '/api/admin/realms', payload: { uid: 'huge-settings', name: 'Huge', settings: { otp_resend_wait_seconds: -(2 ** 31) - 1 } },
      }), 'settings.otp_resend_wait_seconds');
    });
  });

  describe('NUL characters', () => {
    /** The admin catalog carries the code in the body too, the customers API only in the header. */
    const refused = (res: { statusCode: number; json(): unknown; headers: Record<string, unknown> }, codeInBody = true) => {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errors: [expect.stringContaining('NUL')], ...(codeInBody ? { code: 'ATR_BAD_REQUEST' } : {}) });
      expect(res.headers['atrium-error-code']).toBe('ATR_BAD_REQUEST');
    };

    it('are refused in the path, before the credential guards query by it', async () => {
      refused(await h.request({ method: 'GET', url: '/api/admin/realms/a%00b' }));
      refused(await h.request({ method: 'GET', url: '/api/customers/realms/a%00b/me', token: null }), false);
      refused(await h.request({ method: 'GET', url: '/api/customers/realms/a%00b/me', token: 'x%00y' }), false);
    });

    it('are refused in the query', async () => {
      refused(await h.request({ method: 'GET', url: '/api/admin/team_members?query=a%00b' }));
      refused(await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/users?sort_by=%00` }));
    });

    it('are refused in JSON bodies, in values and keys, at any depth', async () => {
      refused(await h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: 'nul', name: 'a\u0000b' } }));
      refused(await h.request({ method: 'PUT', url: '/api/admin/account', payload: { allowed_extensions: ['png', 'x\u0000'] } }));
      refused(await h.request({
        method: 'PUT', url: `/api/admin/customers/${realm.uid}/users/${user.id}`, payload: { custom_fields: [{ key: 'k', value: '\u0000' }] },
      }));
      refused(await h.request({ method: 'PUT', url: '/api/admin/account', payload: { ['na\u0000me']: 'x' } }));
    });

    it('are refused in url-encoded forms', async () => {
      const res = await h.request({
        method: 'POST', url: `/realms/${realm.uid}/oauth/token`, token: null,
        headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=authorization_code&code=a%00b',
      });
      expect(res.statusCode).toBe(400);
    });

    it('leave the record untouched', async () => {
      await h.request({ method: 'PUT', url: `/api/admin/customers/${realm.uid}/users/${user.id}`, payload: { first_name: 'Eve\u0000' } });
      const read = await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/users/${user.id}` });
      expect(read.json().first_name).toBe('Ada');
    });
  });

  describe('URLs and bodies the parsers cannot read', () => {
    it('answer a broken escape with 400 in the shared shape', async () => {
      for (const url of ['/api/admin/team_members/%C3', '/api/customers/realms/%ZZ/me', '/api/admin/realms/%E6%97?x=1']) {
        const res = await h.request({ method: 'GET', url });
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toEqual({ errors: [expect.any(String)], ...(url.startsWith('/api/admin') ? { code: 'ATR_BAD_URL' } : {}) });
      }
    });

    it('answer a path parameter past the router\'s limit with 414', async () => {
      const res = await h.request({ method: 'GET', url: `/api/admin/realms/${'x'.repeat(150)}` });
      expect(res.statusCode).toBe(414);
      expect(res.json()).toEqual({ errors: [expect.any(String)], code: 'ATR_PARAMETER_TOO_LONG' });
    });

    it('answer a body nested thousands deep without exhausting the stack', async () => {
      const deep = `{"name":"Deep","nested":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
      const res = await h.request({ method: 'POST', url: '/api/admin/roles', headers: { 'content-type': 'application/json' }, payload: deep });
      expect(res.statusCode).toBe(422);
    });

    it('answer a multipart body that ends inside the file with 400', async () => {
      const res = await h.request({
        method: 'PUT', url: `/api/admin/customers/${realm.uid}/users/${user.id}/avatar`,
        headers: { 'content-type': 'multipart/form-data; boundary=cut' },
        payload: '--cut\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errors: [expect.any(String)], code: 'ATR_BAD_REQUEST' });
    });
  });

  describe('sort keys that name Object.prototype members', () => {
    it('fall back to the default order on every list', async () => {
      const lists = { team_members: '/api/admin/team_members', realms: '/api/admin/realms', users: `/api/admin/customers/${realm.uid}/users`, roles: '/api/admin/roles' };
      for (const [root, list] of Object.entries(lists)) {
        for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
          const res = await h.request({ method: 'GET', url: `${list}?sort_by=${key}` });
          expect(res.statusCode, `${list} ${key}: ${res.body}`).toBe(200);
          expect(res.json()[root].length).toBeGreaterThan(0);
        }
      }
    });
  });

  describe('redirect targets outside Latin-1 on the realm pages', () => {
    async function signedIn(redirectUri: string) {
      const page = await h.request({ method: 'GET', url: `/realms/${realm.uid}/login`, token: null });
      const csrf = page.cookies.find((c) => c.name === 'atrium_csrf')!.value;
      return h.request({
        method: 'POST', url: `/realms/${realm.uid}/login`, token: null,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `atrium_csrf=${csrf}` },
        payload: new URLSearchParams({ username: user.email, password: PASSWORD, csrf_token: inputValue(page.body, 'csrf_token')!, redirect_uri: redirectUri }).toString(),
      });
    }

    it('percent-encodes the Location of the sign-in redirect as UTF-8', async () => {
      const res = await signedIn('/après?x=日本');
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/apr%C3%A8s?x=%E6%97%A5%E6%9C%AC');
    });

    it('keeps targets that are already encoded as they are', async () => {
      const res = await signedIn('/done?next=%2Fhome&q=a+b');
      expect(res.headers.location).toBe('/done?next=%2Fhome&q=a+b');
    });

    it('does not throw on a lone surrogate', async () => {
      const res = await signedIn('/x\ud800y');
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/x%EF%BF%BDy');
    });

    it('percent-encodes the Location of the sign-out redirect', async () => {
      const page = await h.request({ method: 'GET', url: `/realms/${realm.uid}/logout`, token: null });
      const csrf = page.cookies.find((c) => c.name === 'atrium_csrf')!.value;
      const res = await h.request({
        method: 'POST', url: `/realms/${realm.uid}/logout`, token: null,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `atrium_csrf=${csrf}` },
        payload: new URLSearchParams({ csrf_token: csrf, redirect_uri: '/au revoir/日本' }).toString(),
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/au%20revoir/%E6%97%A5%E6%9C%AC');
    });
  });
});
