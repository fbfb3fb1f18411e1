import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../../src/jobs/runner.js';
import { expiredRowsJob } from '../../src/maintenance/expired-rows.js';
import { counters } from '../../src/metrics/counters.js';

const DAY = 86_400_000;
import { OWNER_EMAIL, OWNER_PASSWORD, startHarness, type Harness } from '../helpers/harness.js';
import { createMember, signIn } from '../helpers/admin.js';
import { CookieJar, inputValue } from '../helpers/cookie-jar.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { listen } from '../helpers/server.js';

interface LogEntry {
  id: number;
  at: string;
  member_id: number | null;
  member_email: string | null;
  credential: 'session' | 'token' | null;
  application_id: number | null;
  operation: string;
  resource_type: string | null;
  resource_id: string | null;
  address: string | null;
  changed: string[];
  status_code: number | null;
}

const lockouts = async (who: string) => (await counters.lockouts.get()).values.find((v) => v.labels.who === who)?.value ?? 0;

describe('the admin audit log', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  const logs = async (query = '', token?: string | null): Promise<LogEntry[]> => {
    const res = await h.request({ method: 'GET', url: `/api/admin/logs?per_page=100${query}`, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().logs;
  };
  const newest = async (n: number) => (await logs()).slice(0, n).reverse();

  it('records a sequence of writes with who, how, what and which attribute names, and never a secret', async () => {
    const { cookie, csrf } = await signIn(h, OWNER_EMAIL, OWNER_PASSWORD);
    const session = { token: null, headers: { cookie, 'x-csrf-token': csrf } };
    const realm = await h.request({ method: 'POST', url: '/api/admin/realms', ...session, payload: { uid: 'audited', name: 'Audited' } });
    expect(realm.statusCode, realm.body).toBe(201);
    h.clock.advanceMinutes(1);
    const renamed = await h.request({ method: 'PUT', url: '/api/admin/realms/audited', ...session, payload: { name: 'Audited bank', active: true } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const password = 'the realm user secret 9';
    const user = await h.request({
      method: 'POST', url: '/api/admin/customers/audited/users', payload: { email: 'ada@example.com', password, first_name: 'Ada' },
    });
    expect(user.statusCode, user.body).toBe(201);
    const application = await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Back office' } });
    expect(application.statusCode, application.body).toBe(201);
    const minted = await h.request({
      method: 'POST', url: `/api/admin/team_members/${h.ownerId}/access_tokens`, payload: { application_id: application.json().id },
    });
    expect(minted.statusCode, minted.body).toBe(201);
    const token = minted.json().token as string;
    const client = await h.request({
      method: 'POST', url: '/api/admin/customers/audited/oauth_clients', token,
      payload: { name: 'Mobile app', redirect_uris: ['https://app.example/callback'], confidential: true },
    });
    expect(client.statusCode, client.body).toBe(201);
    const removed = await h.request({ method: 'DELETE', url: `/api/admin/customers/audited/users/${user.json().id}`, token });
    expect(removed.statusCode, removed.body).toBe(204);

    const owner = { member_id: h.ownerId, member_email: OWNER_EMAIL };
    const bySession = { ...owner, credential: 'session', application_id: null };
    const byOwnerToken = { ...owner, credential: 'token', application_id: expect.any(Number) };
    const byNewToken = { ...owner, credential: 'token', application_id: application.json().id };
    const entries = await newest(7);
    expect(entries).toEqual([
      expect.objectContaining({ ...bySession, operation: 'POST /realms', resource_type: 'realms', resource_id: 'audited', changed: ['uid', 'name'], status_code: 201 }),
      expect.objectContaining({ ...bySession, operation: 'PUT /realms/{realm_uid}', resource_type: 'realms', resource_id: 'audited', changed: ['name', 'active'], status_code: 200 }),
      expect.objectContaining({
        ...byOwnerToken, operation: 'POST /customers/{realm_uid}/users', resource_type: 'users', resource_id: String(user.json().id),
        changed: ['email', 'password', 'first_name'], status_code: 201,
      }),
      expect.objectContaining({ ...byOwnerToken, operation: 'POST /api_access/applications', resource_type: 'applications', resource_id: String(application.json().id) }),
      expect.objectContaining({
        ...byOwnerToken, operation: 'POST /team_members/{id}/access_tokens', resource_type: 'access_tokens', resource_id: String(minted.json().id),
        changed: ['application_id'],
      }),
      expect.objectContaining({
        ...byNewToken, operation: 'POST /customers/{realm_uid}/oauth_clients', resource_type: 'oauth_clients', resource_id: String(client.json().id),
        changed: ['name', 'redirect_uris', 'confidential'], status_code: 201,
      }),
      expect.objectContaining({
        ...byNewToken, operation: 'DELETE /customers/{realm_uid}/users/{id}', resource_type: 'users', resource_id: String(user.json().id),
        changed: [], status_code: 204,
      }),
    ]);
    expect(entries[0].address).toBe('127.0.0.1');
    expect(new Date(entries[1].at).getTime() - new Date(entries[0].at).getTime()).toBe(60_000);

    // Not one secret value anywhere in the whole log (sign-ins included), nor in the table itself.
    const everything = JSON.stringify(await logs()) + JSON.stringify((await h.ctx.db.execute(sql`select * from audit_logs`)));
    for (const secret of [password, token, h.ownerToken, application.json().secret, client.json().secret, OWNER_PASSWORD, csrf, cookie.split('=')[1]]) {
      expect(secret).toEqual(expect.any(String));
      expect(everything).not.toContain(secret);
    }
  });

  it('records nothing for a write that fails, and nothing of a write whose record cannot be written', async () => {
    const before = (await logs()).length;
    const invalid = await h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: 'not a uid!', name: 'x' } });
    expect(invalid.statusCode).toBe(422);
    const missing = await h.request({ method: 'PUT', url: '/api/admin/realms/nowhere', payload: { name: 'x' } });
    expect(missing.statusCode).toBe(404);
    expect((await logs()).length).toBe(before);

    // The record is written in the write's transaction: when it fails after the realm's row was written, no realm is left.
    await h.ctx.db.execute(sql.raw(`create function refuse_audit() returns trigger language plpgsql as $$
      begin if new.operation = 'POST /realms' then raise exception 'no audit today'; end if; return new; end $$`));
    await h.ctx.db.execute(sql.raw('create trigger refuse_audit before insert on audit_logs for each row execute function refuse_audit()'));
    try {
      const refused = await h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: 'half-written', name: 'Half' } });
      expect(refused.statusCode).toBe(500);
      expect((await h.request({ method: 'GET', url: '/api/admin/realms/half-written' })).statusCode).toBe(404);
      // Other writes go on.
      expect((await h.request({ method: 'PUT', url: '/api/admin/realms/audited', payload: { name: 'Still' } })).statusCode).toBe(200);
    } finally {
      await h.ctx.db.execute(sql.raw('drop trigger refuse_audit on audit_logs'));
      await h.ctx.db.execute(sql.raw('drop function refuse_audit()'));
    }
    expect((await h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: 'half-written', name: 'Half' } })).statusCode).toBe(201);
  });

  it('records sign-ins, failed sign-ins (the email tried, nothing else), lockouts and sign-outs', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const adminLockouts = await lockouts('admin');
    const wrong = 'not the password at all';
    const unknown = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: 'Nobody@Example.com', password: wrong } });
    expect(unknown.statusCode).toBe(401);
    expect((await newest(1))[0]).toMatchObject({
      member_id: null, member_email: 'nobody@example.com', credential: null, application_id: null, operation: 'sign_in_failed',
      resource_type: null, resource_id: null, changed: [], status_code: 401,
    });
    for (let i = 0; i < 10; i++) {
      const res = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: member.email, password: wrong } });
      expect(res.statusCode).toBe(401);
    }
    const locked = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: member.email, password: member.password } });
    expect(locked.statusCode).toBe(429);
    const mine = await logs(`&member_id=${member.id}`);
    const failedOf = { member_id: member.id, member_email: member.email, credential: null, operation: 'sign_in_failed' };
    expect(mine.slice(0, 3)).toEqual([
      expect.objectContaining({ ...failedOf, status_code: 429 }),
      expect.objectContaining({ ...failedOf, operation: 'locked_out', status_code: 401 }),
      expect.objectContaining({ ...failedOf, status_code: 401 }),
    ]);
    expect(mine.filter((e) => e.operation === 'sign_in_failed')).toHaveLength(11);
    expect(mine.filter((e) => e.operation === 'locked_out')).toHaveLength(1);
    expect(await lockouts('admin')).toBe(adminLockouts + 1);
    expect(JSON.stringify(await logs())).not.toContain(wrong);

    h.clock.advanceMinutes(16);
    const { cookie, csrf } = await signIn(h, member.email, member.password);
    const out = await h.request({ method: 'DELETE', url: '/api/admin/session', token: null, headers: { cookie, 'x-csrf-token': csrf } });
    expect(out.statusCode).toBe(204);
    const [signedIn, signedOut] = await newest(2);
    expect(signedIn).toMatchObject({ member_id: member.id, credential: 'session', operation: 'sign_in', resource_type: 'sessions', status_code: 200 });
    expect(signedOut).toMatchObject({
      member_id: member.id, credential: 'session', operation: 'sign_out', resource_type: 'sessions', resource_id: signedIn.resource_id, status_code: 204,
    });
  });

  it('is read with audit.read only: 401 without a credential, 403 for a member without it', async () => {
    const reader = await createMember(h, [{ key: 'account_admin' }]);
    const plain = await createMember(h, [{ key: 'account_user' }]);
    const realmAdmin = await createMember(h, [{ key: 'realm_admin', target: 'audited' }]);
    expect((await h.request({ method: 'GET', url: '/api/admin/logs', token: null })).statusCode).toBe(401);
    expect((await h.request({ method: 'GET', url: '/api/admin/logs', token: plain.token })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/admin/logs', token: realmAdmin.token })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/admin/logs', token: reader.token })).statusCode).toBe(200);
  });

  it('filters by member, resource and period, newest first, in pages; a malformed filter answers 422', async () => {
    const member = await createMember(h, [{ key: 'account_owner' }]);
    const start = h.clock.now();
    for (const name of ['One', 'Two', 'Three']) {
      h.clock.advanceMinutes(1);
      const res = await h.request({ method: 'PUT', url: '/api/admin/realms/audited', token: member.token, payload: { name } });
      expect(res.statusCode).toBe(200);
    }
    const three = await logs(`&member_id=${member.id}&resource_type=realms&resource_id=audited`);
    expect(three.map((e) => new Date(e.at).getTime())).toEqual([3, 2, 1].map((m) => start.getTime() + m * 60_000));
    const page = await h.request({ method: 'GET', url: `/api/admin/logs?member_id=${member.id}&resource_type=realms&per_page=2&page=2` });
    expect(page.json()).toMatchObject({ logs: [{ id: three[2].id }], meta: { total_entries: 3, per_page: 2, current_page: 2, total_pages: 2 } });
    const period = await logs(`&member_id=${member.id}&from=${new Date(start.getTime() + 2 * 60_000).toISOString()}&to=${new Date(start.getTime() + 3 * 60_000).toISOString()}`);
    expect(period.map((e) => e.id)).toEqual([three[1].id]);
    expect(await logs('&resource_type=realms&resource_id=nowhere')).toEqual([]);
    expect((await logs(`&member_id=${member.id}&resource_type=users`))).toEqual([]);
    for (const query of ['from=yesterday', 'to=2025-13-45T00:00:00Z', 'member_id=abc', 'member_id=0', 'member_id=4294967296', `resource_id=${'x'.repeat(201)}`]) {
      const res = await h.request({ method: 'GET', url: `/api/admin/logs?${query}` });
      expect(res.statusCode, query).toBe(422);
    }
    const nul = await h.request({ method: 'GET', url: '/api/admin/logs?resource_id=a%00b' });
    expect(nul.statusCode).toBe(400);
  });

  it('keeps a record a year', async () => {
    const realm = await makeRealm(h);
    const ofRealm = async () => (await logs(`&resource_type=realms&resource_id=${realm.uid}`)).length;
    expect(await ofRealm()).toBe(1);
    h.clock.advance(364 * DAY);
    await runDueJobs(h.ctx, [expiredRowsJob]);
    expect(await ofRealm()).toBe(1);
    h.clock.advance(2 * DAY);
    expect(await runDueJobs(h.ctx, [expiredRowsJob])).toEqual(['expired-rows']);
    expect(await ofRealm()).toBe(0);
  });

  it('records each of 50 parallel writes once, in its own transaction', async () => {
    const query = '&resource_type=realms&resource_id=audited';
    const before = (await h.request({ method: 'GET', url: `/api/admin/logs?${query}` })).json().meta.total_entries;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => h.request({
      method: 'PUT', url: '/api/admin/realms/audited', payload: { name: i % 2 ? `Name ${i}` : ' ' },
    })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([...Array(25).fill(200), ...Array(25).fill(422)]);
    expect((await h.request({ method: 'GET', url: `/api/admin/logs?${query}` })).json().meta.total_entries).toBe(before + 25);
  });

  it('counts a realm user\'s lockout', async () => {
    const base = await listen(h);
    const realm = await makeRealm(h);
    await makeRealmUser(h, realm.uid, { username: 'unlucky' });
    const before = await lockouts('realm_user');
    const jar = new CookieJar(base);
    for (let i = 1; i <= 10; i++) {
      const page = await (await jar.fetch(`/realms/${realm.uid}/login`)).text();
      const res = await jar.post(`/realms/${realm.uid}/login`, { csrf_token: inputValue(page, 'csrf_token') ?? '', username: 'unlucky', password: `wrong ${i}` });
      expect(res.status).toBe(401);
    }
    expect(await lockouts('realm_user')).toBe(before + 1);
  });

  it('counts one lockout, and records one locked_out, however many wrong attempts race past the limit', async () => {
    const realm = await makeRealm(h);
    const realmBefore = await lockouts('realm_user');
    const codes = await Promise.all(Array.from({ length: 20 }, () => h.request({
      method: 'POST', url: `/api/customers/realms/${realm.uid}/verify_otp_code`, token: null, payload: { identifier: 'nobody@example.com', code: '000000' },
    })));
    expect(codes.map((r) => r.statusCode).sort()).toEqual([...Array(5).fill(409), ...Array(15).fill(429)]);
    expect(await lockouts('realm_user')).toBe(realmBefore + 1);

    const member = await createMember(h, [{ key: 'account_user' }]);
    const adminBefore = await lockouts('admin');
    const answers = await Promise.all(Array.from({ length: 20 }, () => h.request({
      method: 'POST', url: '/api/admin/session', token: null, payload: { email: member.email, password: 'wrong wrong wrong' },
    })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([...Array(10).fill(401), ...Array(10).fill(429)]);
    expect(await lockouts('admin')).toBe(adminBefore + 1);
    const mine = await logs(`&member_id=${member.id}`);
    expect(mine.filter((e) => e.operation === 'locked_out')).toHaveLength(1);
    expect(mine.filter((e) => e.operation === 'sign_in_failed')).toHaveLength(20);
  });
});
