import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_EMAIL, OWNER_PASSWORD, startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm } from '../helpers/realms.js';

const PAGE_HEADERS = ['content-security-policy', 'x-frame-options', 'x-content-type-options', 'referrer-policy', 'cache-control'];

describe('protective headers', () => {
  let h: Harness;
  let realmUid: string;
  beforeAll(async () => {
    h = await startHarness();
    realmUid = (await makeRealm(h)).uid;
  });
  afterAll(async () => { await h?.close(); });

  it('sends X-Content-Type-Options: nosniff on every answer: API, pages, errors, 404s and reference pages', async () => {
    const answers = await Promise.all([
      h.request({ method: 'GET', url: '/api/admin/roles' }),
      h.request({ method: 'GET', url: '/api/admin/roles', token: null }),
      h.request({ method: 'POST', url: '/api/admin/realms', payload: '{not json', headers: { 'content-type': 'application/json' } }),
      h.request({ method: 'GET', url: '/nowhere' }),
      h.request({ method: 'GET', url: '/api/admin/nowhere' }),
      h.request({ method: 'GET', url: '/api/customers/realms/nobody/me', token: null }),
      h.request({ method: 'GET', url: '/api/admin/docs', token: null }),
      h.request({ method: 'GET', url: '/api/customers/docs/openapi.json', token: null }),
      h.request({ method: 'GET', url: `/realms/${realmUid}/login`, token: null }),
      h.request({ method: 'GET', url: `/.well-known/oauth-authorization-server/realms/${realmUid}`, token: null }),
      h.request({ method: 'GET', url: '/healthz', token: null }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 400, 404, 404, 404, 200, 200, 200, 200, 200]);
    for (const answer of answers) expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('never lets an answer carrying a secret be stored', async () => {
    const signIn = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: OWNER_EMAIL, password: OWNER_PASSWORD } });
    expect(signIn.json().csrf_token).toEqual(expect.any(String));
    const application = await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Cache test' } });
    expect(application.statusCode).toBe(201);
    const token = await h.request({ method: 'POST', url: `/api/admin/team_members/${h.ownerId}/access_tokens`, payload: { application_id: application.json().id } });
    expect(token.json().token).toEqual(expect.any(String));
    const client = await h.request({
      method: 'POST', url: `/api/admin/customers/${realmUid}/oauth_clients`, payload: { name: 'App', redirect_uris: ['https://app.example/cb'] },
    });
    expect(client.json().secret).toEqual(expect.any(String));
    for (const answer of [signIn, application, token, client]) expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('gives the OAuth error page the same protective headers as the realm sign-in pages', async () => {
    const login = await h.request({ method: 'GET', url: `/realms/${realmUid}/login`, token: null });
    const unknownClient = await h.request({ method: 'GET', url: `/realms/${realmUid}/oauth/authorize?response_type=code&client_id=nobody`, token: null });
    const unknownRealm = await h.request({ method: 'GET', url: '/realms/nobody/oauth/authorize?client_id=x', token: null });
    expect([unknownClient.statusCode, unknownRealm.statusCode]).toEqual([400, 404]);
    for (const page of [unknownClient, unknownRealm]) {
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      for (const name of PAGE_HEADERS) expect(page.headers[name], name).toBe(login.headers[name]);
      expect(page.body).toContain('role="alert"');
    }
    expect(unknownClient.headers['x-frame-options']).toBe('DENY');
    expect(unknownClient.headers['referrer-policy']).toBe('no-referrer');
  });
});
