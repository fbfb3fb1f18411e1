import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { codeIn, resetLinkIn, type SmtpListener } from '../helpers/smtp.js';
import { requestCodeAtPage, submitForm, verify, wrongCode } from '../otp/flow.js';

const EXCEEDED = { errors: ['You have exceeded the maximum number of attempts.'] };
const HOUR_MS = 60 * 60_000;
/** The CSRF token of a page: each browser has its own. */
const CSRF = /value="[A-Za-z0-9_-]{43}"/;

/**
 * Issue 25 §5: asking for a new code restarts the five tries of a code, and a realm may set no resend
 * wait at all; what bounds the guesses is the day's limit of wrong codes and the hourly limits of codes sent.
 */
describe('one-time codes cannot be brute-forced by asking for new ones', () => {
  let h: Harness;
  let smtp: SmtpListener;

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
  });
  afterAll(async () => { await h?.close(); });

  /** A realm of its own for each test, so that the client address's hourly count is the test's own. */
  const otpRealm = (): Promise<{ uid: string }> => makeRealm(h, { settings: { otp_resend_wait_seconds: 0 } });

  async function askCode(realm: { uid: string }, email: string) {
    const asked = await requestCodeAtPage(h, realm.uid, email);
    expect(asked.statusCode, asked.body).toBe(303);
    return { code: codeIn(await smtp.next(email)), jar: asked.jar };
  }

  const codePage = (realm: { uid: string }, jar: string[], code: string) => submitForm(h, `/realms/${realm.uid}/otp_code`, { code }, jar);
  const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email.toLowerCase())).length;

  /** Twenty wrong codes, five to each of four new codes. */
  async function exhaustTheDay(realm: { uid: string }, email: string, wrong = 20) {
    for (let left = wrong; left > 0; left -= 5) {
      const { code } = await askCode(realm, email);
      for (let i = 0; i < Math.min(5, left); i++) expect((await verify(h, realm.uid, email, wrongCode(code))).statusCode).toBe(409);
    }
  }

  it('the cycle attack (a new code, five wrong guesses, again) gets 20 wrong codes checked in a day, then 429 even for the right code, until 24 hours have passed', async () => {
    const realm = await otpRealm();
    const user = await makeRealmUser(h, realm.uid);
    const start = h.clock.now().getTime();
    let checked = 0;
    for (let cycle = 0; cycle < 8; cycle++) {
      const { code, jar } = await askCode(realm, user.email);
      for (let guess = 0; guess < 5; guess++) {
        // Both doors guess at the same code: the customers API and the otp_code page.
        const res = guess < 3 ? await verify(h, realm.uid, user.email, wrongCode(code)) : await codePage(realm, jar, wrongCode(code));
        if (res.statusCode === 409 || res.statusCode === 401) checked++;
        else expect(res.statusCode, res.body).toBe(429);
      }
      h.clock.advance(15 * 60_000);
    }
    expect(checked).toBe(20);

    // Two hours after the first wrong code: a fresh code is sent, but the right code is refused through both doors.
    const { code, jar } = await askCode(realm, user.email);
    const refused = await verify(h, realm.uid, user.email, code);
    expect([refused.statusCode, refused.json()]).toEqual([429, EXCEEDED]);
    expect(refused.headers['retry-after']).toBe(String(22 * 3600));
    const page = await codePage(realm, jar, code);
    expect(page.statusCode).toBe(429);
    expect(page.headers['retry-after']).toBe(String(22 * 3600));
    expect(page.body).toContain('Too many wrong codes today: codes will work again in 22 hours, or once you reset your password.');
    expect(page.cookies.some((c) => c.name === `atrium_realm_${realm.uid}`)).toBe(false);

    // The day ends 24 hours after the first wrong code; a code (long expired by then) is asked for again.
    h.clock.advance(start + 24 * HOUR_MS - h.clock.now().getTime() - 1000);
    const lastSecond = await askCode(realm, user.email);
    expect((await verify(h, realm.uid, user.email, lastSecond.code)).statusCode).toBe(429);
    h.clock.advance(1000);
    const signedIn = await codePage(realm, lastSecond.jar, lastSecond.code);
    expect(signedIn.statusCode, signedIn.body).toBe(303);
    expect(signedIn.cookies.some((c) => c.name === `atrium_realm_${realm.uid}`)).toBe(true);
  });

  it('a password reset lifts the day\'s lock', async () => {
    const realm = await otpRealm();
    const user = await makeRealmUser(h, realm.uid);
    await exhaustTheDay(realm, user.email);
    const { code } = await askCode(realm, user.email);
    expect((await verify(h, realm.uid, user.email, code)).statusCode).toBe(429);

    expect((await submitForm(h, `/realms/${realm.uid}/password`, { identifier: user.email })).statusCode).toBe(200);
    const password = 'a brand new secret 2';
    const reset = await submitForm(h, resetLinkIn(await smtp.next(user.email)), { password, confirmation: password });
    expect(reset.statusCode, reset.body).toBe(303);
    expect((await verify(h, realm.uid, user.email, code)).statusCode).toBe(200);
  });

  it('50 parallel wrong checks get no more wrong codes checked than the day has left', async () => {
    const realm = await otpRealm();
    const user = await makeRealmUser(h, realm.uid);
    await exhaustTheDay(realm, user.email, 17);
    // A fresh code would allow five tries; the day allows three more.
    const { code } = await askCode(realm, user.email);
    const answers = await Promise.all(Array.from({ length: 50 }, () => verify(h, realm.uid, user.email, wrongCode(code))));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 409)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(47);
    expect((await verify(h, realm.uid, user.email, code)).statusCode).toBe(429);
  });

  it('sends at most 5 codes per user an hour: the 6th request answers 429 with Retry-After and mails nothing, for a name nobody has alike', async () => {
    const realm = await otpRealm();
    const user = await makeRealmUser(h, realm.uid);
    const unknown = `nobody-${Date.now()}@example.com`;
    for (let i = 0; i < 5; i++) {
      await askCode(realm, user.email);
      expect((await requestCodeAtPage(h, realm.uid, unknown)).statusCode).toBe(303);
      h.clock.advance(60_000);
    }
    const refused = await requestCodeAtPage(h, realm.uid, user.email);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(55 * 60));
    expect(refused.body).toContain('Too many codes were asked for. Try again in 55 minutes.');
    const stranger = await requestCodeAtPage(h, realm.uid, unknown);
    expect([stranger.statusCode, stranger.headers['retry-after'], stranger.body.replace(unknown, 'X').replace(CSRF, '')])
      .toEqual([429, refused.headers['retry-after'], refused.body.replace(user.email, 'X').replace(CSRF, '')]);

    // The mail taken is the newest code: no other arrived before it.
    h.clock.advance(55 * 60_000);
    const { code } = await askCode(realm, user.email);
    expect((await verify(h, realm.uid, user.email, code)).statusCode).toBe(200);
    expect(mailsTo(user.email)).toBe(6);
    expect(mailsTo(unknown)).toBe(0);
  });

  it('of 30 parallel code requests for one user, 5 send a code', async () => {
    const realm = await otpRealm();
    const user = await makeRealmUser(h, realm.uid);
    const answers = await Promise.all(Array.from({ length: 30 }, () => requestCodeAtPage(h, realm.uid, user.email)));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 303)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    for (let i = 0; i < 5; i++) await smtp.next(user.email);
    h.clock.advance(HOUR_MS);
    const { code } = await askCode(realm, user.email);
    expect((await verify(h, realm.uid, user.email, code)).statusCode).toBe(200);
    expect(mailsTo(user.email)).toBe(6);
  });

  it('sends at most 20 codes per client address an hour, whoever they name', async () => {
    const realm = await otpRealm();
    const address = '10.0.0.7';
    for (let i = 0; i < 20; i++) {
      const identifier = i % 2 ? (await makeRealmUser(h, realm.uid)).email : `nobody-${i}-${Date.now()}@example.com`;
      expect((await requestCodeAtPage(h, realm.uid, identifier, '', address)).statusCode).toBe(303);
    }
    const late = await makeRealmUser(h, realm.uid);
    const refused = await requestCodeAtPage(h, realm.uid, late.email, '', address);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('3600');
    expect(refused.body).toContain('Too many codes were asked for. Try again in 60 minutes.');
    // Another address asks for the same user's code at once.
    expect((await requestCodeAtPage(h, realm.uid, late.email, '', '10.0.0.8')).statusCode).toBe(303);
    const code = codeIn(await smtp.next(late.email));
    expect((await verify(h, realm.uid, late.email, code)).statusCode).toBe(200);
    expect(mailsTo(late.email)).toBe(1);
  });
});
