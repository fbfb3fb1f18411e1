import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, inputValue } from '../helpers/cookie-jar.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { createMember } from '../helpers/admin.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { listen } from '../helpers/server.js';

const REALM_PASSWORD = 'a long secret 1';

/** How many answers had each status. */
function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('attempt limits under concurrency', () => {
  let h: Harness;
  let base: string;
  let realm: { uid: string };

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    realm = await makeRealm(h);
  });
  afterAll(async () => { await h?.close(); });

  const adminSignIn = (email: string, password: string) =>
    h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email, password } });

  it('answers 60 parallel wrong admin passwords with ten 401 and fifty 429, then keeps the right one out for 15 minutes', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => adminSignIn(member.email, `wrong password ${i}`)));
    expect(tally(answers.map((a) => a.statusCode))).toEqual({ 401: 10, 429: 50 });
    const locked = await adminSignIn(member.email, member.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().errors[0]).toMatch(/^Too many failed attempts: try again after /);
    h.clock.advanceMinutes(14);
    expect((await adminSignIn(member.email, member.password)).statusCode).toBe(429);
    h.clock.advanceMinutes(1);
    expect((await adminSignIn(member.email, member.password)).statusCode).toBe(200);
  });

  it('spends the same time on an email nobody has as on a member\'s wrong password', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const median = async (email: string) => {
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        const started = performance.now();
        expect((await adminSignIn(email, `wrong password ${i}`)).statusCode).toBe(401);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[3];
    };
    const known = await median(member.email);
    const unknown = await median('no-one-by-this-name@example.com');
    // Both spend one scrypt hash; without it an unknown email would answer in a twentieth of the time.
    // The bounds are wide: a loaded machine (two test workers on two cores) makes single timings jumpy.
    expect(unknown / known).toBeGreaterThan(0.3);
    expect(unknown / known).toBeLessThan(4);
  });

  it('counts an email nobody has like a member\'s, so a lock tells nothing of who exists', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => adminSignIn('nobody-here@example.com', 'wrong password')));
    expect(tally(answers.map((a) => a.statusCode))).toEqual({ 401: 10, 429: 20 });
    expect(answers.find((a) => a.statusCode === 401)!.json()).toEqual({ errors: ['Invalid email or password'], code: 'ATR_UNAUTHENTICATED' });
  });

  /** A browser's sign-in form: the CSRF cookie and token of one page view serve every post. */
  async function realmForm(): Promise<(username: string, password: string) => Promise<number>> {
    const jar = new CookieJar(base);
    const page = await (await jar.fetch(`/realms/${realm.uid}/login`)).text();
    const csrf = inputValue(page, 'csrf_token')!;
    return async (username, password) => {
      const res = await jar.post(`/realms/${realm.uid}/login`, { username, password, csrf_token: csrf });
      await res.arrayBuffer();
      return res.status;
    };
  }

  it('answers 55 parallel wrong realm passwords with ten 401 and forty-five 429, then keeps the right one out', async () => {
    const user = await makeRealmUser(h, realm.uid, { username: 'besieged' });
    const post = await realmForm();
    const statuses = await Promise.all(Array.from({ length: 55 }, (_, i) => post('besieged', `wrong ${i}`)));
    expect(tally(statuses)).toEqual({ 401: 10, 429: 45 });
    // By email or username: the attempts count against the user.
    expect(await post(user.email, REALM_PASSWORD)).toBe(429);
    expect(await post('besieged', REALM_PASSWORD)).toBe(429);
    const admin = await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/users/${user.id}` });
    expect(admin.json().locked_until).toBe(new Date(h.clock.now().getTime() + 15 * 60_000).toISOString());
    h.clock.advanceMinutes(15);
    expect(await post('besieged', REALM_PASSWORD)).toBe(303);
  });

  it('counts a realm username nobody has like a user\'s', async () => {
    const post = await realmForm();
    const statuses = await Promise.all(Array.from({ length: 20 }, () => post('no-such-user', 'wrong password')));
    expect(tally(statuses)).toEqual({ 401: 10, 429: 10 });
  });
});
