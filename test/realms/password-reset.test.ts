import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputValue } from '../helpers/cookie-jar.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';
import { resetLinkIn, type SmtpListener } from '../helpers/smtp.js';

const NEW_PASSWORD = 'a brand new secret 2';
const GRANT_EXPIRED = { error: { grant_expired: 'session expired' } };

const cookiesOf = (res: LightMyRequestResponse) => res.cookies.map((c) => `${c.name}=${c.value}`);

describe('password reset and change on the realm pages', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let realm: { uid: string; name: string };

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
    realm = await makeRealm(h, { name: 'Personal Banking' });
  });
  afterAll(async () => { await h?.close(); });

  /** A browser on a form page: its cookies and CSRF token, then any number of posts of the form. */
  async function openForm(path: string, options: { cookie?: string; remoteAddress?: string } = {}) {
    const page = await h.request({ method: 'GET', url: path, token: null, remoteAddress: options.remoteAddress, headers: options.cookie ? { cookie: options.cookie } : {} });
    expect(page.statusCode, page.body).toBe(200);
    const cookie = [options.cookie, ...cookiesOf(page)].filter(Boolean).join('; ');
    const csrf = inputValue(page.body, 'csrf_token') ?? '';
    return {
      page,
      post: (fields: Record<string, string>, url = path) => h.request({
        method: 'POST', url, token: null, remoteAddress: options.remoteAddress,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ ...fields, csrf_token: csrf }).toString(),
      }),
    };
  }

  const askReset = async (identifier: string, remoteAddress?: string) => (await openForm(`/realms/${realm.uid}/password`, { remoteAddress })).post({ identifier });
  const me = (cookie: string) => h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie } });
  const eventTypes = async (userId: number) => {
    const res = await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/events?user_id=${userId}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().events.map((e: { type: string }) => e.type) as string[];
  };
  const resetLinkFor = async (email: string) => {
    expect((await askReset(email)).statusCode).toBe(200);
    return resetLinkIn(await smtp.next(email));
  };

  it('answers the same page for a known and an unknown identifier, and mails a 30-minute link only to the known user', async () => {
    const user = await makeRealmUser(h, realm.uid, { username: `ada${Date.now()}` });
    const page = await h.request({ method: 'GET', url: `/realms/${realm.uid}/password`, token: null });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<input id="identifier" name="identifier"[^>]*autocomplete="username"/);
    const login = await h.request({ method: 'GET', url: `/realms/${realm.uid}/login`, token: null });
    expect(login.body).toContain(`href="/realms/${realm.uid}/password"`);

    const unknown = await askReset('nobody-here@example.com');
    const known = await askReset(user.email);
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(200);
    expect(known.body.replace(user.email, 'X')).toBe(unknown.body.replace('nobody-here@example.com', 'X'));
    expect(known.body).toContain('If an account exists for');

    const mail = await smtp.next(user.email);
    expect(mail.raw).toMatch(/^Subject: Reset your Personal Banking password\r$/m);
    expect(resetLinkIn(mail)).toMatch(new RegExp(`^/realms/${realm.uid}/password/reset/`));
    // By username too; and nothing ever went to the unknown address.
    expect((await askReset(user.username)).statusCode).toBe(200);
    await smtp.next(user.email);
    expect(smtp.received.some((m) => m.to.includes('nobody-here@example.com'))).toBe(false);
  });

  it('works once: of 20 simultaneous posts exactly one sets the password; every session of the user ends and the reset is recorded', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const oldSession = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    expect((await me(oldSession)).statusCode).toBe(200);
    const link = await resetLinkFor(user.email);
    const form = await openForm(link);
    expect(form.page.body).toMatch(/<input id="password" name="password" type="password" autocomplete="new-password"/);
    const answers = await Promise.all(Array.from({ length: 20 }, () => form.post({ password: NEW_PASSWORD, confirmation: NEW_PASSWORD })));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([303, ...Array(19).fill(410)]);
    expect(answers.find((a) => a.statusCode === 303)!.headers.location).toBe(`/realms/${realm.uid}/login?notice=password_reset`);
    const notice = await h.request({ method: 'GET', url: `/realms/${realm.uid}/login?notice=password_reset`, token: null });
    expect(notice.body).toContain('Your password was changed');

    const oldMe = await me(oldSession);
    expect(oldMe.statusCode).toBe(401);
    expect(oldMe.json()).toEqual(GRANT_EXPIRED);
    await expect(signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD)).rejects.toThrow(/answered 401/);
    expect((await me(await signInAtLoginPage(h, realm.uid, user.email, NEW_PASSWORD))).statusCode).toBe(200);
    expect((await eventTypes(user.id)).filter((t) => t === 'user_password_reset_log')).toHaveLength(1);
    // Used: the page says so, and does not offer the form.
    const again = await h.request({ method: 'GET', url: link, token: null });
    expect(again.statusCode).toBe(410);
    expect(again.body).not.toContain('name="password"');
  });

  it('refuses a weak or mismatched password without using the link up; an unknown link is 404', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const link = await resetLinkFor(user.email);
    const form = await openForm(link);
    const weak = await form.post({ password: 'short', confirmation: 'short' });
    expect(weak.statusCode).toBe(422);
    expect(weak.body).toContain('too short');
    expect((await form.post({ password: NEW_PASSWORD, confirmation: `${NEW_PASSWORD}x` })).statusCode).toBe(422);
    await expect(signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD)).resolves.toMatch(/^atrium_realm_/);
    expect((await form.post({ password: NEW_PASSWORD, confirmation: NEW_PASSWORD })).statusCode).toBe(303);
    const unknown = await h.request({ method: 'GET', url: `/realms/${realm.uid}/password/reset/${'A'.repeat(43)}`, token: null });
    expect(unknown.statusCode).toBe(404);
  });

  it('mails nothing to an inactive user, and refuses a form without its CSRF token', async () => {
    const inactive = await makeRealmUser(h, realm.uid, { active: false });
    const active = await makeRealmUser(h, realm.uid);
    expect((await askReset(inactive.email)).statusCode).toBe(200);
    const link = await resetLinkFor(active.email);
    expect(smtp.received.some((m) => m.to.includes(inactive.email.toLowerCase()))).toBe(false);
    const forged = await h.request({
      method: 'POST', url: link, token: null, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ password: NEW_PASSWORD, confirmation: NEW_PASSWORD }).toString(),
    });
    expect(forged.statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: link, token: null })).statusCode).toBe(200);
  });

  it('expires after 30 minutes, and a newer link replaces the older one', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const first = await resetLinkFor(user.email);
    const second = await resetLinkFor(user.email);
    expect((await h.request({ method: 'GET', url: first, token: null })).statusCode).toBe(410);
    const form = await openForm(second);
    h.clock.advanceMinutes(29);
    expect((await h.request({ method: 'GET', url: second, token: null })).statusCode).toBe(200);
    h.clock.advanceMinutes(2);
    expect((await h.request({ method: 'GET', url: second, token: null })).statusCode).toBe(410);
    const late = await form.post({ password: NEW_PASSWORD, confirmation: NEW_PASSWORD });
    expect(late.statusCode).toBe(410);
    await expect(signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD)).resolves.toMatch(/^atrium_realm_/);
    expect(await eventTypes(user.id)).not.toContain('user_password_reset_log');
  });

  it('keeps exactly one link usable when several requests for one user arrive together', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const form = await openForm(`/realms/${realm.uid}/password`);
    const answers = await Promise.all(Array.from({ length: 5 }, () => form.post({ identifier: user.email })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(5).fill(200));
    const links = await Promise.all(Array.from({ length: 5 }, async () => resetLinkIn(await smtp.next(user.email))));
    const pages = await Promise.all(links.map((link) => h.request({ method: 'GET', url: link, token: null })));
    expect(pages.map((p) => p.statusCode).sort()).toEqual([200, 410, 410, 410, 410]);
  });

  it('limits requests per identifier (5) and per client address (20) for 15 minutes, successful ones included', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const form = await openForm(`/realms/${realm.uid}/password`, { remoteAddress: '10.0.0.1' });
    const byIdentifier = [];
    for (let i = 0; i < 6; i++) byIdentifier.push((await form.post({ identifier: user.email })).statusCode);
    expect(byIdentifier).toEqual([200, 200, 200, 200, 200, 429]);
    // Another address asking for the same identifier is refused too.
    const elsewhere = await askReset(user.email, '10.0.0.2');
    expect(elsewhere.statusCode).toBe(429);
    expect(elsewhere.headers['retry-after']).toBe('900');
    expect(elsewhere.body).toContain('Try again in 15 minutes');

    const crowd = await openForm(`/realms/${realm.uid}/password`, { remoteAddress: '10.0.0.3' });
    const byAddress = [];
    for (let i = 0; i < 21; i++) byAddress.push((await crowd.post({ identifier: `someone-${i}@example.com` })).statusCode);
    expect(byAddress).toEqual([...Array(20).fill(200), 429]);
    expect((await askReset('someone-else@example.com', '10.0.0.4')).statusCode).toBe(200);

    h.clock.advanceMinutes(16);
    expect((await crowd.post({ identifier: 'someone-new@example.com' })).statusCode).toBe(200);
    expect((await askReset(user.email, '10.0.0.5')).statusCode).toBe(200);
  });

  it('changes the password from the profile with the right current one: other sessions end, this one stays', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const other = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    const mine = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    const profile = await openForm(`/realms/${realm.uid}/profile`, { cookie: mine });
    expect(profile.page.body).toMatch(/<form method="post" action="\/realms\/[^"]+\/profile\/password">/);
    const url = `/realms/${realm.uid}/profile/password`;
    const wrong = await profile.post({ current: 'not my password', password: NEW_PASSWORD, confirmation: NEW_PASSWORD }, url);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('The current password is not correct.');
    const weak = await profile.post({ current: REALM_USER_PASSWORD, password: 'password', confirmation: 'password' }, url);
    expect(weak.statusCode).toBe(422);
    expect((await me(other)).statusCode).toBe(200);

    const changed = await profile.post({ current: REALM_USER_PASSWORD, password: NEW_PASSWORD, confirmation: NEW_PASSWORD }, url);
    expect(changed.statusCode, changed.body).toBe(303);
    expect(changed.headers.location).toBe(`/realms/${realm.uid}/profile?notice=password_changed`);
    expect((await me(mine)).statusCode).toBe(200);
    expect((await me(other)).json()).toEqual(GRANT_EXPIRED);
    expect((await me(await signInAtLoginPage(h, realm.uid, user.email, NEW_PASSWORD))).statusCode).toBe(200);
    expect(await eventTypes(user.id)).toContain('user_password_changed_log');
    // The old password no longer counts as the current one.
    expect((await profile.post({ current: REALM_USER_PASSWORD, password: 'yet another one 3', confirmation: 'yet another one 3' }, url)).statusCode).toBe(401);
  });

  it('counts wrong current passwords with sign-in failures: the tenth locks, even the right one is then refused', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const mine = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    const profile = await openForm(`/realms/${realm.uid}/profile`, { cookie: mine });
    const url = `/realms/${realm.uid}/profile/password`;
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await profile.post({ current: `guess ${i}`, password: NEW_PASSWORD, confirmation: NEW_PASSWORD }, url)).statusCode);
    expect(statuses).toEqual(Array(10).fill(401));
    const locked = await profile.post({ current: REALM_USER_PASSWORD, password: NEW_PASSWORD, confirmation: NEW_PASSWORD }, url);
    expect(locked.statusCode).toBe(429);
    await expect(signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD)).rejects.toThrow(/answered 429/);
  });
});
