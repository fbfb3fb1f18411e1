import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_EMAIL, OWNER_PASSWORD, startHarness, type Harness } from '../helpers/harness.js';
import { createMember, signIn } from '../helpers/admin.js';

describe('admin sessions', () => {
  let h: Harness;
  // The applications' logout URLs below are loopback listeners (refused without it: test/security/outbound.test.ts).
  beforeAll(async () => { h = await startHarness({ OUTBOUND_ALLOW_PRIVATE: '1' }); });
  afterAll(async () => { await h?.close(); });

  it('signs in with email and password, sets an HttpOnly SameSite=Lax cookie and returns a CSRF token', async () => {
    const res = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: OWNER_EMAIL.toUpperCase(), password: OWNER_PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ admin: { email: OWNER_EMAIL, roles: [{ key: 'account_owner', target: null }] }, csrf_token: expect.any(String) });
    const cookie = res.cookies.find((c) => c.name === 'atrium_admin')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.secure).toBeFalsy();
    expect(cookie.value.length).toBeGreaterThanOrEqual(43);
  });

  it('refuses a wrong password or an unknown email with 401, and blank fields with 422', async () => {
    const wrong = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: OWNER_EMAIL, password: 'nope nope nope' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ errors: ['Invalid email or password'], code: 'ATR_UNAUTHENTICATED' });
    const unknown = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: 'who@example.com', password: 'whatever it is' } });
    expect(unknown.json()).toEqual(wrong.json());
    const blank = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: '', password: '' } });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().details.map((d: { field: string }) => d.field)).toEqual(['email', 'password']);
  });

  it('reads with the cookie alone, but an unsafe request needs the matching X-CSRF-Token header', async () => {
    const { cookie, csrf } = await signIn(h, OWNER_EMAIL, OWNER_PASSWORD);
    const read = await h.request({ method: 'GET', url: '/api/admin/roles', token: null, headers: { cookie } });
    expect(read.statusCode).toBe(200);
    const payload = { name: 'From a browser' };
    const missing = await h.request({ method: 'POST', url: '/api/admin/api_access/applications', token: null, headers: { cookie }, payload });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().errors[0]).toMatch(/x-csrf-token/i);
    const wrong = await h.request({ method: 'POST', url: '/api/admin/api_access/applications', token: null, headers: { cookie, 'x-csrf-token': 'forged' }, payload });
    expect(wrong.statusCode).toBe(403);
    const right = await h.request({ method: 'POST', url: '/api/admin/api_access/applications', token: null, headers: { cookie, 'x-csrf-token': csrf }, payload });
    expect(right.statusCode).toBe(201);
  });

  it('evaluates a bearer token first: a bad token is refused even with a good cookie', async () => {
    const { cookie } = await signIn(h, OWNER_EMAIL, OWNER_PASSWORD);
    const res = await h.request({ method: 'GET', url: '/api/admin/roles', token: 'not-a-token', headers: { cookie } });
    expect(res.statusCode).toBe(401);
  });

  it('answers 401 without a credential, with a malformed header, and with an unknown token', async () => {
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token: null })).statusCode).toBe(401);
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token: null, headers: { authorization: 'Basic abc' } })).statusCode).toBe(401);
    const unknown = await h.request({ method: 'GET', url: '/api/admin/roles', token: 'x'.repeat(43) });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ errors: ['Invalid access token'], code: 'ATR_UNAUTHENTICATED' });
  });

  it('only lets a session reach what the member\'s roles allow', async () => {
    const member = await createMember(h, [{ key: 'site_developer' }]);
    const { cookie } = await signIn(h, member.email, member.password);
    expect((await h.request({ method: 'GET', url: '/api/admin/session', token: null, headers: { cookie } })).statusCode).toBe(200);
    const team = await h.request({ method: 'GET', url: '/api/admin/team_members', token: null, headers: { cookie } });
    expect(team.statusCode).toBe(403);
    expect(team.json()).toEqual({ errors: ['Your role does not allow this action'], code: 'ATR_FORBIDDEN' });
  });

  it('locks a member for 15 minutes after ten failed sign-ins', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const attempt = (password: string) => h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: member.email, password } });
    for (let i = 0; i < 9; i++) expect((await attempt('wrong password!')).statusCode).toBe(401);
    expect((await attempt(member.password)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await attempt('wrong password!')).statusCode).toBe(401);
    const locked = await attempt(member.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().errors[0]).toMatch(/Too many failed attempts/);
    expect(locked.headers['retry-after']).toBe(String(15 * 60));
    h.clock.advanceMinutes(14);
    const later = await attempt(member.password);
    expect(later.statusCode).toBe(429);
    expect(later.headers['retry-after']).toBe('60');
    h.clock.advanceMinutes(2);
    expect((await attempt(member.password)).statusCode).toBe(200);
  });

  it('signs out, and sends a GET to every application\'s logout URL without waiting for them', async () => {
    const received: string[] = [];
    let hanging: http.ServerResponse | undefined;
    const listener = http.createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      if (req.url === '/slow') hanging = res;
      else res.end('ok');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    const create = (name: string, path: string) => h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name, logout_url: `${base}${path}` } });
    await create('CRM', '/crm/logout');
    await create('Slow app', '/slow');
    await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Unreachable', logout_url: 'http://127.0.0.1:1/logout' } });

    const { cookie, csrf } = await signIn(h, OWNER_EMAIL, OWNER_PASSWORD);
    const started = Date.now();
    const out = await h.request({ method: 'DELETE', url: '/api/admin/session', token: null, headers: { cookie, 'x-csrf-token': csrf } });
    expect(out.statusCode).toBe(204);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(out.cookies.find((c) => c.name === 'atrium_admin')?.value).toBe('');
    await expect.poll(() => received.sort()).toEqual(['GET /crm/logout', 'GET /slow']);
    const after = await h.request({ method: 'GET', url: '/api/admin/session', token: null, headers: { cookie } });
    expect(after.statusCode).toBe(401);
    hanging?.end();
    await new Promise((resolve) => listener.close(resolve));
  });

  it('answers 409 to a sign-out made with an access token, and calls no logout URL', async () => {
    const received: string[] = [];
    const listener = http.createServer((req, res) => { received.push(`${req.method} ${req.url}`); res.end('ok'); });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const logoutUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/bearer-check`;
    expect((await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Counter', logout_url: logoutUrl } })).statusCode).toBe(201);

    const outs = await Promise.all([1, 2].map(() => h.request({ method: 'DELETE', url: '/api/admin/session' })));
    for (const out of outs) {
      expect(out.statusCode).toBe(409);
      expect(out.json().errors[0]).toMatch(/no session to end/);
    }
    expect((await h.request({ method: 'GET', url: '/api/admin/session' })).statusCode).toBe(200);
    // A real sign-out calls the URL once; by the time its call arrives, any made before it would have.
    const { cookie, csrf } = await signIn(h, OWNER_EMAIL, OWNER_PASSWORD);
    expect((await h.request({ method: 'DELETE', url: '/api/admin/session', token: null, headers: { cookie, 'x-csrf-token': csrf } })).statusCode).toBe(204);
    await expect.poll(() => received.length).toBeGreaterThan(0);
    expect(received).toEqual(['GET /bearer-check']);
    await new Promise((resolve) => listener.close(resolve));
  });
});

describe('admin session cookie on https', () => {
  it('is Secure when BASE_URL is https', async () => {
    const h = await startHarness({ BASE_URL: 'https://admin.example.com' });
    try {
      const res = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: OWNER_EMAIL, password: OWNER_PASSWORD } });
      expect(res.cookies.find((c) => c.name === 'atrium_admin')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
    } finally {
      await h.close();
    }
  });
});
