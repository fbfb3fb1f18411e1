import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputValue } from '../helpers/cookie-jar.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';
import { activationLinkIn, mailText, type SmtpListener } from '../helpers/smtp.js';

const PASSWORD = 'a long secret 1';

const bodyOf = mailText;

const cookiesOf = (res: LightMyRequestResponse) => res.cookies.map((c) => `${c.name}=${c.value}`);

describe('activation_email: sign-up confirmed by a mailed one-time link', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let address = 0;

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
  });
  afterAll(async () => { await h?.close(); });

  const emailRealm = () => makeRealm(h, { settings: { activation_mode: 'activation_email' } });
  /** A distinct client address per call, so that the per-address limits stay out of the way unless a test wants them. */
  const nextAddress = () => `10.1.${Math.floor(++address / 250)}.${address % 250}`;

  /** A browser on a form page: its cookies and CSRF token, then posts of the form. */
  async function openForm(path: string, options: { cookie?: string; remoteAddress?: string } = {}) {
    const remoteAddress = options.remoteAddress ?? nextAddress();
    const page = await h.request({ method: 'GET', url: path, token: null, remoteAddress, headers: options.cookie ? { cookie: options.cookie } : {} });
    const cookie = [options.cookie, ...cookiesOf(page)].filter(Boolean).join('; ');
    const csrf = inputValue(page.body, 'csrf_token') ?? '';
    return {
      page,
      post: (fields: Record<string, string> = {}, url = path) => h.request({
        method: 'POST', url, token: null, remoteAddress,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ ...fields, csrf_token: csrf }).toString(),
      }),
    };
  }

  const signUp = async (uid: string, fields: Record<string, string>, query = '', remoteAddress?: string) => {
    const form = await openForm(`/realms/${uid}/signup${query}`, { remoteAddress });
    expect(form.page.statusCode, form.page.body).toBe(200);
    return form.post({ redirect_uri: inputValue(form.page.body, 'redirect_uri') ?? '', ...fields });
  };
  const userBy = async (uid: string, email: string) => {
    const res = await h.request({ method: 'GET', url: `/api/admin/customers/${uid}/users?query=${encodeURIComponent(email)}` });
    return (res.json().users as { id: number; email: string; active: boolean; confirmation_pending: boolean }[]).find((u) => u.email === email);
  };
  const eventsOf = async (uid: string, userId: number) => {
    const res = await h.request({ method: 'GET', url: `/api/admin/customers/${uid}/events?user_id=${userId}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().events as { type: string; properties: Record<string, unknown> }[];
  };
  /** Opens the link's page and posts its button; answers the POST. */
  const follow = async (link: string, remoteAddress?: string) => {
    const form = await openForm(link, { remoteAddress });
    expect(form.page.statusCode, form.page.body).toBe(200);
    return form.post();
  };
  const sessionOf = (res: LightMyRequestResponse, uid: string) => res.cookies.find((c) => c.name === `atrium_realm_${uid}`);

  it('creates an inactive user pending confirmation; the link, mailed, shows a confirm page and activates, signs in and records it', async () => {
    const realm = await emailRealm();
    const login = await h.request({ method: 'GET', url: `/realms/${realm.uid}/login`, token: null });
    expect(login.body).toContain(`<a href="/realms/${realm.uid}/signup">Create an account</a>`);
    const res = await signUp(realm.uid, { email: 'Confirm@Example.com', username: 'confirmer', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Check your email</h1>');
    expect(res.body).toContain('We sent a link to <strong>Confirm@Example.com</strong>');
    expect(sessionOf(res, realm.uid)).toBeUndefined();
    const user = (await userBy(realm.uid, 'confirm@example.com'))!;
    expect(user).toMatchObject({ active: false, confirmation_pending: true });
    expect((await eventsOf(realm.uid, user.id)).map((e) => [e.type, e.properties])).toEqual([['user_signup_log', { activation_mode: 'activation_email' }]]);

    const mail = await smtp.next('confirm@example.com');
    expect(mail.raw).toMatch(/^Subject: Confirm your Personal Banking account\r$/m);
    expect(bodyOf(mail)).toContain('valid for 24 hours and works once');
    const link = activationLinkIn(mail);
    expect(link).toMatch(new RegExp(`^/realms/${realm.uid}/activation/`));

    // Unconfirmed: no sign-in by password, and a code is neither mailed nor accepted.
    await expect(signInAtLoginPage(h, realm.uid, 'confirmer', PASSWORD)).rejects.toThrow(/answered 401/);
    const otp = await openForm(`/realms/${realm.uid}/otp_login`);
    expect((await otp.post({ identifier: 'confirm@example.com' })).statusCode).toBe(303);
    const check = await h.request({ method: 'POST', url: `/api/customers/realms/${realm.uid}/verify_otp_code`, token: null, payload: { identifier: 'confirm@example.com', code: '000000' } });
    expect(check.statusCode).toBe(409);

    // A GET (a mail scanner's, say) changes nothing: it shows a page whose button posts.
    const page = await h.request({ method: 'GET', url: link, token: null });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Confirm that <strong>confirm@example.com</strong> is your email address');
    expect(page.body).toMatch(new RegExp(`<form method="post" action="${link}">`));
    expect(await userBy(realm.uid, 'confirm@example.com')).toMatchObject({ active: false, confirmation_pending: true });

    const activated = await follow(link);
    expect(activated.statusCode).toBe(303);
    expect(activated.headers.location).toBe(`/realms/${realm.uid}/profile`);
    const session = sessionOf(activated, realm.uid)!;
    expect(session).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Lax' });
    const profile = await h.request({ method: 'GET', url: `/realms/${realm.uid}/profile`, token: null, headers: { cookie: `${session.name}=${session.value}` } });
    expect(profile.statusCode).toBe(200);
    expect(profile.body).toContain('confirm@example.com');
    expect(await userBy(realm.uid, 'confirm@example.com')).toMatchObject({ active: true, confirmation_pending: false });
    expect((await eventsOf(realm.uid, user.id)).map((e) => [e.type, e.properties])).toEqual([
      ['user_login_log', { method: 'activation_link' }], ['user_login_attempt_failed_log', {}], ['user_signup_log', { activation_mode: 'activation_email' }],
    ]);
    await expect(signInAtLoginPage(h, realm.uid, 'confirmer', PASSWORD)).resolves.toMatch(/^atrium_realm_/);

    // Used: 410 to a GET and a POST, without a form, and nothing more is written.
    const recorded = (await eventsOf(realm.uid, user.id)).length;
    const again = await h.request({ method: 'GET', url: link, token: null });
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('This activation link was already used');
    expect(again.body).not.toContain('<form');
    const reposted = await openForm(`/realms/${realm.uid}/activation`);
    const used = await reposted.post({}, link);
    expect(used.statusCode).toBe(410);
    expect(sessionOf(used, realm.uid)).toBeUndefined();
    expect(await eventsOf(realm.uid, user.id)).toHaveLength(recorded);
  });

  it('works until 24 hours have passed (23h59 yes, 24h01 no, nothing written) and answers an unknown or foreign link 404', async () => {
    const realm = await emailRealm();
    await signUp(realm.uid, { email: 'early@example.com', password: PASSWORD });
    await signUp(realm.uid, { email: 'late@example.com', password: PASSWORD });
    const early = activationLinkIn(await smtp.next('early@example.com'));
    const late = activationLinkIn(await smtp.next('late@example.com'));
    const lateForm = await openForm(late);
    h.clock.advanceMinutes(23 * 60 + 59);
    expect((await follow(early)).statusCode).toBe(303);
    h.clock.advanceMinutes(2);
    const expired = await lateForm.post();
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('or has expired');
    expect(expired.body).toContain(`<a href="/realms/${realm.uid}/activation">Send me a new link</a>`);
    expect(sessionOf(expired, realm.uid)).toBeUndefined();
    expect((await h.request({ method: 'GET', url: late, token: null })).statusCode).toBe(410);
    expect(await userBy(realm.uid, 'late@example.com')).toMatchObject({ active: false, confirmation_pending: true });

    const unknown = await h.request({ method: 'GET', url: `/realms/${realm.uid}/activation/${'A'.repeat(43)}`, token: null });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('There is no activation link at this address.');
    const other = await emailRealm();
    await signUp(other.uid, { email: 'foreign@example.com', password: PASSWORD });
    const foreign = activationLinkIn(await smtp.next('foreign@example.com')).replace(other.uid, realm.uid);
    expect((await h.request({ method: 'GET', url: foreign, token: null })).statusCode).toBe(404);
    expect((await (await openForm(`/realms/${realm.uid}/activation`)).post({}, foreign)).statusCode).toBe(404);
    expect(await userBy(other.uid, 'foreign@example.com')).toMatchObject({ active: false });
  });

  it('activates once under 20 simultaneous posts of the link: one session, one event', async () => {
    const realm = await emailRealm();
    await signUp(realm.uid, { email: 'race@example.com', password: PASSWORD });
    const link = activationLinkIn(await smtp.next('race@example.com'));
    const form = await openForm(link);
    const answers = await Promise.all(Array.from({ length: 20 }, () => form.post()));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([303, ...Array(19).fill(410)]);
    expect(answers.filter((a) => sessionOf(a, realm.uid))).toHaveLength(1);
    const user = (await userBy(realm.uid, 'race@example.com'))!;
    expect((await eventsOf(realm.uid, user.id)).filter((e) => e.type === 'user_login_log')).toHaveLength(1);
  });

  it('resumes at the redirect_uri given at sign-up; refuses a post without its CSRF token without using the link', async () => {
    const realm = await emailRealm();
    const res = await signUp(realm.uid, { email: 'back@example.com', password: PASSWORD }, '?redirect_uri=%2Fcome%2Fback%3Fx%3D1');
    expect(res.body).toContain(`href="/realms/${realm.uid}/activation?redirect_uri=%2Fcome%2Fback%3Fx%3D1"`);
    const link = activationLinkIn(await smtp.next('back@example.com'));
    const forged = await h.request({ method: 'POST', url: link, token: null, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('This form has expired.');
    const done = await follow(link);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/come/back?x=1');

    // An unsafe redirect_uri is dropped at sign-up: the profile page it is.
    await signUp(realm.uid, { email: 'away@example.com', password: PASSWORD, redirect_uri: 'https://evil.example/' });
    const away = await follow(activationLinkIn(await smtp.next('away@example.com')));
    expect(away.headers.location).toBe(`/realms/${realm.uid}/profile`);
  });

  it('answers a taken email exactly as a new one: the active owner is told by mail, a pending owner gets a new link and the new password; nothing is created', async () => {
    const realm = await emailRealm();
    const owner = await makeRealmUser(h, realm.uid, { email: 'owner@example.com' });
    const fresh = await signUp(realm.uid, { email: 'fresh@example.com', password: PASSWORD });
    const taken = await signUp(realm.uid, { email: 'owner@example.com', password: 'another password 2' });
    expect(taken.statusCode).toBe(fresh.statusCode);
    const strip = (text: string) => text.replace(/value="[^"]*"/g, '').replace(/(fresh|owner)@example\.com/g, 'X');
    expect(strip(taken.body)).toBe(strip(fresh.body));
    const notice = await smtp.next('owner@example.com');
    expect(notice.raw).toMatch(/^Subject: Your Personal Banking account\r$/m);
    expect(bodyOf(notice)).toContain('which already has one');
    expect(bodyOf(notice)).not.toMatch(/activation\//);
    await expect(signInAtLoginPage(h, realm.uid, owner.email, REALM_USER_PASSWORD)).resolves.toMatch(/^atrium_realm_/);
    expect(await eventsOf(realm.uid, owner.id)).toEqual([expect.objectContaining({ type: 'user_login_log' })]);

    // Signing up again while pending: a new link, and the first one no longer works; still one account.
    const first = activationLinkIn(await smtp.next('fresh@example.com'));
    await signUp(realm.uid, { email: 'FRESH@example.com', password: 'a different secret 3' });
    const second = activationLinkIn(await smtp.next('fresh@example.com'));
    expect((await h.request({ method: 'GET', url: first, token: null })).statusCode).toBe(410);
    expect((await follow(second)).statusCode).toBe(303);
    const users = await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/users` });
    expect(users.json().users.map((u: { email: string }) => u.email).sort()).toEqual(['fresh@example.com', 'owner@example.com']);
    // The link opens the password its own sign-up chose: the second sign-up replaced the pending account's.
    await expect(signInAtLoginPage(h, realm.uid, 'fresh@example.com', 'a different secret 3')).resolves.toMatch(/^atrium_realm_/);
    await expect(signInAtLoginPage(h, realm.uid, 'fresh@example.com', PASSWORD)).rejects.toThrow(/answered 401/);
  });

  it('sends the link again on request, the same answer for anybody, at most 5 mails an hour per email and 20 requests per client address', async () => {
    const realm = await emailRealm();
    await signUp(realm.uid, { email: 'again@example.com', password: PASSWORD });
    const first = activationLinkIn(await smtp.next('again@example.com'));
    const page = await h.request({ method: 'GET', url: `/realms/${realm.uid}/activation`, token: null });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<input id="email" name="email" type="email" autocomplete="email"/);
    const ask = async (email: string, remoteAddress?: string) => (await openForm(`/realms/${realm.uid}/activation`, { remoteAddress })).post({ email });
    const known = await ask('again@example.com');
    const unknown = await ask('nobody@example.com');
    expect(known.statusCode).toBe(200);
    expect(known.body.replace('again@example.com', 'X')).toBe(unknown.body.replace('nobody@example.com', 'X'));
    const second = activationLinkIn(await smtp.next('again@example.com'));
    expect((await h.request({ method: 'GET', url: first, token: null })).statusCode).toBe(410);
    expect((await h.request({ method: 'GET', url: second, token: null })).statusCode).toBe(200);

    // Sign-up's mail and this one are 2 of 5 per email and hour (counted for any address): three more, then 429.
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await ask('again@example.com')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    for (let i = 0; i < 3; i++) await smtp.next('again@example.com');
    expect((await ask('nobody@example.com')).statusCode).toBe(200);
    h.clock.advanceMinutes(61);
    expect((await ask('again@example.com')).statusCode).toBe(200);
    const after = activationLinkIn(await smtp.next('again@example.com'));
    expect((await follow(after)).statusCode).toBe(303);
    // An active account gets nothing from this page.
    expect((await ask('again@example.com')).statusCode).toBe(200);

    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => ask(`someone${i}@example.com`, '10.200.0.1')));
    expect(answers.map((a) => a.statusCode).filter((s) => s === 429)).toHaveLength(5);
    const limited = answers.find((a) => a.statusCode === 429)!;
    expect(limited.headers['retry-after']).toBe('3600');
    expect(limited.body).toContain('Too many requests for new links. Try again in 60 minutes.');

    // Only a realm whose sign-ups are confirmed by email has this page.
    const direct = await makeRealm(h);
    expect((await h.request({ method: 'GET', url: `/realms/${direct.uid}/activation`, token: null })).statusCode).toBe(404);
  });

  it('an administrator\'s decision replaces the link: activated, or deactivated later, the link no longer activates', async () => {
    const realm = await emailRealm();
    await signUp(realm.uid, { email: 'decided@example.com', password: PASSWORD });
    const link = activationLinkIn(await smtp.next('decided@example.com'));
    const user = (await userBy(realm.uid, 'decided@example.com'))!;
    const activated = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/users/${user.id}/activate` });
    expect(activated.statusCode).toBe(200);
    expect(activated.json()).toMatchObject({ active: true, confirmation_pending: false });
    const off = await h.request({ method: 'PUT', url: `/api/admin/customers/${realm.uid}/users/${user.id}`, payload: { active: false } });
    expect(off.json()).toMatchObject({ active: false, confirmation_pending: false });
    expect((await h.request({ method: 'GET', url: link, token: null })).statusCode).toBe(410);
    expect((await (await openForm(`/realms/${realm.uid}/activation`)).post({}, link)).statusCode).toBe(410);
    expect(await userBy(realm.uid, 'decided@example.com')).toMatchObject({ active: false });
  });
});
