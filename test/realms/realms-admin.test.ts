import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, memberToken } from '../helpers/realms.js';

describe('realms admin API', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  it('creates a realm with default settings and shows it', async () => {
    const res = await h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: 'personal-banking', name: 'Personal Banking' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      uid: 'personal-banking', name: 'Personal Banking', active: true, custom_domain: null,
      settings: {
        session_lifetime_minutes: 120, otp_code_validity_minutes: 5, otp_resend_wait_seconds: 30,
        pkce_plain_allowed: false, show_delegation_information: false, delegation_provider: null,
      },
    });
    const shown = await h.request({ method: 'GET', url: '/api/admin/realms/personal-banking' });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual(res.json());
  });

  it('creates a realm with every setting given', async () => {
    const res = await h.request({
      method: 'POST', url: '/api/admin/realms',
      payload: {
        uid: 'Full_Realm-1', name: 'Full', active: false, custom_domain: 'https://Login.Bank.Example/',
        settings: {
          session_lifetime_minutes: 30, otp_code_validity_minutes: 30, otp_resend_wait_seconds: 0,
          pkce_plain_allowed: true, show_delegation_information: true, delegation_provider: 'azure_ad',
        },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      uid: 'Full_Realm-1', active: false, custom_domain: 'login.bank.example',
      settings: {
        session_lifetime_minutes: 30, otp_code_validity_minutes: 30, otp_resend_wait_seconds: 0,
        pkce_plain_allowed: true, show_delegation_information: true, delegation_provider: 'azure_ad',
      },
    });
  });

  it('lists realms with pagination and a text query', async () => {
    const list = await h.request({ method: 'GET', url: '/api/admin/realms?per_page=1' });
    expect(list.statusCode).toBe(200);
    expect(list.json().realms).toHaveLength(1);
    expect(list.json().meta).toMatchObject({ per_page: 1, current_page: 1 });
    expect(list.json().meta.total_entries).toBeGreaterThanOrEqual(2);
    const found = await h.request({ method: 'GET', url: '/api/admin/realms?query=banking' });
    expect(found.json().realms.map((r: { uid: string }) => r.uid)).toEqual(['personal-banking']);
  });

  it('changes only what PUT names', async () => {
    const realm = await makeRealm(h, { settings: { otp_code_validity_minutes: 7 } });
    const res = await h.request({ method: 'PUT', url: `/api/admin/realms/${realm.uid}`, payload: { name: 'Renamed', settings: { pkce_plain_allowed: true } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ uid: realm.uid, name: 'Renamed', settings: { otp_code_validity_minutes: 7, pkce_plain_allowed: true } });
    const cleared = await h.request({ method: 'PUT', url: `/api/admin/realms/${realm.uid}`, payload: { custom_domain: 'id.example.org' } });
    expect(cleared.json().custom_domain).toBe('id.example.org');
    const none = await h.request({ method: 'PUT', url: `/api/admin/realms/${realm.uid}`, payload: { custom_domain: null } });
    expect(none.json().custom_domain).toBeNull();
  });

  it('refuses a uid that is not URL-safe or already taken, and bad settings, with 422', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ uid: 'has space', name: 'x' }, 'uid'],
      [{ uid: 'a/b', name: 'x' }, 'uid'],
      [{ uid: 'personal-banking', name: 'x' }, 'uid'],
      [{ uid: 'PERSONAL-banking', name: 'x' }, ''],
      [{ name: 'x' }, 'uid'],
      [{ uid: 'no-name' }, 'name'],
      [{ uid: 'otp', name: 'x', settings: { otp_code_validity_minutes: 31 } }, 'settings.otp_code_validity_minutes'],
      [{ uid: 'otp', name: 'x', settings: { otp_code_validity_minutes: 0 } }, 'settings.otp_code_validity_minutes'],
      [{ uid: 'otp', name: 'x', settings: { otp_resend_wait_seconds: -1 } }, 'settings.otp_resend_wait_seconds'],
      [{ uid: 'otp', name: 'x', settings: { session_lifetime_minutes: 0 } }, 'settings.session_lifetime_minutes'],
      [{ uid: 'otp', name: 'x', settings: { colour: 'red' } }, 'settings.colour'],
      [{ uid: 'dom', name: 'x', custom_domain: 'login.bank.example' }, 'custom_domain'],
      [{ uid: 'dom', name: 'x', custom_domain: 'bad host!' }, 'custom_domain'],
      [{ uid: 'dom', name: 'x', custom_domain: 'host.example:8443' }, 'custom_domain'],
      [{ uid: 'dom', name: 'x', custom_domain: 'atrium.test' }, 'custom_domain'],
    ];
    for (const [payload, field] of cases) {
      const res = await h.request({ method: 'POST', url: '/api/admin/realms', payload });
      if (!field) {
        // Uids are compared exactly: a differently cased uid is another realm.
        expect(res.statusCode, JSON.stringify(payload)).toBe(201);
        continue;
      }
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().details.map((d: { field: string }) => d.field), JSON.stringify(payload)).toContain(field);
    }
    const renamed = await h.request({ method: 'PUT', url: '/api/admin/realms/Full_Realm-1', payload: { uid: 'personal-banking' } });
    expect(renamed.statusCode).toBe(422);
    expect(renamed.json().details).toEqual([{ field: 'uid', messages: ['has already been taken'] }]);
  });

  it('answers 404 for an unknown realm', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await h.request({ method, url: '/api/admin/realms/nope', ...(method === 'PUT' ? { payload: { name: 'x' } } : {}) });
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toEqual({ errors: ['Realm not found'], code: 'ATR_NOT_FOUND' });
    }
  });

  it('answers 401 without a credential on every route', async () => {
    const routes = [['GET', '/api/admin/realms'], ['POST', '/api/admin/realms'], ['GET', '/api/admin/realms/personal-banking'],
      ['PUT', '/api/admin/realms/personal-banking'], ['DELETE', '/api/admin/realms/personal-banking']] as const;
    for (const [method, url] of routes) {
      const res = await h.request({ method, url, token: null, ...(method === 'POST' || method === 'PUT' ? { payload: {} } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('keeps a realm role to its own realm (403 elsewhere) and lists only that realm', async () => {
    const own = await makeRealm(h);
    const other = await makeRealm(h);
    const admin = await memberToken(h, [{ key: 'realm_admin', target: own.uid }]);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: own.uid }]);

    expect((await h.request({ method: 'GET', url: `/api/admin/realms/${own.uid}`, token: viewer })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: `/api/admin/realms/${other.uid}`, token: viewer })).statusCode).toBe(403);
    expect((await h.request({ method: 'PUT', url: `/api/admin/realms/${own.uid}`, token: viewer, payload: { name: 'x' } })).statusCode).toBe(403);
    expect((await h.request({ method: 'PUT', url: `/api/admin/realms/${other.uid}`, token: admin, payload: { name: 'x' } })).statusCode).toBe(403);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/realms/${other.uid}`, token: admin })).statusCode).toBe(403);
    expect((await h.request({ method: 'POST', url: '/api/admin/realms', token: admin, payload: { uid: 'by-realm-admin', name: 'x' } })).statusCode).toBe(403);
    expect((await h.request({ method: 'PUT', url: `/api/admin/realms/${own.uid}`, token: admin, payload: { name: 'Mine' } })).statusCode).toBe(200);

    const listed = await h.request({ method: 'GET', url: '/api/admin/realms', token: viewer });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().realms.map((r: { uid: string }) => r.uid)).toEqual([own.uid]);
    expect(listed.json().meta.total_entries).toBe(1);
  });

  it('lets a role follow its realm to a new uid, and a deleted realm take its role assignments along', async () => {
    const realm = await makeRealm(h);
    const token = await memberToken(h, [{ key: 'realm_admin', target: realm.uid }]);
    const renamed = await h.request({ method: 'PUT', url: `/api/admin/realms/${realm.uid}`, token, payload: { uid: `${realm.uid}-new` } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await h.request({ method: 'GET', url: `/api/admin/realms/${realm.uid}-new`, token })).statusCode).toBe(200);

    const deleted = await h.request({ method: 'DELETE', url: `/api/admin/realms/${realm.uid}-new`, token });
    expect(deleted.statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: `/api/admin/realms/${realm.uid}-new` })).statusCode).toBe(404);
    // A new realm with the same uid does not hand the old assignment back.
    await makeRealm(h, { uid: `${realm.uid}-new` });
    expect((await h.request({ method: 'GET', url: `/api/admin/realms/${realm.uid}-new`, token })).statusCode).toBe(403);
  });

  it('accepts a realm role only for an existing realm', async () => {
    const res = await h.request({
      method: 'POST', url: '/api/admin/team_members',
      payload: { email: 'ghost-realm@example.com', password: 'member password 1', roles: [{ key: 'realm_viewer', target: 'no-such-realm' }] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'roles.0.target', messages: ['is not a known realm: no-such-realm'] }]);
  });

  it('documents the realm models in the admin catalog', async () => {
    const doc = (await h.request({ method: 'GET', url: '/api/admin/docs/openapi.json', token: null })).json();
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Realm', 'RealmSettings']));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/realms', '/realms/{realm_uid}']));
  });
});
