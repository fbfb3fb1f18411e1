import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_EMAIL, OWNER_PASSWORD, startHarness, type Harness } from '../helpers/harness.js';
import { createMember, signIn } from '../helpers/admin.js';
import { makeRealm } from '../helpers/realms.js';

/** What a reloaded console learns from GET /api/admin/session: its CSRF token, the session's end, what it may do. */
describe('the admin session as a console reads it', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  const current = (headers: Record<string, string>, token?: string | null) =>
    h.request({ method: 'GET', url: '/api/admin/session', token: headers.cookie ? null : token, headers });

  it('gives the sign-in CSRF token back to a session cookie, with the session\'s end, and the token works', async () => {
    const signedAt = h.clock.now().getTime();
    const res = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: OWNER_EMAIL, password: OWNER_PASSWORD } });
    const cookie = `atrium_admin=${res.cookies.find((c) => c.name === 'atrium_admin')!.value}`;
    const signedIn = res.json();
    expect(signedIn).toMatchObject({ credential: 'session', expires_at: new Date(signedAt + 12 * 3_600_000).toISOString() });
    const read = await current({ cookie });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ csrf_token: signedIn.csrf_token, credential: 'session', expires_at: signedIn.expires_at });
    const write = await h.request({
      method: 'POST', url: '/api/admin/api_access/applications', token: null,
      headers: { cookie, 'x-csrf-token': read.json().csrf_token }, payload: { name: 'After a reload' },
    });
    expect(write.statusCode).toBe(201);
  });

  it('gives each session a CSRF token of its own, never another session\'s', async () => {
    const one = await signIn(h, OWNER_EMAIL, OWNER_PASSWORD);
    const two = await signIn(h, OWNER_EMAIL, OWNER_PASSWORD);
    expect(one.csrf).not.toBe(two.csrf);
    const crossed = await h.request({
      method: 'POST', url: '/api/admin/api_access/applications', token: null,
      headers: { cookie: one.cookie, 'x-csrf-token': two.csrf }, payload: { name: 'Crossed' },
    });
    expect(crossed.statusCode).toBe(403);
  });

  it('answers an access token without a CSRF token and without an end', async () => {
    const res = await current({});
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ credential: 'access_token', expires_at: null });
    expect(body).not.toHaveProperty('csrf_token');
    expect(body.permissions.everywhere).toContain('roles.manage');
    expect(body.permissions.targets).toEqual([]);
  });

  it('lists the permissions held everywhere apart from those held on one realm only', async () => {
    const realm = await makeRealm(h);
    const member = await createMember(h, [{ key: 'account_user' }, { key: 'realm_admin', target: realm.uid }]);
    const { permissions } = (await current({}, member.token)).json();
    expect(permissions.everywhere).toEqual(expect.arrayContaining(['realms.read', 'segments.read', 'content.read']));
    expect(permissions.everywhere).not.toContain('realm.users.read');
    expect(permissions.targets).toHaveLength(1);
    const [onRealm] = permissions.targets;
    expect(onRealm).toMatchObject({ context: 'realm', target: realm.uid });
    expect(onRealm.permissions).toEqual(expect.arrayContaining(['realm.users.read', 'realm.users.impersonate', 'messaging.send']));
    expect(onRealm.permissions).not.toContain('realms.read');
    const session = await signIn(h, member.email, member.password);
    expect((await current({ cookie: session.cookie })).json().permissions).toEqual(permissions);
  });

  it('answers 401 once the session has ended', async () => {
    const { cookie } = await signIn(h, OWNER_EMAIL, OWNER_PASSWORD);
    h.clock.advanceMinutes(12 * 60);
    const res = await current({ cookie });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: ['Your session has ended: sign in again'], code: 'ATR_UNAUTHENTICATED' });
  });
});
