import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';
import { GRANT_EXPIRED, accessToken, signInAs } from '../profile/fixtures.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';

describe('admin API: a realm user\'s sessions, GET .../users/{id}/sessions and DELETE .../sessions/{session_id}', () => {
  let h: Harness;
  let realm: { uid: string };

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
  });
  afterAll(async () => { await h?.close(); });

  const sessionsUrl = (userId: number | string, realmUid = realm.uid) => `/api/admin/customers/${realmUid}/users/${userId}/sessions`;
  const list = (userId: number | string, token?: string | null) => h.request({ method: 'GET', url: sessionsUrl(userId), token });
  const end = (userId: number | string, sessionId: number | string, token?: string | null) =>
    h.request({ method: 'DELETE', url: `${sessionsUrl(userId)}/${sessionId}`, token });

  it('lists the user\'s active sessions most recently used first; ending one signs that browser and its tokens out, and only it', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const firefox = await signInAs(h, realm.uid, user.email, FIREFOX);
    const firefoxAt = h.clock.now().toISOString();
    h.clock.advanceMinutes(5);
    const other = await signInAs(h, realm.uid, user.email);
    const otherAt = h.clock.now().toISOString();
    const res = await list(user.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      sessions: [
        { id: expect.any(Number), created_at: otherAt, last_used_at: otherAt, user_agent: 'lightMyRequest', current: false },
        { id: expect.any(Number), created_at: firefoxAt, last_used_at: firefoxAt, user_agent: FIREFOX, current: false },
      ],
      meta: { total_entries: 2, per_page: 10, current_page: 1, total_pages: 1 },
    });
    const [, firefoxSession] = res.json().sessions;
    const token = await accessToken(h, realm.uid, firefox);
    const me = (headers: Record<string, string>) => h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers });
    expect((await me({ authorization: `Bearer ${token}` })).statusCode).toBe(200);

    // 50 parallel ends of the same session: one 204, the others 404.
    const ends = await Promise.all(Array.from({ length: 50 }, () => end(user.id, firefoxSession.id)));
    expect(ends.filter((r) => r.statusCode === 204)).toHaveLength(1);
    expect(ends.filter((r) => r.statusCode === 404)).toHaveLength(49);
    expect((await me({ authorization: `Bearer ${token}` })).json()).toEqual(GRANT_EXPIRED);
    expect((await me({ cookie: firefox })).statusCode).toBe(401);
    expect((await me({ cookie: other })).statusCode).toBe(200);
    expect((await list(user.id)).json().sessions.map((s: { user_agent: string }) => s.user_agent)).toEqual(['lightMyRequest']);
  });

  it('answers 404 for another user\'s session, a user of another realm and ids past 2^31; 422 for a user id past 32 bits', async () => {
    const owner = await makeRealmUser(h, realm.uid);
    const someoneElse = await makeRealmUser(h, realm.uid);
    await signInAs(h, realm.uid, owner.email);
    const [session] = (await list(owner.id)).json().sessions;
    expect((await end(someoneElse.id, session.id)).statusCode).toBe(404);
    expect((await end(owner.id, 2 ** 40)).statusCode).toBe(404);
    expect((await list(owner.id)).json().sessions).toHaveLength(1);
    const elsewhere = await makeRealm(h);
    const stranger = await makeRealmUser(h, elsewhere.uid);
    expect((await list(stranger.id)).statusCode).toBe(404);
    expect((await end(stranger.id, session.id)).statusCode).toBe(404);
    expect((await list(2 ** 40)).statusCode).toBe(422);
  });

  it('reading needs realm.users.read on the realm and ending needs realm.users.write: a viewer\'s own token reads but cannot end', async () => {
    const user = await makeRealmUser(h, realm.uid);
    await signInAs(h, realm.uid, user.email);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    const [session] = (await list(user.id, viewer)).json().sessions;
    expect(session).toMatchObject({ id: expect.any(Number) });
    expect((await end(user.id, session.id, viewer)).statusCode).toBe(403);
    const elsewhere = await memberToken(h, [{ key: 'realm_user', target: (await makeRealm(h)).uid }]);
    expect((await list(user.id, elsewhere)).statusCode).toBe(403);
    expect((await list(user.id, null)).statusCode).toBe(401);
    expect((await list(user.id)).json().sessions).toHaveLength(1);
  });
});
