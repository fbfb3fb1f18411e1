import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessEvents } from '../../src/tables/events.js';
import { inputValue } from '../helpers/cookie-jar.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { codeIn, type SmtpListener } from '../helpers/smtp.js';
import { requestCodeAtPage, submitForm, verify, wrongCode } from './flow.js';

/** The CSRF token of a page: each browser has its own. */
const CSRF = /value="[A-Za-z0-9_-]{43}"/;

describe('the otp_login and otp_code realm pages', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let realm: { uid: string; name: string };

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
    realm = await makeRealm(h, { name: 'Personal Banking' });
  });
  afterAll(async () => { await h?.close(); });

  const codePage = (jar: string[], fields: Record<string, string>, query = '') => submitForm(h, `/realms/${realm.uid}/otp_code${query}`, fields, jar);

  it('mails a code from the sender MAIL_FROM names, and goes on to otp_code carrying the identifier in a short-lived cookie', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const page = await h.request({ method: 'GET', url: `/realms/${realm.uid}/otp_login`, token: null });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toMatch(/<input id="identifier" name="identifier"[^>]*autocomplete="username"/);
    const res = await requestCodeAtPage(h, realm.uid, user.email);
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`/realms/${realm.uid}/otp_code`);
    expect(res.cookies.find((c) => c.name === 'atrium_otp')).toMatchObject({ value: user.email, path: `/realms/${realm.uid}`, httpOnly: true, maxAge: 300 });
    const mail = await smtp.next(user.email);
    expect(mail.from).toBe('no-reply@localhost');
    expect(mail.raw).toMatch(/^Subject: Your Personal Banking sign-in code\r$/m);
    expect(codeIn(mail)).toMatch(/^\d{6}$/);
    const form = await h.request({ method: 'GET', url: res.headers.location as string, token: null, headers: { cookie: res.jar.join('; ') } });
    expect(form.statusCode).toBe(200);
    expect(form.body).toMatch(/<input id="code" name="code"[^>]*autocomplete="one-time-code"/);
    expect(form.body).toContain(user.email);
  });

  it('signs in with the code: a session cookie the customers API takes, a user_otp_login_log event, the redirect_uri followed', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const asked = await requestCodeAtPage(h, realm.uid, user.email, '?redirect_uri=%2Fafter%3Fx%3D1');
    expect(asked.headers.location).toBe(`/realms/${realm.uid}/otp_code?redirect_uri=%2Fafter%3Fx%3D1`);
    const code = codeIn(await smtp.next(user.email));
    const form = await h.request({ method: 'GET', url: asked.headers.location as string, token: null, headers: { cookie: asked.jar.join('; ') } });
    expect(inputValue(form.body, 'redirect_uri')).toBe('/after?x=1');
    const res = await codePage(asked.jar, { code }, '?redirect_uri=%2Fafter%3Fx%3D1');
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/after?x=1');
    const session = res.cookies.find((c) => c.name === `atrium_realm_${realm.uid}`);
    expect(session).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Lax' });
    expect(res.cookies.find((c) => c.name === 'atrium_otp')?.value).toBe('');
    const me = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie: `${session!.name}=${session!.value}` } });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().email).toBe(user.email);
    const events = await h.ctx.db.select().from(businessEvents).where(and(eq(businessEvents.userId, user.id), eq(businessEvents.type, 'user_otp_login_log')));
    expect(events).toHaveLength(1);
    // Used up: neither the page nor the API takes it again.
    expect((await verify(h, realm.uid, user.email, code)).statusCode).toBe(409);
  });

  it('goes to the realm profile when the redirect_uri leaves the site', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const asked = await requestCodeAtPage(h, realm.uid, user.email);
    const res = await codePage(asked.jar, { code: codeIn(await smtp.next(user.email)), redirect_uri: 'https://evil.example/' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/realms/${realm.uid}/profile`);
  });

  it('counts the page\'s wrong codes with the API\'s: five, then the page and the API refuse even the right code', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const asked = await requestCodeAtPage(h, realm.uid, user.email);
    const code = codeIn(await smtp.next(user.email));
    for (let i = 0; i < 3; i++) {
      const wrong = await codePage(asked.jar, { code: wrongCode(code) });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).toContain('This code is not correct or has expired.');
    }
    expect((await codePage(asked.jar, { code: '12' })).statusCode).toBe(422);
    expect((await verify(h, realm.uid, user.email, wrongCode(code))).statusCode).toBe(409);
    const locked = await codePage(asked.jar, { code });
    expect(locked.statusCode).toBe(429);
    expect(locked.body).toContain('Ask for a new code');
    expect(locked.cookies.some((c) => c.name === `atrium_realm_${realm.uid}`)).toBe(false);
    expect((await verify(h, realm.uid, user.email, code)).statusCode).toBe(429);
  });

  it('within the resend wait sends no new code and says when to retry, in seconds', async () => {
    const user = await makeRealmUser(h, realm.uid);
    expect((await requestCodeAtPage(h, realm.uid, user.email)).statusCode).toBe(303);
    const first = codeIn(await smtp.next(user.email));
    h.clock.advance(10_000);
    const early = await requestCodeAtPage(h, realm.uid, user.email);
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('20');
    expect(early.body).toContain('You can ask for a new one in 20 seconds.');
    h.clock.advance(20_000);
    expect((await requestCodeAtPage(h, realm.uid, user.email)).statusCode).toBe(303);
    const second = codeIn(await smtp.next(user.email));
    expect(smtp.received.filter((m) => m.to.includes(user.email.toLowerCase()))).toHaveLength(2);
    if (second !== first) expect((await verify(h, realm.uid, user.email, first)).statusCode).toBe(409);
    expect((await verify(h, realm.uid, user.email, second)).statusCode).toBe(200);
  });

  it('answers an unknown identifier as it answers a known one, and mails nothing', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const unknown = `nobody-${Date.now()}@example.com`;
    const [known, stranger] = [await requestCodeAtPage(h, realm.uid, user.email), await requestCodeAtPage(h, realm.uid, unknown)];
    expect([stranger.statusCode, stranger.headers.location, stranger.body]).toEqual([known.statusCode, known.headers.location, known.body]);
    const pages = await Promise.all([known, stranger].map((r) => h.request({ method: 'GET', url: r.headers.location as string, token: null, headers: { cookie: r.jar.join('; ') } })));
    expect(pages[1].body.replace(unknown, 'X').replace(CSRF, '')).toBe(pages[0].body.replace(user.email, 'X').replace(CSRF, ''));
    // The resend wait applies alike, so that it tells nothing either.
    const [knownAgain, strangerAgain] = [await requestCodeAtPage(h, realm.uid, user.email), await requestCodeAtPage(h, realm.uid, unknown)];
    expect(strangerAgain.statusCode).toBe(knownAgain.statusCode);
    expect(strangerAgain.body.replace(unknown, 'X').replace(CSRF, '')).toBe(knownAgain.body.replace(user.email, 'X').replace(CSRF, ''));
    await smtp.next(user.email);
    expect(smtp.received.some((m) => m.to.includes(unknown))).toBe(false);
  });

  it('refuses a form without its CSRF token, and sends otp_code back to otp_login without an identifier', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const forged = await h.request({
      method: 'POST', url: `/realms/${realm.uid}/otp_login`, token: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `identifier=${encodeURIComponent(user.email)}`,
    });
    expect(forged.statusCode).toBe(403);
    const lost = await h.request({ method: 'GET', url: `/realms/${realm.uid}/otp_code`, token: null });
    expect(lost.statusCode).toBe(303);
    expect(lost.headers.location).toBe(`/realms/${realm.uid}/otp_login`);
    const tooLong = await requestCodeAtPage(h, realm.uid, 'a'.repeat(10_240));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.headers['content-type']).toMatch(/^text\/html/);
    expect((await h.request({ method: 'GET', url: '/realms/no-such-realm/otp_login', token: null })).statusCode).toBe(404);
  });
});
