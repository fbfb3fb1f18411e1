import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, signIn } from '../helpers/admin.js';
import { removeExpiredRows } from '../../src/maintenance/expired-rows.js';
import { OWNER_EMAIL, startHarnessWithSmtp, type Harness } from '../helpers/harness.js';
import { makeRealm } from '../helpers/realms.js';
import { mailText, memberInvitationTokenIn, type SmtpListener } from '../helpers/smtp.js';

const PASSWORD = 'a brand new password';
const DAY_MS = 24 * 60 * 60_000;

describe('team invitations', () => {
  let h: Harness;
  let smtp: SmtpListener;
  let realmUid: string;
  beforeAll(async () => {
    ({ h, smtp } = await startHarnessWithSmtp());
    realmUid = (await makeRealm(h)).uid;
  });
  afterAll(async () => { await h?.close(); });

  const invite = (payload: Record<string, unknown>, token?: string) =>
    h.request({ method: 'POST', url: '/api/admin/team_members/invitations', payload, ...(token ? { token } : {}) });
  const accept = (token: string, password = PASSWORD, remoteAddress = '10.0.0.1') =>
    h.request({ method: 'POST', url: '/api/admin/team_members/invitations/accept', token: null, remoteAddress, payload: { token, password } });

  it('creates the member inactive, mails a one-time link through the mail queue, and the link sets the password once', async () => {
    const res = await invite({ email: 'Grace@Example.com', first_name: 'Grace', last_name: 'Hopper', roles: [{ key: 'realm_admin', target: realmUid }] });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(Number), email: 'grace@example.com', expires_at: new Date(h.clock.now().getTime() + 7 * DAY_MS).toISOString(),
      member: expect.objectContaining({ email: 'grace@example.com', name: 'Grace Hopper', active: false, roles: [{ key: 'realm_admin', target: realmUid }] }),
    });
    expect(res.body).not.toMatch(/token|password/);

    const mail = await smtp.next('grace@example.com');
    expect(mail.raw).toMatch(/^Subject: You are invited to Atrium\r?$/m);
    expect(mailText(mail)).toContain('It is valid for 7 days and works once.');
    const token = memberInvitationTokenIn(mail);

    // Not yet a member who can sign in: no password matches.
    expect((await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: 'grace@example.com', password: PASSWORD } })).statusCode).toBe(401);
    const weak = await accept(token, 'short');
    expect(weak.statusCode).toBe(422);
    expect(weak.json().details).toEqual([{ field: 'password', messages: ['is too short (minimum is 8 characters)'] }]);

    const accepted = await accept(token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ email: 'grace@example.com' });
    const session = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: 'grace@example.com', password: PASSWORD } });
    expect(session.statusCode).toBe(200);
    expect(session.json().permissions.targets).toEqual([expect.objectContaining({ context: 'realm', target: realmUid })]);
    expect((await h.request({ url: `/api/admin/team_members/${body.member.id}` })).json().active).toBe(true);

    const again = await accept(token, 'another password 2');
    expect(again.statusCode).toBe(410);
    expect(again.json().code).toBe('ATR_INVITATION_GONE');
    const unknown = await accept('x'.repeat(43));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('ATR_INVITATION_NOT_FOUND');

    // Both steps are in the audit log: the owner's invitation and the member's acceptance.
    const logs = (await h.request({ url: '/api/admin/logs?per_page=100' })).json().logs as { operation: string; member_id: number | null }[];
    expect(logs).toEqual(expect.arrayContaining([
      expect.objectContaining({ operation: 'POST /team_members/invitations', member_id: h.ownerId, resource_type: 'invitations', resource_id: String(body.id) }),
      expect.objectContaining({ operation: 'invitation_accepted', member_id: body.member.id, resource_type: 'team_members', resource_id: String(body.member.id) }),
    ]));
  });

  it('refuses an active member\'s address, unknown targets and roles the inviter does not hold, writing nothing', async () => {
    const before = (await h.request({ url: '/api/admin/team_members' })).json().meta.total_entries;
    const taken = await invite({ email: OWNER_EMAIL.toUpperCase() });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().details).toEqual([{ field: 'email', messages: ['has already been taken'] }]);
    const bad = await invite({ email: 'not-an-email', roles: [{ key: 'realm_admin', target: 'no-such-realm' }, { key: 'space_writer' }] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details).toEqual([
      { field: 'email', messages: ['is invalid'] },
      { field: 'roles.0.target', messages: ['is not a known realm: no-such-realm'] },
      { field: 'roles.1.target', messages: ['must name the space the role applies to'] },
    ]);
    const admin = await createMember(h, [{ key: 'account_admin' }]);
    expect((await invite({ email: 'boss@example.com', roles: [{ key: 'account_owner' }] }, admin.token)).statusCode).toBe(403);
    const viewer = await createMember(h, [{ key: 'account_user' }]);
    expect((await invite({ email: 'friend@example.com' }, viewer.token)).statusCode).toBe(403);
    expect((await h.request({ url: '/api/admin/team_members' })).json().meta.total_entries).toBe(before + 2);
    expect(smtp.received.some((m) => m.to.includes('boss@example.com') || m.to.includes('friend@example.com'))).toBe(false);
  });

  it('re-inviting a pending member replaces the link and the roles; the old link is gone', async () => {
    await invite({ email: 'ada@example.com', roles: [{ key: 'account_user' }] });
    const first = memberInvitationTokenIn(await smtp.next('ada@example.com'));
    const again = await invite({ email: 'ada@example.com', first_name: 'Ada', roles: [{ key: 'realm_viewer', target: realmUid }], locale: 'es' });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().member).toMatchObject({ name: 'Ada', active: false, roles: [{ key: 'realm_viewer', target: realmUid }] });
    const mail = await smtp.next('ada@example.com');
    expect(mailText(mail)).toContain('Te invitaron al equipo de Atrium');
    const second = memberInvitationTokenIn(mail);
    expect(second).not.toBe(first);
    expect((await accept(first)).statusCode).toBe(410);
    expect((await accept(second)).statusCode).toBe(200);
    // Accepted: the address is now an active member's.
    expect((await invite({ email: 'ada@example.com' })).statusCode).toBe(422);
  });

  it('a link expires after seven days (the injected clock), and its row goes a week later', async () => {
    await invite({ email: 'late@example.com' });
    const token = memberInvitationTokenIn(await smtp.next('late@example.com'));
    h.clock.advance(7 * DAY_MS);
    const res = await accept(token);
    expect(res.statusCode).toBe(410);
    expect(res.json().code).toBe('ATR_INVITATION_GONE');
    expect((await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: 'late@example.com', password: PASSWORD } })).statusCode).toBe(401);
    // A week past its end the link's row is removed (then unknown: 404); the member, still pending, can be invited again.
    h.clock.advance(7 * DAY_MS + 1);
    expect((await removeExpiredRows(h.ctx)).member_invitations).toBeGreaterThanOrEqual(1);
    expect((await accept(token)).statusCode).toBe(404);
    expect((await invite({ email: 'late@example.com' })).statusCode).toBe(201);
    expect((await accept(memberInvitationTokenIn(await smtp.next('late@example.com')))).statusCode).toBe(200);
  });

  it('of 50 parallel uses of one link exactly one sets the password', async () => {
    await invite({ email: 'race@example.com' });
    const token = memberInvitationTokenIn(await smtp.next('race@example.com'));
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => accept(token, `parallel password ${i}`, `10.1.0.${i + 1}`)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 410)).toHaveLength(49);
    const winner = statuses.indexOf(200);
    await signIn(h, 'race@example.com', `parallel password ${winner}`);
  });

  it('locks an address after twenty unknown or spent tokens, with Retry-After', async () => {
    const address = '10.2.0.1';
    for (let i = 0; i < 20; i++) expect((await accept(`unknown-${i}`, PASSWORD, address)).statusCode).toBe(404);
    const locked = await accept('unknown-last', PASSWORD, address);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('ATR_TOO_MANY_ATTEMPTS');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await accept('unknown-other', PASSWORD, '10.2.0.2')).statusCode).toBe(404);
  });
});
