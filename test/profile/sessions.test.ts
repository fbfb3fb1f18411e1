import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realmSessions } from '../../src/tables/realms.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { codeIn, type SmtpListener } from '../helpers/smtp.js';
import { impersonatedSession, makeRealm, makeRealmUser, signOutAtLogoutPage } from '../helpers/realms.js';
import { requestCodeAtPage, submitForm } from '../otp/flow.js';
import { accessToken, GRANT_EXPIRED, signInAs, USER_SESSION } from './fixtures.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1';

describe('the profile\'s sessions: GET /api/profile/sessions, DELETE /api/profile/sessions/{id}', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let realm: { uid: string };

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
    realm = await makeRealm(h, { settings: { session_lifetime_minutes: 120 } });
  });
  afterAll(async () => { await h?.close(); });

  const list = (headers: Record<string, string>, query = '') =>
    h.request({ method: 'GET', url: `/api/profile/sessions${query}`, token: null, headers });
  const end = (id: number | string, headers: Record<string, string>) =>
    h.request({ method: 'DELETE', url: `/api/profile/sessions/${id}`, token: null, headers });
  const me = (headers: Record<string, string>) => h.request({ method: 'GET', url: '/api/profile/me', token: null, headers });
  type Headers = Record<string, string>;
  const stored = async (id: number) => (await h.ctx.db.select().from(realmSessions).where(eq(realmSessions.id, id)))[0];

  it('lists the user\'s active sessions with their browser, most recently used first, marking the cookie\'s own', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const firefox = await signInAs(h, realm.uid, user.email, FIREFOX);
    const createdAt = h.clock.now().toISOString();
    h.clock.advanceMinutes(5);
    const safari = await signInAs(h, realm.uid, user.email, SAFARI);
    const safariAt = h.clock.now().toISOString();
    h.clock.advanceMinutes(5);
    const res = await list({ cookie: firefox });
    expect(res.statusCode, res.body).toBe(200);
    const { sessions, meta } = res.json();
    expect(meta).toEqual({ total_entries: 2, per_page: 10, current_page: 1, total_pages: 1 });
    // Listing with the Firefox cookie is a use of it, ten minutes after sign-in: it comes first.
    expect(sessions).toEqual([
      { id: expect.any(Number), created_at: createdAt, last_used_at: h.clock.now().toISOString(), user_agent: FIREFOX, current: true },
      { id: expect.any(Number), created_at: safariAt, last_used_at: safariAt, user_agent: SAFARI, current: false },
    ]);
    const fromSafari = (await list({ cookie: safari })).json().sessions;
    expect(fromSafari.map((s: { user_agent: string; current: boolean }) => [s.user_agent, s.current])).toEqual([[SAFARI, true], [FIREFOX, false]]);
    // Pagination: one per page.
    const paged = (await list({ cookie: safari }, '?per_page=1&page=2')).json();
    expect(paged.meta).toEqual({ total_entries: 2, per_page: 1, current_page: 2, total_pages: 2 });
    expect(paged.sessions).toHaveLength(1);
  });

  it('writes the last use at most once a minute, on the injected clock', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const cookie = await signInAs(h, realm.uid, user.email);
    const [{ id }] = (await list({ cookie })).json().sessions;
    const signedInAt = (await stored(id)).lastUsedAt!;
    expect(signedInAt.toISOString()).toBe(h.clock.now().toISOString());
    h.clock.advance(59_000);
    expect((await me({ cookie })).statusCode).toBe(200);
    expect((await stored(id)).lastUsedAt).toEqual(signedInAt);
    h.clock.advance(1_000);
    expect((await me({ cookie })).statusCode).toBe(200);
    const used = (await stored(id));
    expect(used.lastUsedAt!.toISOString()).toBe(h.clock.now().toISOString());
    // The same write renews the session (sliding expiry).
    expect(used.expiresAt.getTime()).toBe(h.clock.now().getTime() + 120 * 60_000);
    // Many uses within the minute write nothing more.
    h.clock.advance(30_000);
    await Promise.all(Array.from({ length: 20 }, () => me({ cookie })));
    expect((await stored(id)).lastUsedAt).toEqual(used.lastUsedAt);
    expect((await list({ cookie })).json().sessions[0].last_used_at).toBe(used.lastUsedAt!.toISOString());
  });

  it('keeps a long or hostile User-Agent cut to 500 characters, without NUL', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const cookie = await signInAs(h, realm.uid, user.email, `Agent\u0000${'x'.repeat(10_000)}`);
    const [session] = (await list({ cookie })).json().sessions;
    expect(session.user_agent).toBe(`Agent${'x'.repeat(495)}`);
    const blank = await signInAs(h, realm.uid, (await makeRealmUser(h, realm.uid)).email, ' ');
    expect((await list({ cookie: blank })).json().sessions[0].user_agent).toBeNull();
  });

  it('records the browser of sessions opened by a one-time code and by impersonation', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const asked = await requestCodeAtPage(h, realm.uid, user.email);
    expect(asked.statusCode, asked.body).toBe(303);
    const signedIn = await submitForm(h, `/realms/${realm.uid}/otp_code`, { code: codeIn(await smtp.next(user.email)) }, asked.jar);
    expect(signedIn.statusCode, signedIn.body).toBe(303);
    const cookie = signedIn.jar.find((c) => c.startsWith(`atrium_realm_${realm.uid}=`))!;
    const impersonated = await impersonatedSession(h, realm.uid, user.id);
    const sessions = (await list({ cookie })).json().sessions;
    // Requests made by the test's injector carry its User-Agent.
    expect(sessions.map((s: { user_agent: string }) => s.user_agent)).toEqual(['lightMyRequest', 'lightMyRequest']);
    expect((await list({ cookie: impersonated })).json().sessions).toHaveLength(2);
  });

  it('leaves out ended and expired sessions and other users\' sessions', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const other = await makeRealmUser(h, realm.uid);
    const kept = await signInAs(h, realm.uid, user.email);
    const signedOut = await signInAs(h, realm.uid, user.email);
    await signInAs(h, realm.uid, other.email);
    await signOutAtLogoutPage(h, realm.uid, signedOut);
    h.clock.advanceMinutes(1);
    expect((await list({ cookie: kept })).json().sessions).toHaveLength(1);
    // A session left unused for the realm's lifetime has expired: the other one, used just now, is still listed.
    const idle = await signInAs(h, realm.uid, user.email);
    h.clock.advanceMinutes(100);
    expect((await list({ cookie: kept })).json().sessions).toHaveLength(2);
    h.clock.advanceMinutes(21);
    const listed = (await list({ cookie: kept })).json().sessions;
    expect(listed).toHaveLength(1);
    expect(listed[0].current).toBe(true);
    expect((await me({ cookie: idle })).json()).toEqual(GRANT_EXPIRED);
  });

  it('ends one of the user\'s sessions: its cookie and the tokens it authorized then get 401 grant_expired', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const laptop = await signInAs(h, realm.uid, user.email, FIREFOX);
    const phone = await signInAs(h, realm.uid, user.email, SAFARI);
    const phoneToken = await accessToken(h, realm.uid, phone);
    expect((await me({ authorization: `Bearer ${phoneToken}` })).statusCode).toBe(200);
    const phoneId = (await list({ cookie: phone })).json().sessions.find((s: { current: boolean }) => s.current).id;
    const res = await end(phoneId, { cookie: laptop });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect((await stored(phoneId)).revokedAt).toEqual(h.clock.now());
    for (const headers of [{ cookie: phone }, { authorization: `Bearer ${phoneToken}` }] as Headers[]) {
      const after = await me(headers);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual(GRANT_EXPIRED);
    }
    const customers = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie: phone } });
    expect(customers.json()).toEqual(GRANT_EXPIRED);
    expect((await list({ cookie: laptop })).json().sessions.map((s: { user_agent: string }) => s.user_agent)).toEqual([FIREFOX]);
    // Again: it is no longer an active session.
    const again = await end(phoneId, { cookie: laptop });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ errors: ['Session not found'], code: 'ATR_NOT_FOUND' });
  });

  it('ends the current session too: this browser is then signed out', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const cookie = await signInAs(h, realm.uid, user.email);
    const [{ id }] = (await list({ cookie })).json().sessions;
    expect((await end(id, { cookie })).statusCode).toBe(204);
    expect((await list({ cookie })).json()).toEqual(GRANT_EXPIRED);
  });

  it('of 50 simultaneous ends of one session, one answers 204 and the others 404', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const actor = await signInAs(h, realm.uid, user.email);
    const target = await signInAs(h, realm.uid, user.email);
    const token = await accessToken(h, realm.uid, actor);
    const id = (await list({ cookie: target })).json().sessions.find((s: { current: boolean }) => s.current).id;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => end(id, i % 2 ? { cookie: actor } : { authorization: `Bearer ${token}` })));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 204)).toHaveLength(1);
    expect(statuses.filter((s) => s === 404)).toHaveLength(49);
    expect((await me({ cookie: target })).json()).toEqual(GRANT_EXPIRED);
    expect((await me({ cookie: actor })).statusCode).toBe(200);
  });

  it('never shows or ends another user\'s session, whatever the credential', async () => {
    const victim = await makeRealmUser(h, realm.uid);
    const attacker = await makeRealmUser(h, realm.uid);
    const victimCookie = await signInAs(h, realm.uid, victim.email);
    const victimId = (await list({ cookie: victimCookie })).json().sessions[0].id;
    const attackerCookie = await signInAs(h, realm.uid, attacker.email);
    const attackerToken = await accessToken(h, realm.uid, attackerCookie);
    // A user of another realm, with its own token.
    const elsewhere = await makeRealm(h);
    const stranger = await makeRealmUser(h, elsewhere.uid);
    const strangerCookie = await signInAs(h, elsewhere.uid, stranger.email);
    const strangerToken = await accessToken(h, elsewhere.uid, strangerCookie);
    for (const headers of [{ cookie: attackerCookie }, { authorization: `Bearer ${attackerToken}` }, { authorization: `Bearer ${strangerToken}` }, { cookie: strangerCookie }] as Headers[]) {
      const seen = await list(headers);
      expect(seen.statusCode).toBe(200);
      expect(seen.json().sessions.map((s: { id: number }) => s.id)).not.toContain(victimId);
      const res = await end(victimId, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(404);
      expect(res.json()).toEqual({ errors: ['Session not found'], code: 'ATR_NOT_FOUND' });
    }
    // The victim's cookie named under the attacker's realm does not help either.
    expect((await end(victimId, { cookie: victimCookie.replace(realm.uid, elsewhere.uid) })).json()).toEqual(USER_SESSION);
    expect((await me({ cookie: victimCookie })).statusCode).toBe(200);
    expect((await stored(victimId)).revokedAt).toBeNull();
  });

  it('with a bearer token lists the sessions with none marked current', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const cookie = await signInAs(h, realm.uid, user.email);
    const token = await accessToken(h, realm.uid, cookie);
    const res = await list({ authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().sessions).toEqual([expect.objectContaining({ current: false })]);
  });

  it('answers the credential failures of the customers API, and 404 or 422 for ids no session can have', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const cookie = await signInAs(h, realm.uid, user.email);
    expect((await list({})).json()).toEqual(USER_SESSION);
    expect((await end(1, {})).json()).toEqual(USER_SESSION);
    const unknownRealm = await list({ cookie }, '?realm_uid=no-such-realm');
    expect(unknownRealm.statusCode).toBe(404);
    expect(unknownRealm.json()).toEqual({});
    expect((await list({ cookie }, `?realm_uid=${realm.uid}`)).statusCode).toBe(200);
    for (const id of [2 ** 31, 2 ** 40, 2147483647, 999_999]) {
      const res = await end(id, { cookie });
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json()).toEqual({ errors: ['Session not found'], code: 'ATR_NOT_FOUND' });
    }
    for (const id of ['abc', '0', '-1', '1.5', '1e400', '%00']) {
      const res = await end(id, { cookie });
      expect(res.statusCode, id).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, id).toBeLessThan(500);
    }
    expect((await end('abc', { cookie })).statusCode).toBe(422);
    expect((await me({ cookie })).statusCode).toBe(200);
  });

  it('documents every status of the new operations', async () => {
    const doc = (await h.request({ method: 'GET', url: '/api/profile/docs/openapi.json', token: null })).json();
    expect(Object.keys(doc.paths['/sessions'].get.responses)).toEqual(['200', '400', '401', '404', '503']);
    expect(Object.keys(doc.paths['/sessions/{id}'].delete.responses)).toEqual(['204', '400', '401', '404', '414', '422', '503']);
    expect(Object.keys(doc.paths['/me'].put.responses)).toEqual(['200', '400', '401', '404', '413', '415', '422', '429', '503']);
    expect(doc.components.schemas).toMatchObject({ ProfileSession: expect.any(Object), ProfileSessions: expect.any(Object) });
  });
});
