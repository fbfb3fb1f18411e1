import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessEvents } from '../../src/tables/events.js';
import { realmSessions } from '../../src/tables/realms.js';
import { OWNER_EMAIL, startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';

describe('impersonation', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  const impersonate = (realmUid: string, userId: number, token?: string | null) =>
    h.request({ method: 'POST', url: `/api/admin/customers/${realmUid}/users/${userId}/impersonate`, token });
  /** The link's path on this server (the harness answers in-process). */
  const pathOf = (url: string) => new URL(url).pathname;
  const open = (url: string) => h.request({ method: 'GET', url: pathOf(url), token: null });
  const sessionCookie = (res: Awaited<ReturnType<typeof open>>, realmUid: string) => {
    const cookie = res.cookies.find((c) => c.name === `atrium_realm_${realmUid}`);
    return cookie ? `${cookie.name}=${cookie.value}` : undefined;
  };
  const impersonatedSessions = (userId: number) => h.ctx.db.select().from(realmSessions)
    .where(and(eq(realmSessions.userId, userId), isNotNull(realmSessions.impersonatorId)));

  it('answers a one-time link valid two minutes, under BASE_URL, on the realm page', async () => {
    const realm = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const res = await impersonate(realm.uid, user.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ url: expect.stringMatching(new RegExp(`^http://atrium\\.test/realms/${realm.uid}/session/access/[A-Za-z0-9_-]{43}$`)), expires_at: expect.any(String) });
    expect(new Date(res.json().expires_at).getTime()).toBe(h.clock.now().getTime() + 120_000);
  });

  it('opens exactly one session under 20 concurrent uses, flagged with the admin, and goes to the profile page', async () => {
    const realm = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const { url } = (await impersonate(realm.uid, user.id)).json();
    const answers = await Promise.all(Array.from({ length: 20 }, () => open(url)));
    const opened = answers.filter((a) => a.statusCode === 303);
    expect(opened).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 410)).toHaveLength(19);
    expect(answers.filter((a) => sessionCookie(a, realm.uid))).toHaveLength(1);
    expect(opened[0].headers.location).toBe(`/realms/${realm.uid}/profile`);
    const sessions = await impersonatedSessions(user.id);
    expect(sessions).toHaveLength(1);
    expect(sessions[0].impersonatorId).toBe(h.ownerId);

    // The session is the user's, for the customers API too.
    const cookie = sessionCookie(opened[0], realm.uid)!;
    const me = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(user.email);

    // Used: a later visit is refused with a page, and opens nothing.
    const again = await open(url);
    expect(again.statusCode).toBe(410);
    expect(again.headers['content-type']).toMatch(/^text\/html/);
    expect(again.body).toContain('already been used or has expired');
    expect(sessionCookie(again, realm.uid)).toBeUndefined();
  });

  it('shows an accessible "impersonated by" banner on the profile page of that session only', async () => {
    const realm = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const { url } = (await impersonate(realm.uid, user.id)).json();
    const cookie = sessionCookie(await open(url), realm.uid)!;
    const profile = await h.request({ method: 'GET', url: `/realms/${realm.uid}/profile`, token: null, headers: { cookie } });
    expect(profile.statusCode).toBe(200);
    expect(profile.body).toMatch(new RegExp(`<p class="notice" role="status">Impersonated by <strong>${OWNER_EMAIL}</strong>`));

    const own = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    const ownProfile = await h.request({ method: 'GET', url: `/realms/${realm.uid}/profile`, token: null, headers: { cookie: own } });
    expect(ownProfile.statusCode).toBe(200);
    expect(ownProfile.body).not.toContain('Impersonated by');
    expect(ownProfile.body).not.toContain('role="status"');
  });

  it('records the events of that session with the admin: sign-in, profile change, sign-out', async () => {
    const realm = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const { url } = (await impersonate(realm.uid, user.id)).json();
    const cookie = sessionCookie(await open(url), realm.uid)!;
    const updated = await h.request({
      method: 'PUT', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie }, payload: { first_name: 'Changed' },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const own = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    await h.request({ method: 'PUT', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie: own }, payload: { first_name: 'Mine' } });

    const events = await h.ctx.db.select({ type: businessEvents.type, impersonatorId: businessEvents.impersonatorId })
      .from(businessEvents).where(eq(businessEvents.userId, user.id)).orderBy(businessEvents.id);
    expect(events).toEqual([
      { type: 'user_login_log', impersonatorId: h.ownerId },
      { type: 'user_updated_log', impersonatorId: h.ownerId },
      { type: 'user_login_log', impersonatorId: null },
      { type: 'user_updated_log', impersonatorId: null },
    ]);
  });

  it('expires after two minutes by the injected clock', async () => {
    const realm = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const early = (await impersonate(realm.uid, user.id)).json().url;
    const late = (await impersonate(realm.uid, user.id)).json().url;
    h.clock.advanceMinutes(1);
    expect((await open(early)).statusCode).toBe(303);
    h.clock.advanceMinutes(1);
    const expired = await open(late);
    expect(expired.statusCode).toBe(410);
    expect(sessionCookie(expired, realm.uid)).toBeUndefined();
    expect(await impersonatedSessions(user.id)).toHaveLength(1);
  });

  it('refuses unknown tokens, another realm\'s link, inactive users and inactive realms with a page and no session', async () => {
    const realm = await makeRealm(h);
    const other = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const unknown = await h.request({ method: 'GET', url: `/realms/${realm.uid}/session/access/${'x'.repeat(43)}`, token: null });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^text\/html/);

    const { url } = (await impersonate(realm.uid, user.id)).json();
    const token = pathOf(url).split('/').pop();
    const elsewhere = await h.request({ method: 'GET', url: `/realms/${other.uid}/session/access/${token}`, token: null });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.cookies).toEqual([]);

    // The user deactivated after the link was made: no session.
    expect((await h.request({ method: 'PUT', url: `/api/admin/customers/${realm.uid}/users/${user.id}`, payload: { active: false } })).statusCode).toBe(200);
    const inactiveUser = await open(url);
    expect(inactiveUser.statusCode).toBe(410);
    expect(sessionCookie(inactiveUser, realm.uid)).toBeUndefined();
    const refused = await impersonate(realm.uid, user.id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual(['The user is inactive and cannot be impersonated']);

    // The realm deactivated after the link was made: no session either.
    const second = await makeRealmUser(h, realm.uid);
    const link = (await impersonate(realm.uid, second.id)).json().url;
    expect((await h.request({ method: 'PUT', url: `/api/admin/realms/${realm.uid}`, payload: { active: false } })).statusCode).toBe(200);
    const inactiveRealm = await open(link);
    expect(inactiveRealm.statusCode).toBe(404);
    expect(sessionCookie(inactiveRealm, realm.uid)).toBeUndefined();
    expect((await impersonate(realm.uid, second.id)).statusCode).toBe(422);
    expect(await impersonatedSessions(user.id)).toHaveLength(0);
    expect(await impersonatedSessions(second.id)).toHaveLength(0);
  });

  it('needs realm.users.impersonate on the realm: 403 for weaker members and other realms\' admins', async () => {
    const realm = await makeRealm(h);
    const other = await makeRealm(h);
    const user = await makeRealmUser(h, realm.uid);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    const otherAdmin = await memberToken(h, [{ key: 'realm_admin', target: other.uid }]);
    const admin = await memberToken(h, [{ key: 'realm_admin', target: realm.uid }]);
    expect((await impersonate(realm.uid, user.id, viewer)).statusCode).toBe(403);
    expect((await impersonate(realm.uid, user.id, otherAdmin)).statusCode).toBe(403);
    expect((await impersonate(realm.uid, user.id, null)).statusCode).toBe(401);
    expect((await impersonate(realm.uid, 2147483647)).statusCode).toBe(404);
    expect((await impersonate('no-such-realm', user.id)).statusCode).toBe(404);
    const made = await impersonate(realm.uid, user.id, admin);
    expect(made.statusCode).toBe(200);
    const cookie = sessionCookie(await open(made.json().url), realm.uid)!;
    const profile = await h.request({ method: 'GET', url: `/realms/${realm.uid}/profile`, token: null, headers: { cookie } });
    expect(profile.body).toMatch(/Impersonated by <strong>member-[^<]+@example\.com<\/strong>/);
  });
});
