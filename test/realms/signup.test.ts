import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realmCookieName } from '../../src/realms/sessions.js';
import { CookieJar, inputValue } from '../helpers/cookie-jar.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';
import { listen } from '../helpers/server.js';
import { codeIn, type SmtpListener } from '../helpers/smtp.js';
import { authorizePath, callbackParams, createClient, REDIRECT } from '../oauth/fixtures.js';

const PASSWORD = 'a long secret 1';

describe('the realm signup page and its activation modes', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let base: string;

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
    base = await listen(h);
  });
  afterAll(async () => { await h?.close(); });

  const realmWith = (mode?: string) => makeRealm(h, mode ? { settings: { activation_mode: mode } } : {});

  /** Opens the signup page (with that query), then posts its form with its hidden fields and the given fields. */
  async function signUp(jar: CookieJar, uid: string, fields: Record<string, string>, query = ''): Promise<Response> {
    const page = await jar.fetch(`/realms/${uid}/signup${query}`);
    expect(page.status).toBe(200);
    const text = await page.text();
    return jar.post(`/realms/${uid}/signup`, {
      redirect_uri: inputValue(text, 'redirect_uri') ?? '', csrf_token: inputValue(text, 'csrf_token') ?? '', ...fields,
    });
  }

  const users = async (uid: string) => {
    const res = await h.request({ method: 'GET', url: `/api/admin/customers/${uid}/users` });
    expect(res.statusCode).toBe(200);
    return res.json().users as { id: number; email: string; active: boolean; username: string | null; custom_fields: { key: string; value: unknown }[] }[];
  };
  const signupEvents = async (uid: string) => {
    const res = await h.request({ method: 'GET', url: `/api/admin/customers/${uid}/events?type=user_signup_log` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().events as { type: string; user: { id: number; email: string } | null; properties: Record<string, unknown> }[];
  };

  it('stores activation_mode (direct by default) and refuses any other value with 422', async () => {
    const realm = await realmWith();
    expect(realm.settings.activation_mode).toBe('direct');
    for (const mode of ['otp', 'activation_email', 'moderated', 'invitation_only', 'disabled', 'direct']) {
      const res = await h.request({ method: 'PUT', url: `/api/admin/realms/${realm.uid}`, payload: { settings: { activation_mode: mode } } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().settings.activation_mode).toBe(mode);
    }
    const bad = await h.request({ method: 'PUT', url: `/api/admin/realms/${realm.uid}`, payload: { settings: { activation_mode: 'open' } } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details).toEqual([{ field: 'settings.activation_mode', messages: [expect.stringMatching(/^must be one of direct, otp/)] }]);
    const created = await h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: 'bad-mode', name: 'X', settings: { activation_mode: '' } } });
    expect(created.statusCode).toBe(422);
  });

  it('direct: creates the user, signs in at once with a fresh session and records user_signup_log', async () => {
    const realm = await realmWith('direct');
    const jar = new CookieJar(base);
    const login = await (await jar.fetch(`/realms/${realm.uid}/login`)).text();
    expect(login).toContain(`<a href="/realms/${realm.uid}/signup">Create an account</a>`);
    const page = await (await jar.fetch(`/realms/${realm.uid}/signup`)).text();
    expect(page).toContain(`<h1>Create your ${realm.name} account</h1>`);
    expect(page).toMatch(/<label for="email">Email\s*<input id="email" name="email"[^>]*type="email"[^>]*autocomplete="email"/);
    expect(page).toMatch(/<input id="password" name="password"[^>]*type="password" autocomplete="new-password"/);
    const res = await signUp(jar, realm.uid, { email: 'New@Example.com', username: 'newbie', password: PASSWORD });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/realms/${realm.uid}/profile`);
    expect(jar.get(realmCookieName(realm.uid))).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Lax' });
    const profile = await jar.fetch(`/realms/${realm.uid}/profile`);
    expect(profile.status).toBe(200);
    expect(await profile.text()).toContain('new@example.com');
    const [user] = await users(realm.uid);
    expect(user).toMatchObject({ email: 'new@example.com', username: 'newbie', active: true });
    const events = await signupEvents(realm.uid);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'user_signup_log', user: { id: user.id }, properties: { activation_mode: 'direct' } });
    // The password chosen works on the login page too.
    const again = new CookieJar(base);
    const loginPage = await (await again.fetch(`/realms/${realm.uid}/login`)).text();
    const signedIn = await again.post(`/realms/${realm.uid}/login`, { username: 'newbie', password: PASSWORD, csrf_token: inputValue(loginPage, 'csrf_token')! });
    expect(signedIn.status).toBe(303);
  });

  it('answers a taken email as a sign-up, without a second account, a session or an event', async () => {
    const realm = await realmWith('direct');
    const owner = await makeRealmUser(h, realm.uid, { email: 'taken@example.com' });
    const jar = new CookieJar(base);
    const res = await signUp(jar, realm.uid, { email: 'TAKEN@example.com', password: 'another password 2' });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<h1>Check your email</h1>');
    expect(page).not.toMatch(/has already been taken|exists/i);
    expect(jar.get(realmCookieName(realm.uid))).toBeUndefined();
    expect((await users(realm.uid)).map((u) => u.id)).toEqual([owner.id]);
    expect(await signupEvents(realm.uid)).toHaveLength(0);
    // The owner's password is untouched.
    const other = new CookieJar(base);
    const loginPage = await (await other.fetch(`/realms/${realm.uid}/login`)).text();
    const attacker = await other.post(`/realms/${realm.uid}/login`, { username: 'taken@example.com', password: 'another password 2', csrf_token: inputValue(loginPage, 'csrf_token')! });
    expect(attacker.status).toBe(401);

    // In a moderated realm the answer is the very page a new sign-up gets.
    const moderated = await realmWith('moderated');
    await makeRealmUser(h, moderated.uid, { email: 'taken@example.com' });
    const fresh = await (await signUp(new CookieJar(base), moderated.uid, { email: 'fresh@example.com', password: PASSWORD })).text();
    const taken = await signUp(new CookieJar(base), moderated.uid, { email: 'taken@example.com', password: PASSWORD });
    expect(taken.status).toBe(200);
    const strip = (text: string) => text.replace(/value="[^"]*"/g, '');
    expect(strip(await taken.text())).toBe(strip(fresh));
    expect(await users(moderated.uid)).toHaveLength(2);
  });

  it('refuses a form without its CSRF token, and makes one account of concurrent sign-ups with one email', async () => {
    const realm = await realmWith('direct');
    const jar = new CookieJar(base);
    await jar.fetch(`/realms/${realm.uid}/signup`);
    const forged = await jar.post(`/realms/${realm.uid}/signup`, { email: 'csrf@example.com', password: PASSWORD, csrf_token: 'nope' });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('This form has expired.');
    expect(await users(realm.uid)).toHaveLength(0);

    const jars = Array.from({ length: 5 }, () => new CookieJar(base));
    const pages = await Promise.all(jars.map(async (j) => (await j.fetch(`/realms/${realm.uid}/signup`)).text()));
    const answers = await Promise.all(jars.map((j, i) => j.post(`/realms/${realm.uid}/signup`, {
      email: 'race@example.com', password: PASSWORD, csrf_token: inputValue(pages[i], 'csrf_token')!,
    })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 303]);
    expect(jars.filter((j) => j.get(realmCookieName(realm.uid)))).toHaveLength(1);
    expect(await users(realm.uid)).toHaveLength(1);
    expect(await signupEvents(realm.uid)).toHaveLength(1);
  });

  it('refuses short and common passwords and re-renders the form with accessible messages', async () => {
    const realm = await realmWith();
    for (const password of ['short1', 'password123', 'Qwerty123', 'iloveyou', 'aaaaaaaaaa']) {
      const res = await signUp(new CookieJar(base), realm.uid, { email: 'weak@example.com', username: 'weak', password });
      expect(res.status, password).toBe(422);
      const page = await res.text();
      expect(page).toContain('<title>Error: Create an account');
      expect(page).toContain('role="alert"');
      expect(page).toMatch(/<input id="password" name="password" aria-invalid="true" aria-describedby="password-error"/);
      expect(page).toMatch(/<span class="field-error" id="password-error">Password is too (short|common)/);
      // What the visitor typed is kept, except the password.
      expect(inputValue(page, 'email')).toBe('weak@example.com');
      expect(inputValue(page, 'username')).toBe('weak');
    }
    expect(await users(realm.uid)).toHaveLength(0);
  });

  it('asks for the required, visible and editable custom fields, by type, and checks them', async () => {
    const realm = await realmWith();
    const field = async (body: Record<string, unknown>) => {
      const res = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/custom_fields`, payload: { required: true, visible: true, editable: true, ...body } });
      expect(res.statusCode, res.body).toBe(201);
    };
    await field({ key: 'city', name: 'City', type: 'text' });
    await field({ key: 'bio', name: 'About you', type: 'paragraph' });
    await field({ key: 'age', name: 'Age', type: 'number' });
    await field({ key: 'born', name: 'Birth date', type: 'date' });
    await field({ key: 'terms', name: 'I accept the terms', type: 'checkbox' });
    await field({ key: 'plan', name: 'Plan', type: 'dropdown', options: ['Basic', 'Gold'] });
    await field({ key: 'internal', name: 'Internal', type: 'text', editable: false });
    await field({ key: 'nickname', name: 'Nickname', type: 'text', required: false });
    const page = await (await new CookieJar(base).fetch(`/realms/${realm.uid}/signup`)).text();
    expect(page).toMatch(/<label for="field_city">City\s*<input id="field_city" name="field_city"[^>]*type="text" required/);
    expect(page).toMatch(/<textarea id="field_bio" name="field_bio"[^>]*required>/);
    expect(page).toMatch(/<input id="field_age"[^>]*type="number"/);
    expect(page).toMatch(/<input id="field_born"[^>]*type="date"/);
    expect(page).toMatch(/<input id="field_terms"[^>]*type="checkbox"/);
    expect(page).toMatch(/<select id="field_plan" name="field_plan"[^>]*required><option value="">Choose…<\/option><option>Basic<\/option><option>Gold<\/option><\/select>/);
    expect(page).not.toContain('field_internal');
    expect(page).not.toContain('field_nickname');

    const missing = await signUp(new CookieJar(base), realm.uid, { email: 'f@example.com', password: PASSWORD, field_age: 'old', field_plan: 'Platinum' });
    expect(missing.status).toBe(422);
    const errors = await missing.text();
    for (const id of ['field_city', 'field_bio', 'field_age', 'field_born', 'field_plan']) {
      expect(errors).toMatch(new RegExp(`<input id="${id}"[^>]*aria-invalid="true" aria-describedby="${id}-error"|<textarea id="${id}"[^>]*aria-invalid="true"|<select id="${id}"[^>]*aria-invalid="true"`));
      expect(errors).toContain(`id="${id}-error"`);
    }
    expect(await users(realm.uid)).toHaveLength(0);

    const ok = await signUp(new CookieJar(base), realm.uid, {
      email: 'f@example.com', password: PASSWORD, field_city: 'Lima', field_bio: 'Hello', field_age: '42', field_born: '1990-05-01', field_terms: 'true', field_plan: 'Gold',
    });
    expect(ok.status).toBe(303);
    const [user] = await users(realm.uid);
    expect(Object.fromEntries(user.custom_fields.map((f) => [f.key, f.value]))).toEqual({
      city: 'Lima', bio: 'Hello', age: 42, born: '1990-05-01', terms: true, plan: 'Gold', internal: null, nickname: null,
    });
  });

  it('otp: creates the user, sends a code and signs in with it on the otp_code page', async () => {
    const realm = await realmWith('otp');
    const jar = new CookieJar(base);
    const res = await signUp(jar, realm.uid, { email: 'coded@example.com', password: PASSWORD }, '?redirect_uri=%2Fback');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/realms/${realm.uid}/otp_code?redirect_uri=%2Fback`);
    expect(jar.get(realmCookieName(realm.uid))).toBeUndefined();
    const code = codeIn(await smtp.next('coded@example.com'));
    const page = await (await jar.fetch(`/realms/${realm.uid}/otp_code?redirect_uri=%2Fback`)).text();
    expect(page).toContain('coded@example.com');
    const signedIn = await jar.post(`/realms/${realm.uid}/otp_code`, { code, redirect_uri: '/back', csrf_token: inputValue(page, 'csrf_token')! });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/back');
    expect(jar.get(realmCookieName(realm.uid))).toBeDefined();
    expect((await signupEvents(realm.uid))[0]).toMatchObject({ properties: { activation_mode: 'otp' } });

    // A taken address gets the same answer, and the code goes to the account's owner.
    const again = await signUp(new CookieJar(base), realm.uid, { email: 'coded@example.com', password: 'other password 9' }, '?redirect_uri=%2Fback');
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(`/realms/${realm.uid}/otp_code?redirect_uri=%2Fback`);
    expect(await users(realm.uid)).toHaveLength(1);
  });

  it('moderated: creates an inactive user that an admin activates; a realm viewer may not', async () => {
    const realm = await realmWith('moderated');
    const jar = new CookieJar(base);
    const res = await signUp(jar, realm.uid, { email: 'wait@example.com', password: PASSWORD });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('An administrator will activate your account.');
    expect(jar.get(realmCookieName(realm.uid))).toBeUndefined();
    const [user] = await users(realm.uid);
    expect(user).toMatchObject({ email: 'wait@example.com', active: false });
    expect((await signupEvents(realm.uid))[0]).toMatchObject({ user: { id: user.id }, properties: { activation_mode: 'moderated' } });

    const loginAs = async () => {
      const other = new CookieJar(base);
      const page = await (await other.fetch(`/realms/${realm.uid}/login`)).text();
      return (await other.post(`/realms/${realm.uid}/login`, { username: 'wait@example.com', password: PASSWORD, csrf_token: inputValue(page, 'csrf_token')! })).status;
    };
    expect(await loginAs()).toBe(401);

    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    const refused = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/users/${user.id}/activate`, token: viewer });
    expect(refused.statusCode).toBe(403);

    const activated = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/users/${user.id}/activate` });
    expect(activated.statusCode, activated.body).toBe(200);
    expect(activated.json()).toMatchObject({ id: user.id, active: true });
    const unchanged = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/users/${user.id}/activate` });
    expect(unchanged.statusCode).toBe(200);
    expect(unchanged.json()).toEqual(activated.json());
    expect(await loginAs()).toBe(303);
    const unknown = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/users/999999/activate` });
    expect(unknown.statusCode).toBe(404);
  });

  it('disabled: no signup page and no link; invitation_only: no form and no link without an invitation', async () => {
    const realm = await realmWith('disabled');
    const jar = new CookieJar(base);
    const login = await (await jar.fetch(`/realms/${realm.uid}/login`)).text();
    expect(login).not.toContain('Create an account');
    const page = await jar.fetch(`/realms/${realm.uid}/signup`);
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain('<form');
    const post = await jar.post(`/realms/${realm.uid}/signup`, { email: 'x@example.com', password: PASSWORD });
    expect(post.status).toBe(404);
    expect(await users(realm.uid)).toHaveLength(0);

    const invited = await realmWith('invitation_only');
    expect(await (await jar.fetch(`/realms/${invited.uid}/login`)).text()).not.toContain('Create an account');
    const closed = await jar.fetch(`/realms/${invited.uid}/signup`);
    expect(closed.status).toBe(404);
    const text = await closed.text();
    expect(text).toContain('Accounts here are created by invitation only.');
    expect(text).not.toContain('<form');
    const forced = await jar.post(`/realms/${invited.uid}/signup`, { email: 'x@example.com', password: PASSWORD });
    expect(forced.status).toBe(404);
    expect(await users(invited.uid)).toHaveLength(0);
  });

  it('refuses a required checkbox left unticked, with the field\'s error', async () => {
    const realm = await realmWith();
    const res = await h.request({
      method: 'POST', url: `/api/admin/customers/${realm.uid}/custom_fields`,
      payload: { key: 'terms', name: 'I accept the terms', type: 'checkbox', required: true, visible: true, editable: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    const page = await (await new CookieJar(base).fetch(`/realms/${realm.uid}/signup`)).text();
    expect(page).toMatch(/<input id="field_terms" name="field_terms"[^>]*type="checkbox" value="true" required>/);
    const unticked = await signUp(new CookieJar(base), realm.uid, { email: 'box@example.com', password: PASSWORD });
    expect(unticked.status).toBe(422);
    const errors = await unticked.text();
    expect(errors).toMatch(/<input id="field_terms"[^>]*aria-invalid="true" aria-describedby="field_terms-error"/);
    expect(errors).toContain('<span class="field-error" id="field_terms-error">I accept the terms must be ticked.</span>');
    expect(await users(realm.uid)).toHaveLength(0);
    const ticked = await signUp(new CookieJar(base), realm.uid, { email: 'box@example.com', password: PASSWORD, field_terms: 'true' });
    expect(ticked.status).toBe(303);
    expect((await users(realm.uid))[0].custom_fields).toEqual([{ key: 'terms', value: true }]);
  });

  it('limits sign-ups to 20 an hour per client address and realm (429 page with Retry-After), counting refused ones too', async () => {
    const realm = await realmWith();
    const post = async (i: number, remoteAddress: string) => {
      const page = await h.request({ method: 'GET', url: `/realms/${realm.uid}/signup`, token: null, remoteAddress });
      const csrf = page.cookies.find((c) => c.name === 'atrium_csrf')!.value;
      return h.request({
        method: 'POST', url: `/realms/${realm.uid}/signup`, token: null, remoteAddress,
        headers: { cookie: `atrium_csrf=${csrf}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email: `many${i}@example.com`, password: i % 2 ? 'short' : PASSWORD, csrf_token: csrf }).toString(),
      });
    };
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => post(i, '10.9.8.7')));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const limited = answers.find((a) => a.statusCode === 429)!;
    expect(limited.headers['retry-after']).toBe('3600');
    expect(limited.body).toContain('Too many accounts were created from your network. Try again in 60 minutes.');
    // Another address is not held back, and the hour ends the lock.
    expect((await post(100, '10.9.8.8')).statusCode).toBe(303);
    h.clock.advanceMinutes(61);
    expect((await post(102, '10.9.8.7')).statusCode).toBe(303);
  });

  it('resumes the OAuth authorize flow after a direct sign-up', async () => {
    const realm = await realmWith('direct');
    const client = await createClient(h, realm.uid);
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    const authorize = authorizePath(realm.uid, {
      response_type: 'code', client_id: client.uid, redirect_uri: REDIRECT, state: 'st 1',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
    });
    const jar = new CookieJar(base);
    const first = await jar.fetch(authorize);
    expect(first.status).toBe(302);
    const loginPath = first.headers.get('location')!;
    expect(loginPath).toBe(`/realms/${realm.uid}/login?redirect_uri=${encodeURIComponent(authorize)}`);
    const login = await (await jar.fetch(loginPath)).text();
    const link = /<a href="([^"]*)">Create an account<\/a>/.exec(login)![1].replace(/&amp;/g, '&');
    expect(link).toBe(`/realms/${realm.uid}/signup?${new URLSearchParams({ redirect_uri: authorize })}`);
    const page = await (await jar.fetch(link)).text();
    expect(inputValue(page, 'redirect_uri')).toBe(authorize);
    const created = await jar.post(`/realms/${realm.uid}/signup`, {
      email: 'oauth@example.com', password: PASSWORD, redirect_uri: inputValue(page, 'redirect_uri')!, csrf_token: inputValue(page, 'csrf_token')!,
    });
    expect(created.status).toBe(303);
    expect(created.headers.get('location')).toBe(authorize);
    const back = await jar.fetch(authorize);
    expect(back.status).toBe(302);
    const params = callbackParams(back.headers.get('location')!);
    expect(params.get('state')).toBe('st 1');
    expect(params.get('code')).toBeTruthy();
  });
});
