import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';
import { codeIn, type SmtpListener } from '../helpers/smtp.js';
import { requestCodeAtPage, verify, wrongCode } from './flow.js';

const INVALID = { errors: ['The code is not valid or has expired.'] };
const EXCEEDED = { errors: ['You have exceeded the maximum number of attempts.'] };

describe('POST /api/customers/realms/{realm_uid}/verify_otp_code', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let realm: { uid: string };

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
    realm = await makeRealm(h, { settings: { otp_resend_wait_seconds: 0 } });
  });
  afterAll(async () => { await h?.close(); });

  /** A new user of the realm and the code the otp_login page mailed to it. */
  async function userWithCode(body: Record<string, unknown> = {}) {
    const user = await makeRealmUser(h, realm.uid, body);
    const code = await sendCode(user.email);
    return { user, code };
  }

  async function sendCode(identifier: string, email = identifier) {
    const res = await requestCodeAtPage(h, realm.uid, identifier);
    expect(res.statusCode, res.body).toBe(303);
    return codeIn(await smtp.next(email));
  }

  it('answers 200 {} for the right code, which is then used up, without any credential', async () => {
    const { user, code } = await userWithCode();
    const ok = await verify(h, realm.uid, user.email, code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({});
    const again = await verify(h, realm.uid, user.email, code);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(INVALID);
  });

  it('takes the username as identifier, whatever its case', async () => {
    const { user } = await userWithCode({ username: `otp-${Date.now()}` });
    const code = await sendCode(user.username.toUpperCase(), user.email);
    expect((await verify(h, realm.uid, ` ${user.username.toUpperCase()} `, code)).statusCode).toBe(200);
  });

  it('answers 409 five times, then 429 to every check even with the right code, until a new code is requested', async () => {
    const { user, code } = await userWithCode();
    for (let i = 0; i < 5; i++) {
      const res = await verify(h, realm.uid, user.email, wrongCode(code));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual(INVALID);
    }
    for (const attempt of [wrongCode(code), code, code]) {
      const res = await verify(h, realm.uid, user.email, attempt);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual(EXCEEDED);
    }
    const fresh = await sendCode(user.email);
    expect((await verify(h, realm.uid, user.email, code === fresh ? wrongCode(fresh) : code)).statusCode).toBe(409);
    expect((await verify(h, realm.uid, user.email, fresh)).statusCode).toBe(200);
  });

  it('a new code replaces the old one and restarts the count of failures', async () => {
    const { user, code: first } = await userWithCode();
    for (let i = 0; i < 4; i++) expect((await verify(h, realm.uid, user.email, wrongCode(first))).statusCode).toBe(409);
    const second = await sendCode(user.email);
    if (second !== first) expect((await verify(h, realm.uid, user.email, first)).statusCode).toBe(409);
    for (let i = 0; i < 3; i++) expect((await verify(h, realm.uid, user.email, wrongCode(second))).statusCode).toBe(409);
    expect((await verify(h, realm.uid, user.email, second)).statusCode).toBe(200);
  });

  it('20 concurrent wrong checks are answered exactly 5 × 409 and 15 × 429', async () => {
    const { user, code } = await userWithCode();
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(h, realm.uid, user.email, wrongCode(code))));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect((await verify(h, realm.uid, user.email, code)).statusCode).toBe(429);
  });

  it('a code expires after the realm\'s validity (default 5 minutes)', async () => {
    const { user, code } = await userWithCode();
    h.clock.advanceMinutes(5);
    expect((await verify(h, realm.uid, user.email, code)).statusCode).toBe(409);
    const short = await makeRealm(h, { settings: { otp_code_validity_minutes: 2, otp_resend_wait_seconds: 0 } });
    const other = await makeRealmUser(h, short.uid);
    expect((await requestCodeAtPage(h, short.uid, other.email)).statusCode).toBe(303);
    const code2 = codeIn(await smtp.next(other.email));
    h.clock.advance(2 * 60_000 - 1000);
    expect((await verify(h, short.uid, other.email, code2)).statusCode).toBe(200);
    expect((await requestCodeAtPage(h, short.uid, other.email)).statusCode).toBe(303);
    const code3 = codeIn(await smtp.next(other.email));
    h.clock.advanceMinutes(2);
    expect((await verify(h, short.uid, other.email, code3)).statusCode).toBe(409);
  });

  it('an unknown identifier answers exactly like a wrong code: 409 five times, then 429', async () => {
    const { user, code } = await userWithCode();
    const unknown = `nobody-${Date.now()}@example.com`;
    expect((await requestCodeAtPage(h, realm.uid, unknown)).statusCode).toBe(303);
    for (let i = 0; i < 5; i++) {
      const [known, stranger] = [await verify(h, realm.uid, user.email, wrongCode(code)), await verify(h, realm.uid, unknown, '123456')];
      expect([stranger.statusCode, stranger.body, stranger.headers['content-type']]).toEqual([known.statusCode, known.body, known.headers['content-type']]);
    }
    const stranger = await verify(h, realm.uid, unknown, '123456');
    expect(stranger.statusCode).toBe(429);
    expect(stranger.json()).toEqual(EXCEEDED);
    expect((await verify(h, realm.uid, 'never-asked', '123456')).statusCode).toBe(409);
    expect(smtp.received.some((m) => m.to.includes(unknown))).toBe(false);
  });

  it('a code stops working when its user is deactivated', async () => {
    const { user, code } = await userWithCode();
    const off = await h.request({ method: 'PUT', url: `/api/admin/customers/${realm.uid}/users/${user.id}`, payload: { active: false } });
    expect(off.statusCode, off.body).toBe(200);
    expect((await verify(h, realm.uid, user.email, code)).statusCode).toBe(409);
  });

  it('a code that is not 6 digits is a wrong code (409, counted); an identifier past 320 characters is refused (422)', async () => {
    const { user, code } = await userWithCode();
    for (const malformed of ['12345', '1234567', 'abcdef', '', ` ${code}x`]) {
      expect((await verify(h, realm.uid, user.email, malformed)).statusCode).toBe(409);
    }
    expect((await verify(h, realm.uid, user.email, code)).statusCode).toBe(429);
    const long = await verify(h, realm.uid, 'a'.repeat(10_240), '123456');
    expect(long.statusCode).toBe(422);
    expect(long.json().details[0].field).toBe('identifier');
    const missing = await h.request({ method: 'POST', url: `/api/customers/realms/${realm.uid}/verify_otp_code`, token: null, payload: { code: '1' } });
    expect(missing.statusCode).toBe(422);
  });

  it('answers 404 {} for an unknown or inactive realm', async () => {
    const unknown = await verify(h, realm.uid.replace('realm-', 'none-'), 'a@example.com', '123456');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({});
    const inactive = await makeRealm(h, { active: false });
    expect((await verify(h, inactive.uid, 'a@example.com', '123456')).statusCode).toBe(404);
  });

  it('counts code failures apart from password failures', async () => {
    const { user, code } = await userWithCode();
    for (let i = 0; i < 6; i++) await verify(h, realm.uid, user.email, wrongCode(code));
    expect((await verify(h, realm.uid, user.email, code)).statusCode).toBe(429);
    await expect(signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD)).resolves.toMatch(/^atrium_realm_/);
  });

  it('is documented in the customers catalog as needing no credential, with every status it answers', async () => {
    const doc = (await h.request({ method: 'GET', url: '/api/customers/docs/openapi.json', token: null })).json();
    const operation = doc.paths['/realms/{realm_uid}/verify_otp_code'].post;
    expect(operation.security).toEqual([]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '404', '409', '422', '429']));
  });
});
