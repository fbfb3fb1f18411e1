import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputValue } from '../helpers/cookie-jar.js';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken } from '../helpers/realms.js';
import { invitationLinkIn, type SmtpListener } from '../helpers/smtp.js';

const PASSWORD = 'a long secret 1';

const cookiesOf = (res: LightMyRequestResponse) => res.cookies.map((c) => `${c.name}=${c.value}`);

describe('invitation_only: sign-up through an administrator\'s invitation', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let address = 0;

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
  });
  afterAll(async () => { await h?.close(); });

  const invitationRealm = (mode = 'invitation_only') => makeRealm(h, { settings: { activation_mode: mode } });
  const invite = (uid: string, email: string, token?: string | null) =>
    h.request({ method: 'POST', url: `/api/admin/customers/${uid}/users/invitations`, payload: { email }, token });
  const invitedLink = async (uid: string, email: string) => {
    const res = await invite(uid, email);
    expect(res.statusCode, res.body).toBe(201);
    return invitationLinkIn(await smtp.next(email));
  };
  const users = async (uid: string) => (await h.request({ method: 'GET', url: `/api/admin/customers/${uid}/users` })).json().users as
    { id: number; email: string; active: boolean; username: string | null }[];

  /** Opens a signup page (a browser of its own, from an address of its own) and answers a poster of its form. */
  async function openSignUp(path: string) {
    const remoteAddress = `10.2.${Math.floor(++address / 250)}.${address % 250}`;
    const page = await h.request({ method: 'GET', url: path, token: null, remoteAddress });
    const cookie = cookiesOf(page).join('; ');
    return {
      page,
      post: (fields: Record<string, string>) => h.request({
        method: 'POST', url: path.replace(/\?.*/, ''), token: null, remoteAddress,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          invitation: inputValue(page.body, 'invitation') ?? '', csrf_token: inputValue(page.body, 'csrf_token') ?? '', ...fields,
        }).toString(),
      }),
    };
  }

  it('mails a 7-day invitation and answers 201 {email, expires_at} without the token', async () => {
    const realm = await invitationRealm();
    const res = await invite(realm.uid, ' Guest@Example.com ');
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toEqual({ email: 'guest@example.com', expires_at: new Date(h.clock.now().getTime() + 7 * 86_400_000).toISOString() });
    const mail = await smtp.next('guest@example.com');
    expect(mail.raw).toMatch(/^Subject: You are invited to Personal Banking\r$/m);
    const link = invitationLinkIn(mail);
    expect(res.body).not.toContain(link.split('=')[1]);
    expect(link).toMatch(new RegExp(`^/realms/${realm.uid}/signup\\?invitation=`));
  });

  it('is refused to a realm viewer, without a credential, for a taken or malformed email, and in a disabled realm', async () => {
    const realm = await invitationRealm();
    const other = await invitationRealm();
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    const otherAdmin = await memberToken(h, [{ key: 'realm_admin', target: other.uid }]);
    const manager = await memberToken(h, [{ key: 'realm_admin', target: realm.uid }]);
    expect((await invite(realm.uid, 'a@example.com', viewer)).statusCode).toBe(403);
    expect((await invite(realm.uid, 'a@example.com', otherAdmin)).statusCode).toBe(403);
    expect((await invite(realm.uid, 'a@example.com', null)).statusCode).toBe(401);
    expect((await invite(realm.uid, 'a@example.com', manager)).statusCode).toBe(201);
    await smtp.next('a@example.com');
    const user = await makeRealmUser(h, realm.uid, { email: 'member@example.com' });
    const taken = await invite(realm.uid, 'MEMBER@example.com');
    expect(taken.statusCode).toBe(422);
    expect(taken.json().details).toEqual([{ field: 'email', messages: ['has already been taken'] }]);
    expect(user.id).toBeGreaterThan(0);
    for (const email of ['', 'not an email', 'x'.repeat(300) + '@example.com']) {
      expect((await invite(realm.uid, email)).statusCode, email).toBe(422);
    }
    const disabled = await invitationRealm('disabled');
    const refused = await invite(disabled.uid, 'b@example.com');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors[0]).toMatch(/Sign-up is disabled/);
    expect((await invite('no-such-realm', 'b@example.com')).statusCode).toBe(404);
    expect(smtp.received.some((m) => m.to.includes('b@example.com'))).toBe(false);
  });

  it('opens the form with the invited address fixed, creates the user active and signed in, and works once', async () => {
    const realm = await invitationRealm();
    const link = await invitedLink(realm.uid, 'invited@example.com');
    const form = await openSignUp(link);
    expect(form.page.statusCode).toBe(200);
    expect(form.page.body).toContain('Email: <strong>invited@example.com</strong>');
    expect(form.page.body).not.toContain('name="email"');
    // Another email in the form changes nothing: the account is the invited address's.
    const res = await form.post({ email: 'someone-else@example.com', username: 'guest', password: PASSWORD });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/realms/${realm.uid}/profile`);
    const session = res.cookies.find((c) => c.name === `atrium_realm_${realm.uid}`)!;
    const me = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie: `${session.name}=${session.value}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('invited@example.com');
    const [user] = await users(realm.uid);
    expect(user).toMatchObject({ email: 'invited@example.com', username: 'guest', active: true });
    const events = await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/events?type=user_signup_log` });
    expect(events.json().events).toEqual([expect.objectContaining({ user: expect.objectContaining({ id: user.id }), properties: { activation_mode: 'invitation_only', invited: true } })]);

    const again = await h.request({ method: 'GET', url: link, token: null });
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('This invitation was already used');
    expect(again.body).not.toContain('<form');
    expect((await form.post({ password: PASSWORD })).statusCode).toBe(410);
    const unknown = await h.request({ method: 'GET', url: `/realms/${realm.uid}/signup?invitation=${'A'.repeat(43)}`, token: null });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('There is no invitation at this address.');
    expect(await users(realm.uid)).toHaveLength(1);
  });

  it('makes exactly one user of 50 simultaneous posts of one invitation', async () => {
    const realm = await invitationRealm();
    const link = await invitedLink(realm.uid, 'crowd@example.com');
    const forms = await Promise.all(Array.from({ length: 50 }, () => openSignUp(link)));
    const answers = await Promise.all(forms.map((form, i) => form.post({ username: `crowd${i}`, password: PASSWORD })));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 303)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 303).every((s) => s === 410)).toBe(true);
    expect(answers.filter((a) => a.cookies.some((c) => c.name === `atrium_realm_${realm.uid}`))).toHaveLength(1);
    expect(await users(realm.uid)).toHaveLength(1);
    const events = await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/events?type=user_signup_log` });
    expect(events.json().events).toHaveLength(1);
  });

  it('lasts 7 days; inviting again replaces the earlier link; a weak password leaves the invitation usable', async () => {
    const realm = await invitationRealm();
    const first = await invitedLink(realm.uid, 'twice@example.com');
    const second = await invitedLink(realm.uid, 'twice@example.com');
    expect((await h.request({ method: 'GET', url: first, token: null })).statusCode).toBe(410);
    const form = await openSignUp(second);
    const weak = await form.post({ password: 'short' });
    expect(weak.statusCode).toBe(422);
    expect(weak.body).toContain('Email: <strong>twice@example.com</strong>');
    expect(await users(realm.uid)).toHaveLength(0);

    const late = await invitedLink(realm.uid, 'late@example.com');
    const lateForm = await openSignUp(late);
    h.clock.advanceMinutes(7 * 24 * 60 - 1);
    expect((await form.post({ password: PASSWORD })).statusCode).toBe(303);
    h.clock.advanceMinutes(2);
    expect((await lateForm.post({ password: PASSWORD })).statusCode).toBe(410);
    expect((await h.request({ method: 'GET', url: late, token: null })).statusCode).toBe(410);
    expect((await users(realm.uid)).map((u) => u.email)).toEqual(['twice@example.com']);
  });

  it('works in the other open modes too (active at once, even moderated), and says so when the address got an account meanwhile', async () => {
    const moderated = await invitationRealm('moderated');
    const link = await invitedLink(moderated.uid, 'approved@example.com');
    expect((await (await openSignUp(link)).post({ password: PASSWORD })).statusCode).toBe(303);
    expect((await users(moderated.uid))[0]).toMatchObject({ email: 'approved@example.com', active: true });

    const realm = await invitationRealm();
    const raced = await invitedLink(realm.uid, 'raced@example.com');
    const form = await openSignUp(raced);
    await makeRealmUser(h, realm.uid, { email: 'raced@example.com' });
    const res = await form.post({ password: PASSWORD });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('An account with this email address exists already.');
    expect(await users(realm.uid)).toHaveLength(1);
  });
});
