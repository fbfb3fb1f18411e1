import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';
import { activationLinkIn, codeIn, invitationLinkIn, mailText, resetLinkIn, type SmtpListener } from '../helpers/smtp.js';
import { submitForm, verify } from '../otp/flow.js';
import { browser, h as rig, idp, REALMS, sessionCookie, toCallback, useRig, written } from '../delegation/rig.js';

/** DESIGN.md "Verified addresses": an address counts as someone's only once a link or code sent to it was used. */

const ATTACKER_PASSWORD = 'attacker chose this 1';
const VICTIM_PASSWORD = 'victim chose this 2';

const adminUser = async (h: Harness, realm: string, email: string) => {
  const res = await h.request({ method: 'GET', url: `/api/admin/customers/${realm}/users?query=${encodeURIComponent(email)}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().users.find((u: { email: string }) => u.email === email) as { id: number; email: string; email_verified_at: string | null } | undefined;
};
const signUpAtPage = (h: Harness, realm: string, email: string, password: string) => submitForm(h, `/realms/${realm}/signup`, { email, password });

describe('pre-account hijack: a provider identity is linked only to an account whose address was proven', () => {
  useRig();

  it('refuses to link the victim\'s provider account to the attacker\'s direct sign-up with the victim\'s address, in English and Spanish', async () => {
    Object.assign(idp.accounts, { victim: { email: 'victim@corp.test', email_verified: true, given_name: 'Victoria' } });
    const attacker = await signUpAtPage(rig, REALMS.direct, 'victim@corp.test', ATTACKER_PASSWORD);
    expect(attacker.statusCode, attacker.body).toBe(303);
    const account = await adminUser(rig, REALMS.direct, 'victim@corp.test');
    expect(account?.email_verified_at).toBeNull();

    const before = await written();
    const b = browser();
    const refused = await b.atrium.fetch((await toCallback(b, REALMS.direct, 'victim')).callback);
    const page = await refused.text();
    expect(refused.status).toBe(409);
    expect(page).toContain('An account here already uses your email address, but that address was never confirmed');
    expect(page).toContain('Sign in first with that account&#39;s password or with a code sent to your address');
    expect(sessionCookie(b, REALMS.direct)).toBeUndefined();
    expect(await written()).toEqual(before);

    const es = browser();
    const spanish = await es.atrium.fetch((await toCallback(es, REALMS.direct, 'victim')).callback, { headers: { 'accept-language': 'es' } });
    expect(spanish.status).toBe(409);
    expect(await spanish.text()).toContain('Ya hay aquí una cuenta con tu dirección de correo electrónico, pero esa dirección nunca se confirmó');
    expect(await written()).toEqual(before);
    // The attacker's password opens the attacker's account, to which nothing of the victim was linked.
    await expect(signInAtLoginPage(rig, REALMS.direct, 'victim@corp.test', ATTACKER_PASSWORD)).resolves.toMatch(/^atrium_realm_/);
  });

  it('links an account whose address an administrator set (the control), and marks a provider-made user verified', async () => {
    Object.assign(idp.accounts, { vouched: { email: 'vouched@corp.test', email_verified: true }, fresh: { email: 'fresh@corp.test', email_verified: true } });
    const vouched = await makeRealmUser(rig, REALMS.direct, { email: 'vouched@corp.test' });
    expect(vouched.email_verified_at).not.toBeNull();
    const b = browser();
    expect((await b.atrium.fetch((await toCallback(b, REALMS.direct, 'vouched')).callback)).status).toBe(303);
    const c = browser();
    expect((await c.atrium.fetch((await toCallback(c, REALMS.direct, 'fresh')).callback)).status).toBe(303);
    expect((await adminUser(rig, REALMS.direct, 'fresh@corp.test'))?.email_verified_at).not.toBeNull();
  });
});

describe('sign-up and email changes wait for the address\'s proof (mails through a real SMTP listener)', () => {
  let h: Harness;
  let smtp: SmtpListener;

  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
  });
  afterAll(async () => { await h?.close(); });

  const follow = (link: string) => submitForm(h, link, {});

  it('activation_email: a second sign-up of a pending address replaces its password; the first link is dead', async () => {
    const realm = await makeRealm(h, { settings: { activation_mode: 'activation_email' } });
    expect((await signUpAtPage(h, realm.uid, 'victim@corp.test', ATTACKER_PASSWORD)).statusCode).toBe(200);
    const attackersLink = activationLinkIn(await smtp.next('victim@corp.test'));
    expect((await signUpAtPage(h, realm.uid, 'Victim@Corp.test', VICTIM_PASSWORD)).statusCode).toBe(200);
    const victimsLink = activationLinkIn(await smtp.next('victim@corp.test'));
    expect(victimsLink).not.toBe(attackersLink);

    expect((await h.request({ method: 'GET', url: attackersLink, token: null })).statusCode).toBe(410);
    expect((await follow(victimsLink)).statusCode).toBe(303);
    const user = await adminUser(h, realm.uid, 'victim@corp.test');
    expect(user?.email_verified_at).not.toBeNull();
    await expect(signInAtLoginPage(h, realm.uid, 'victim@corp.test', VICTIM_PASSWORD)).resolves.toMatch(/^atrium_realm_/);
    await expect(signInAtLoginPage(h, realm.uid, 'victim@corp.test', ATTACKER_PASSWORD)).rejects.toThrow(/answered 401/);
    const all = await h.request({ method: 'GET', url: `/api/admin/customers/${realm.uid}/users` });
    expect(all.json().users).toHaveLength(1);
  });

  it('otp: password sign-in is refused, as a wrong password is, until the first code was used; accepted after', async () => {
    const realm = await makeRealm(h, { settings: { activation_mode: 'otp', otp_resend_wait_seconds: 0 } });
    const signedUp = await signUpAtPage(h, realm.uid, 'coder@corp.test', VICTIM_PASSWORD);
    expect(signedUp.statusCode, signedUp.body).toBe(303);
    const code = codeIn(await smtp.next('coder@corp.test'));

    const refused = await submitForm(h, `/realms/${realm.uid}/login`, { username: 'coder@corp.test', password: VICTIM_PASSWORD });
    const unknown = await submitForm(h, `/realms/${realm.uid}/login`, { username: 'nobody@corp.test', password: VICTIM_PASSWORD });
    expect(refused.statusCode).toBe(401);
    expect(refused.cookies.find((c) => c.name === `atrium_realm_${realm.uid}`)).toBeUndefined();
    const strip = (body: string) => body.replace(/value="[^"]*"/g, '');
    expect(strip(refused.body)).toBe(strip(unknown.body));
    expect((await adminUser(h, realm.uid, 'coder@corp.test'))?.email_verified_at).toBeNull();

    expect((await verify(h, realm.uid, 'coder@corp.test', code)).statusCode).toBe(200);
    expect((await adminUser(h, realm.uid, 'coder@corp.test'))?.email_verified_at).not.toBeNull();
    await expect(signInAtLoginPage(h, realm.uid, 'coder@corp.test', VICTIM_PASSWORD)).resolves.toMatch(/^atrium_realm_/);
  });

  it('which way verifies what, and the migration\'s data update finds the same users in their events', async () => {
    const direct = await makeRealm(h);
    const otp = await makeRealm(h, { settings: { activation_mode: 'otp', otp_resend_wait_seconds: 0 } });
    const verified = async (realm: string, email: string) => Boolean((await adminUser(h, realm, email))?.email_verified_at);
    expect((await signUpAtPage(h, direct.uid, 'direct@corp.test', VICTIM_PASSWORD)).statusCode).toBe(303);
    await makeRealmUser(h, direct.uid, { email: 'by-admin@corp.test' });
    const invited = await h.request({ method: 'POST', url: `/api/admin/customers/${direct.uid}/users/invitations`, payload: { email: 'invited@corp.test' } });
    expect(invited.statusCode, invited.body).toBe(201);
    expect((await signUpAtPage(h, direct.uid, 'reset@corp.test', VICTIM_PASSWORD)).statusCode).toBe(303);
    expect((await submitForm(h, `/realms/${direct.uid}/password`, { identifier: 'reset@corp.test' })).statusCode).toBe(200);
    const reset = await submitForm(h, resetLinkIn(await smtp.next('reset@corp.test')), { password: ATTACKER_PASSWORD, confirmation: ATTACKER_PASSWORD });
    expect(reset.statusCode, reset.body).toBe(303);
    const signedUp = await signUpAtPage(h, otp.uid, 'by-code@corp.test', VICTIM_PASSWORD);
    const code = await submitForm(h, `/realms/${otp.uid}/otp_code`, { code: codeIn(await smtp.next('by-code@corp.test')) }, signedUp.jar);
    expect(code.statusCode, code.body).toBe(303);
    expect((await signUpAtPage(h, otp.uid, 'no-code@corp.test', VICTIM_PASSWORD)).statusCode).toBe(303);
    const link = invitationLinkIn(await smtp.next('invited@corp.test'));
    const invitation = await submitForm(h, link, { invitation: new URL(link, 'http://x').searchParams.get('invitation')!, password: VICTIM_PASSWORD });
    expect(invitation.statusCode, invitation.body).toBe(303);

    const expected = [
      [direct.uid, 'direct@corp.test', false], [direct.uid, 'by-admin@corp.test', true], [direct.uid, 'invited@corp.test', true],
      [direct.uid, 'reset@corp.test', true], [otp.uid, 'by-code@corp.test', true], [otp.uid, 'no-code@corp.test', false],
    ] as const;
    const now = async () => Promise.all(expected.map(async ([realm, email]) => [realm, email, await verified(realm, email)]));
    expect(await now()).toEqual(expected);
    // Users from before the column: the hand-written block of the migration reads their proofs from their events.
    const migration = fs.readFileSync(new URL('../../drizzle/0013_verified_addresses.sql', import.meta.url), 'utf8');
    const update = migration.slice(migration.indexOf('UPDATE "realm_users"'));
    await h.ctx.db.execute(sql`update realm_users set email_verified_at = null`);
    await h.ctx.db.execute(sql.raw(update));
    expect(await now()).toEqual(expected);
  });

  describe('PUT /me with a new email', () => {
    let realm: { uid: string };
    let user: { id: number; email: string };
    let cookie: string;

    beforeAll(async () => {
      realm = await makeRealm(h);
      user = await makeRealmUser(h, realm.uid, { email: 'old@corp.test' });
      cookie = await signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    });

    const me = () => h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie } });
    const put = (url: string, email: string) => h.request({ method: 'PUT', url, token: null, headers: { cookie }, payload: { email } });
    const changeLinkIn = (text: string) => /http:\/\/atrium\.test(\/realms\/[^/\s]+\/email_change\/[A-Za-z0-9_-]{43})/.exec(text)?.[1];

    it('stays pending until the link mailed to the new address is used; the old address gets a notice', async () => {
      const res = await put(`/api/customers/realms/${realm.uid}/me`, 'New@Corp.test');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().email).toBe('old@corp.test');
      const link = changeLinkIn(mailText(await smtp.next('new@corp.test')));
      expect(link).toBeDefined();
      const notice = mailText(await smtp.next('old@corp.test'));
      expect(notice).toContain('asked to change its email address to new@corp.test');
      expect(changeLinkIn(notice)).toBeUndefined();
      expect((await me()).json().email).toBe('old@corp.test');
      await expect(signInAtLoginPage(h, realm.uid, 'new@corp.test', REALM_USER_PASSWORD)).rejects.toThrow(/answered 401/);

      const page = await h.request({ method: 'GET', url: link!, token: null });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<strong>new@corp.test</strong>');
      expect((await me()).json().email).toBe('old@corp.test');
      const done = await follow(link!);
      expect(done.statusCode, done.body).toBe(200);
      expect(done.body).toContain('is now <strong>new@corp.test</strong>');
      expect((await me()).json().email).toBe('new@corp.test');
      expect((await adminUser(h, realm.uid, 'new@corp.test'))?.email_verified_at).not.toBeNull();
      await expect(signInAtLoginPage(h, realm.uid, 'new@corp.test', REALM_USER_PASSWORD)).resolves.toMatch(/^atrium_realm_/);
      expect((await h.request({ method: 'GET', url: link!, token: null })).statusCode).toBe(410);
    });

    it('through the profile API too; the link expires after 24 hours on the injected clock, and a newer one replaces it', async () => {
      const res = await put(`/api/profile/me?realm_uid=${realm.uid}`, 'later@corp.test');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().email).toBe('new@corp.test');
      const first = changeLinkIn(mailText(await smtp.next('later@corp.test')))!;
      await smtp.next('new@corp.test');
      expect((await put(`/api/profile/me?realm_uid=${realm.uid}`, 'latest@corp.test')).statusCode).toBe(200);
      const second = changeLinkIn(mailText(await smtp.next('latest@corp.test')))!;
      await smtp.next('new@corp.test');
      expect((await h.request({ method: 'GET', url: first, token: null })).statusCode).toBe(410);
      h.clock.advance(24 * 60 * 60_000 + 1000);
      expect((await h.request({ method: 'GET', url: second, token: null })).statusCode).toBe(410);
      // The session has ended meanwhile too: a new one, under the unchanged address.
      cookie = await signInAtLoginPage(h, realm.uid, 'new@corp.test', REALM_USER_PASSWORD);
      expect((await me()).json().email).toBe('new@corp.test');
    });

    it('fails cleanly when the address was taken meanwhile (case-insensitive), changing nothing', async () => {
      expect((await put(`/api/customers/realms/${realm.uid}/me`, 'contested@corp.test')).statusCode).toBe(200);
      const link = changeLinkIn(mailText(await smtp.next('contested@corp.test')))!;
      await smtp.next('new@corp.test');
      await makeRealmUser(h, realm.uid, { email: 'Contested@Corp.test' });
      const taken = await follow(link);
      expect(taken.statusCode).toBe(409);
      expect(taken.body).toContain('Another account uses this email address now');
      expect((await me()).json().email).toBe('new@corp.test');
    });

    it('mails at most 5 change links a user an hour: the 6th request answers 429, writes nothing and mails nothing', async () => {
      const spammer = await makeRealmUser(h, realm.uid, { email: 'spammer@corp.test' });
      const session = await signInAtLoginPage(h, realm.uid, spammer.email, REALM_USER_PASSWORD);
      const change = (payload: object) => h.request({
        method: 'PUT', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie: session }, payload,
      });
      for (let i = 1; i <= 5; i++) {
        expect((await change({ email: `target-${i}@corp.test` })).statusCode).toBe(200);
        await smtp.next(`target-${i}@corp.test`);
      }
      const sixth = await change({ email: 'target-6@corp.test', first_name: 'Changed' });
      expect(sixth.statusCode).toBe(429);
      const mine = await h.request({ method: 'GET', url: `/api/customers/realms/${realm.uid}/me`, token: null, headers: { cookie: session } });
      expect(mine.json().first_name).not.toBe('Changed');
      // Other changes are not limited; an hour later the address can be changed again.
      expect((await change({ first_name: 'Sam' })).statusCode).toBe(200);
      h.clock.advance(60 * 60_000);
      expect((await change({ email: 'target-7@corp.test' })).statusCode).toBe(200);
      await smtp.next('target-7@corp.test');
      expect(smtp.received.some((mail) => mail.to.includes('target-6@corp.test'))).toBe(false);
    });
  });
});
