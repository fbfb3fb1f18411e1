import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessEvents } from '../../src/tables/events.js';
import { realmCookieName } from '../../src/realms/sessions.js';
import { realmSessions } from '../../src/tables/realms.js';
import { hashSecret } from '../../src/security/secrets.js';
import { CookieJar, inputValue } from '../helpers/cookie-jar.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { listen } from '../helpers/server.js';

const PASSWORD = 'a long secret 1';

describe('realm sign-in pages over real HTTP', () => {
  let h: Harness;
  let base: string;
  let realm: { uid: string; name: string };
  let user: { id: number; email: string };

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    realm = await makeRealm(h, { name: 'Personal Banking' });
    user = await makeRealmUser(h, realm.uid, { email: 'ada@example.com', username: 'ada', first_name: 'Ada', last_name: 'Lovelace' });
    await makeRealm(h, { uid: 'domain-realm', custom_domain: 'login.bank.test' });
  });
  afterAll(async () => { await h?.close(); });

  const login = (jar: CookieJar, query = '') => jar.fetch(`/realms/${realm.uid}/login${query}`);

  /** Opens the login page, then posts the form with its hidden fields and the given fields. */
  async function signIn(jar: CookieJar, fields: Record<string, string>, query = ''): Promise<Response> {
    const page = await (await login(jar, query)).text();
    return jar.post(`/realms/${realm.uid}/login`, {
      redirect_uri: inputValue(page, 'redirect_uri') ?? '', csrf_token: inputValue(page, 'csrf_token') ?? '', ...fields,
    });
  }

  const events = async (type: string, userId = user.id) => h.ctx.db.select().from(businessEvents)
    .where(and(eq(businessEvents.userId, userId), eq(businessEvents.type, type))).orderBy(desc(businessEvents.id));

  it('serves an accessible sign-in page with a CSRF token in a short-lived HttpOnly cookie', async () => {
    const jar = new CookieJar(base);
    const res = await login(jar, '?redirect_uri=%2Fsomewhere');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const page = await res.text();
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page.match(/<h1>/g)).toHaveLength(1);
    expect(page).toContain('<h1>Sign in to Personal Banking</h1>');
    expect(page).toMatch(/<title>Sign in · Personal Banking<\/title>/);
    expect(page).toMatch(/<label for="username">Email or username\s*<input id="username" name="username"[^>]*autocomplete="username"/);
    expect(page).toMatch(/<label for="password">Password\s*<input id="password" name="password" type="password"[^>]*autocomplete="current-password"/);
    expect(page).toMatch(new RegExp(`<form method="post" action="/realms/${realm.uid}/login">`));
    expect(inputValue(page, 'redirect_uri')).toBe('/somewhere');
    const token = inputValue(page, 'csrf_token');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = jar.get('atrium_csrf');
    expect(cookie).toMatchObject({ value: token, path: `/realms/${realm.uid}`, httpOnly: true, sameSite: 'Lax', secure: false });
    const raw = res.headers.getSetCookie().join('\n');
    expect(raw).toMatch(/Max-Age=3600/);
    // A second page in the same browser keeps the token, so two open tabs both work.
    expect(inputValue(await (await login(jar)).text(), 'csrf_token')).toBe(token);
  });

  it('signs in by email, starts a session cookie (HttpOnly, SameSite=Lax, Path=/) and records a login event', async () => {
    const jar = new CookieJar(base);
    const res = await signIn(jar, { username: 'ADA@example.com', password: PASSWORD });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/realms/${realm.uid}/profile`);
    const session = jar.get(realmCookieName(realm.uid));
    expect(session).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Lax', secure: false });
    expect(res.headers.getSetCookie().find((c) => c.startsWith(realmCookieName(realm.uid)))).not.toMatch(/Expires|Max-Age/);
    const [row] = await h.ctx.db.select().from(realmSessions).where(eq(realmSessions.sessionHash, hashSecret(session!.value)));
    expect(row).toMatchObject({ userId: user.id, revokedAt: null });
    expect(await events('user_login_log')).toHaveLength(1);
    const profile = await jar.fetch(`/realms/${realm.uid}/profile`);
    expect(profile.status).toBe(200);
    const page = await profile.text();
    expect(page).toContain('Signed in as <strong>Ada Lovelace</strong>');
    expect(page.match(/<h1>/g)).toHaveLength(1);
  });

  it('signs in by username regardless of case, with a fresh session id each time', async () => {
    const jar = new CookieJar(base);
    expect((await signIn(jar, { username: 'ADA', password: PASSWORD })).status).toBe(303);
    const first = jar.get(realmCookieName(realm.uid))!.value;
    expect((await signIn(jar, { username: 'ada', password: PASSWORD })).status).toBe(303);
    expect(jar.get(realmCookieName(realm.uid))!.value).not.toBe(first);
  });

  it('sends the browser back to the authorize path it came from', async () => {
    const jar = new CookieJar(base);
    const authorize = `/realms/${realm.uid}/oauth/authorize?client_id=x&state=y`;
    const res = await signIn(jar, { username: 'ada', password: PASSWORD }, `?redirect_uri=${encodeURIComponent(authorize)}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(authorize);
  });

  it('follows only paths and addresses of this account', async () => {
    const followed = [
      '/realms/x/oauth/authorize?client_id=x&state=y',
      `${base}/realms/${realm.uid}/profile?tab=1`,
      'https://login.bank.test/realms/oauth/authorize?client_id=x',
      'http://login.bank.test/after',
    ];
    const refused = [
      'https://evil.example/steal', '//evil.example/steal', '/\\evil.example', '/\t/evil.example', 'javascript:alert(1)',
      'https://login.bank.test.evil.example/', `${base.replace('127.0.0.1', 'localhost')}/x`, 'https://user:pw@login.bank.test/',
      'relative/path', 'data:text/html,hi', ' /leading-space',
    ];
    for (const target of [...followed, ...refused]) {
      const jar = new CookieJar(base);
      // The hidden field is what the browser posts back; set it directly to test the rule at POST time too.
      const page = await (await login(jar)).text();
      const res = await jar.post(`/realms/${realm.uid}/login`, {
        username: 'ada', password: PASSWORD, csrf_token: inputValue(page, 'csrf_token')!, redirect_uri: target,
      });
      expect(res.status, target).toBe(303);
      expect(res.headers.get('location'), target).toBe(followed.includes(target) ? target : `/realms/${realm.uid}/profile`);
    }
    // The GET page does not carry a refused address into its form either.
    const jar = new CookieJar(base);
    const page = await (await login(jar, `?redirect_uri=${encodeURIComponent('https://evil.example/')}`)).text();
    expect(inputValue(page, 'redirect_uri')).toBe('');
  });

  it('refuses a form without the CSRF token, with another token, or without the cookie', async () => {
    const jar = new CookieJar(base);
    const page = await (await login(jar)).text();
    const token = inputValue(page, 'csrf_token')!;
    const missing = await jar.post(`/realms/${realm.uid}/login`, { username: 'ada', password: PASSWORD });
    expect(missing.status).toBe(403);
    expect(await missing.text()).toContain('This form has expired');
    const wrong = await jar.post(`/realms/${realm.uid}/login`, { username: 'ada', password: PASSWORD, csrf_token: `${token.slice(0, -1)}x` });
    expect(wrong.status).toBe(403);
    const noCookie = new CookieJar(base);
    const forged = await noCookie.post(`/realms/${realm.uid}/login`, { username: 'ada', password: PASSWORD, csrf_token: token });
    expect(forged.status).toBe(403);
    expect(jar.get(realmCookieName(realm.uid))).toBeUndefined();
    expect(noCookie.get(realmCookieName(realm.uid))).toBeUndefined();
  });

  it('answers a wrong password or an unknown user with 401 and the same generic message, and records the failure', async () => {
    const before = (await events('user_login_attempt_failed_log')).length;
    const jar = new CookieJar(base);
    const wrong = await signIn(jar, { username: 'ada', password: 'not the password' });
    expect(wrong.status).toBe(401);
    const wrongPage = await wrong.text();
    expect(wrongPage).toContain('role="alert"');
    expect(wrongPage).toContain('The email, username or password is not correct.');
    expect(wrongPage).toMatch(/<input id="username"[^>]*value="ada"[^>]*aria-invalid="true"[^>]*aria-describedby="login-error"/);
    expect(wrongPage.match(/<h1>/g)).toHaveLength(1);
    expect(wrongPage).toContain('<title>Error: Sign in · Personal Banking</title>');
    expect(wrongPage).toMatch(/<input id="password"[^>]*autofocus>/);
    const unknown = await signIn(jar, { username: 'nobody@example.com', password: 'not the password' });
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toContain('The email, username or password is not correct.');
    expect((await events('user_login_attempt_failed_log')).length).toBe(before + 1);
    const blank = await signIn(jar, { username: ' ', password: '' });
    expect(blank.status).toBe(422);
    expect(jar.get(realmCookieName(realm.uid))).toBeUndefined();
  });

  it('answers a malformed form with an HTML page, not JSON', async () => {
    const jar = new CookieJar(base);
    const page = await (await login(jar)).text();
    const res = await jar.fetch(`/realms/${realm.uid}/login`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `username=a&username=b&password=x&csrf_token=${inputValue(page, 'csrf_token')}`,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('<h1>Bad request</h1>');
  });

  it('refuses an inactive user with the generic message even with the right password', async () => {
    const inactive = await makeRealmUser(h, realm.uid, { username: 'sleeper', active: false });
    const res = await signIn(new CookieJar(base), { username: 'sleeper', password: PASSWORD });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('The email, username or password is not correct.');
    expect(await events('user_login_attempt_failed_log', inactive.id)).toHaveLength(1);
  });

  it('locks a user for 15 minutes after ten failures, with a clear message even for the right password', async () => {
    const locked = await makeRealmUser(h, realm.uid, { username: 'unlucky' });
    const jar = new CookieJar(base);
    // Ten ordinary failures; the tenth starts the lock.
    for (let i = 1; i <= 10; i++) expect((await signIn(jar, { username: 'unlucky', password: `wrong ${i}` })).status).toBe(401);
    const right = await signIn(jar, { username: 'unlucky', password: PASSWORD });
    expect(right.status).toBe(429);
    expect(await right.text()).toContain('Too many failed sign-in attempts: this account is locked. Try again in 15 minutes.');
    expect(jar.get(realmCookieName(realm.uid))).toBeUndefined();
    expect(await events('user_login_attempt_failed_log', locked.id)).toHaveLength(11);
    const admin = await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/users/${locked.id}` });
    expect(admin.json().locked_until).toBe(new Date(h.clock.now().getTime() + 15 * 60_000).toISOString());

    h.clock.advanceMinutes(14);
    const still = await signIn(jar, { username: 'unlucky', password: PASSWORD });
    expect(still.status).toBe(429);
    expect(await still.text()).toContain('Try again in 1 minute.');
    h.clock.advanceMinutes(1);
    expect((await signIn(jar, { username: 'unlucky', password: PASSWORD })).status).toBe(303);
    // The count starts again from zero after the lock.
    for (let i = 1; i <= 9; i++) expect((await signIn(jar, { username: 'unlucky', password: `wrong ${i}` })).status).toBe(401);
    expect((await signIn(jar, { username: 'unlucky', password: PASSWORD })).status).toBe(303);
  });

  it('signs out through the page\'s form: the session ends, the cookie goes and a logout event is recorded', async () => {
    const jar = new CookieJar(base);
    await signIn(jar, { username: 'ada', password: PASSWORD });
    const secret = jar.get(realmCookieName(realm.uid))!.value;
    const page = await jar.fetch(`/realms/${realm.uid}/logout`);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('<h1>Sign out of Personal Banking</h1>');
    expect(text).toContain('You are signed in as <strong>Ada Lovelace</strong>');
    expect(text).toMatch(new RegExp(`<form method="post" action="/realms/${realm.uid}/logout">`));

    const refused = await jar.post(`/realms/${realm.uid}/logout`, {});
    expect(refused.status).toBe(403);
    expect(jar.get(realmCookieName(realm.uid))).toBeDefined();

    const before = (await events('user_logout_log')).length;
    const res = await jar.post(`/realms/${realm.uid}/logout`, { csrf_token: inputValue(text, 'csrf_token')!, redirect_uri: '' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/realms/${realm.uid}/login`);
    expect(jar.get(realmCookieName(realm.uid))).toBeUndefined();
    const [row] = await h.ctx.db.select().from(realmSessions).where(eq(realmSessions.sessionHash, hashSecret(secret)));
    expect(row.revokedAt).not.toBeNull();
    expect((await events('user_logout_log')).length).toBe(before + 1);

    const profile = await jar.fetch(`/realms/${realm.uid}/profile`);
    expect(profile.status).toBe(303);
    expect(profile.headers.get('location')).toBe(`/realms/${realm.uid}/login?redirect_uri=%2Frealms%2F${realm.uid}%2Fprofile`);
    const signedOut = await (await jar.fetch(`/realms/${realm.uid}/logout`)).text();
    expect(signedOut).toContain('You are not signed in.');
  });

  it('follows a safe redirect_uri after sign-out', async () => {
    const jar = new CookieJar(base);
    await signIn(jar, { username: 'ada', password: PASSWORD });
    const page = await (await jar.fetch(`/realms/${realm.uid}/logout?redirect_uri=%2Fbye`)).text();
    expect(inputValue(page, 'redirect_uri')).toBe('/bye');
    const res = await jar.post(`/realms/${realm.uid}/logout`, { csrf_token: inputValue(page, 'csrf_token')!, redirect_uri: '/bye' });
    expect(res.headers.get('location')).toBe('/bye');
    const evil = new CookieJar(base);
    const evilPage = await (await evil.fetch(`/realms/${realm.uid}/logout`)).text();
    const out = await evil.post(`/realms/${realm.uid}/logout`, { csrf_token: inputValue(evilPage, 'csrf_token')!, redirect_uri: 'https://evil.example/' });
    expect(out.headers.get('location')).toBe(`/realms/${realm.uid}/login`);
  });

  it('ends the profile page\'s session after the realm\'s lifetime of inactivity, and renews it while used', async () => {
    const short = await makeRealm(h, { settings: { session_lifetime_minutes: 10 } });
    await makeRealmUser(h, short.uid, { username: 'brief' });
    const jar = new CookieJar(base);
    const page = await (await jar.fetch(`/realms/${short.uid}/login`)).text();
    await jar.post(`/realms/${short.uid}/login`, { username: 'brief', password: PASSWORD, csrf_token: inputValue(page, 'csrf_token')! });
    for (let i = 0; i < 3; i++) {
      h.clock.advanceMinutes(9);
      expect((await jar.fetch(`/realms/${short.uid}/profile`)).status).toBe(200);
    }
    h.clock.advanceMinutes(10);
    expect((await jar.fetch(`/realms/${short.uid}/profile`)).status).toBe(303);
  });

  it('answers an unknown or inactive realm with a 404 page', async () => {
    const inactive = await makeRealm(h, { active: false });
    for (const path of ['/realms/no-such-realm/login', `/realms/${inactive.uid}/login`, `/realms/${inactive.uid}/logout`, `/realms/${inactive.uid}/profile`]) {
      const res = await new CookieJar(base).fetch(path);
      expect(res.status, path).toBe(404);
      const page = await res.text();
      expect(page).toContain('<html lang="en">');
      expect(page.match(/<h1>/g)).toHaveLength(1);
    }
    expect((await new CookieJar(base).post(`/realms/${inactive.uid}/login`, { username: 'ada', password: PASSWORD })).status).toBe(404);
  });

  // The active realm a page reads is kept in the process: the admin's change must reach the next request at once.
  it('stops serving a realm as soon as an admin deactivates it, and serves it again once reactivated', async () => {
    const kept = await makeRealm(h);
    const status = async () => (await new CookieJar(base).fetch(`/realms/${kept.uid}/login`)).status;
    expect(await status()).toBe(200);
    expect((await h.request({ method: 'PUT', url: `/api/admin/realms/${kept.uid}`, payload: { active: false } })).statusCode).toBe(200);
    expect(await status()).toBe(404);
    expect((await h.request({ method: 'PUT', url: `/api/admin/realms/${kept.uid}`, payload: { active: true } })).statusCode).toBe(200);
    expect(await status()).toBe(200);
  });
});

describe('realm sign-in pages on an https base address', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ BASE_URL: 'https://accounts.example' }); });
  afterAll(async () => { await h?.close(); });

  it('marks the session and CSRF cookies Secure', async () => {
    const realm = await makeRealm(h);
    await makeRealmUser(h, realm.uid, { username: 'sec' });
    const page = await h.request({ method: 'GET', url: `/realms/${realm.uid}/login`, token: null });
    const csrf = page.cookies.find((c) => c.name === 'atrium_csrf')!;
    expect(csrf.secure).toBe(true);
    const res = await h.request({
      method: 'POST', url: `/realms/${realm.uid}/login`, token: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `atrium_csrf=${csrf.value}` },
      payload: new URLSearchParams({ username: 'sec', password: PASSWORD, csrf_token: csrf.value, redirect_uri: 'https://accounts.example/next' }).toString(),
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('https://accounts.example/next');
    const session = res.cookies.find((c) => c.name === realmCookieName(realm.uid))!;
    expect(session).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
  });
});
