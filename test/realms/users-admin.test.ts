import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realmSessions, realmUsers } from '../../src/tables/realms.js';
import { verifyPassword } from '../../src/security/passwords.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser, memberToken, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';

describe('realm users admin API', () => {
  let h: Harness;
  let realm: { uid: string };
  const url = (suffix = '') => `/api/admin/customers/${realm.uid}/users${suffix}`;

  beforeAll(async () => {
    h = await startHarness();
    realm = await makeRealm(h);
    for (const field of [
      { key: 'member_no', name: 'Member number', type: 'text', unique: true },
      { key: 'age', name: 'Age', type: 'number' },
      { key: 'born', name: 'Born', type: 'date' },
      { key: 'vip', name: 'VIP', type: 'checkbox' },
      { key: 'plan', name: 'Plan', type: 'dropdown', options: ['basic', 'gold'] },
    ]) {
      const res = await h.request({ method: 'POST', url: `/api/admin/customers/${realm.uid}/custom_fields`, payload: field });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => { await h?.close(); });

  it('creates a user with a hashed password and custom field values', async () => {
    const res = await h.request({
      method: 'POST', url: url(),
      payload: {
        email: 'Grace@Example.com', username: 'grace.h', password: 'a long secret 1', first_name: 'Grace', last_name: 'Hopper',
        second_last_name: 'Murray', external_id: 'crm-1',
        custom_fields: [{ key: 'member_no', value: 'A-1' }, { key: 'age', value: 85 }, { key: 'born', value: '1906-12-09' }, { key: 'vip', value: true }, { key: 'plan', value: 'gold' }],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const user = res.json();
    expect(user).toMatchObject({
      id: expect.any(Number), uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), email: 'grace@example.com', username: 'grace.h',
      name: 'Grace Hopper Murray', first_name: 'Grace', last_name: 'Hopper', second_last_name: 'Murray', external_id: 'crm-1',
      active: true, avatar: null,
      custom_fields: [
        { key: 'member_no', value: 'A-1' }, { key: 'age', value: 85 }, { key: 'born', value: '1906-12-09' }, { key: 'vip', value: true }, { key: 'plan', value: 'gold' },
      ],
    });
    expect(user).not.toHaveProperty('password');
    const [row] = await h.ctx.db.select().from(realmUsers).where(eq(realmUsers.id, user.id));
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(await verifyPassword('a long secret 1', row.passwordHash!)).toBe(true);
    expect((await h.request({ method: 'GET', url: url(`/${user.id}`) })).json()).toEqual(user);
  });

  it('refuses a duplicate email or username in the same realm regardless of case, but not in another realm', async () => {
    const dupEmail = await h.request({ method: 'POST', url: url(), payload: { email: 'GRACE@example.COM' } });
    expect(dupEmail.statusCode).toBe(422);
    expect(dupEmail.json()).toEqual({ errors: ['Email has already been taken'], details: [{ field: 'email', messages: ['has already been taken'] }], code: 'ATR_INVALID' });
    const dupName = await h.request({ method: 'POST', url: url(), payload: { email: 'other@example.com', username: 'GRACE.H' } });
    expect(dupName.statusCode).toBe(422);
    expect(dupName.json().details).toEqual([{ field: 'username', messages: ['has already been taken'] }]);
    const other = await makeRealm(h);
    const elsewhere = await h.request({ method: 'POST', url: `/api/admin/customers/${other.uid}/users`, payload: { email: 'grace@example.com', username: 'grace.h' } });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('refuses invalid attributes and custom field values with 422 naming each', async () => {
    const res = await h.request({
      method: 'POST', url: url(),
      payload: {
        email: 'not-an-email', username: 'has@sign', password: 'short',
        custom_fields: [
          { key: 'age', value: 'old' }, { key: 'born', value: '2023-02-30' }, { key: 'vip', value: 'yes' },
          { key: 'plan', value: 'platinum' }, { key: 'member_no', value: 'A-1' }, { key: 'unknown', value: 1 },
        ],
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([
      { field: 'email', messages: ['is invalid'] },
      { field: 'username', messages: ['may contain only letters, digits, ".", "-" and "_" (at most 100)'] },
      { field: 'password', messages: ['is too short (minimum is 8 characters)'] },
      { field: 'custom_fields.age', messages: ['must be a number'] },
      { field: 'custom_fields.born', messages: ['must be a date in the form YYYY-MM-DD'] },
      { field: 'custom_fields.vip', messages: ['must be true or false'] },
      { field: 'custom_fields.plan', messages: ['must be one of: basic, gold'] },
      { field: 'custom_fields.unknown', messages: ['is not a custom field of this realm'] },
    ]);
    const missing = await h.request({ method: 'POST', url: url(), payload: { first_name: 'x' } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().details).toEqual([{ field: 'email', messages: ["can't be blank"] }]);
    const common = await h.request({ method: 'POST', url: url(), payload: { email: 'weak@example.com', password: 'password1' } });
    expect(common.json().details).toEqual([{ field: 'password', messages: ['is too common'] }]);
  });

  it('applies the unique rule of a custom field', async () => {
    const res = await h.request({ method: 'POST', url: url(), payload: { email: 'dup@example.com', custom_fields: [{ key: 'member_no', value: 'A-1' }] } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'custom_fields.member_no', messages: ['has already been taken'] }]);
    const ok = await h.request({ method: 'POST', url: url(), payload: { email: 'dup@example.com', custom_fields: [{ key: 'member_no', value: 'A-2' }] } });
    expect(ok.statusCode).toBe(201);
    // The user's own value is not a clash.
    const grace = (await h.request({ method: 'GET', url: url('?query=grace') })).json().users[0];
    const same = await h.request({ method: 'PUT', url: url(`/${grace.id}`), payload: { custom_fields: [{ key: 'member_no', value: 'A-1' }] } });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('requires required custom fields on creation and refuses clearing them', async () => {
    const other = await makeRealm(h);
    await h.request({ method: 'POST', url: `/api/admin/customers/${other.uid}/custom_fields`, payload: { key: 'dni', name: 'DNI', type: 'text', required: true } });
    const res = await h.request({ method: 'POST', url: `/api/admin/customers/${other.uid}/users`, payload: { email: 'r@example.com' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'custom_fields.dni', messages: ["can't be blank"] }]);
    const user = await makeRealmUser(h, other.uid, { custom_fields: [{ key: 'dni', value: '123' }] });
    const cleared = await h.request({ method: 'PUT', url: `/api/admin/customers/${other.uid}/users/${user.id}`, payload: { custom_fields: [{ key: 'dni', value: null }] } });
    expect(cleared.statusCode).toBe(422);
    const renamed = await h.request({ method: 'PUT', url: `/api/admin/customers/${other.uid}/users/${user.id}`, payload: { first_name: 'Renamed' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().custom_fields).toEqual([{ key: 'dni', value: '123' }]);
  });

  it('changes only what PUT names', async () => {
    const user = await makeRealmUser(h, realm.uid, { username: 'partial', custom_fields: [{ key: 'age', value: 30 }, { key: 'plan', value: 'basic' }] });
    const res = await h.request({ method: 'PUT', url: url(`/${user.id}`), payload: { last_name: 'Byron', custom_fields: [{ key: 'age', value: '31' }, { key: 'plan', value: null }] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email: user.email, username: 'partial', first_name: 'Ada', last_name: 'Byron' });
    expect(res.json().custom_fields).toEqual([
      { key: 'member_no', value: null }, { key: 'age', value: 31 }, { key: 'born', value: null }, { key: 'vip', value: null }, { key: 'plan', value: null },
    ]);
    const [row] = await h.ctx.db.select().from(realmUsers).where(eq(realmUsers.id, user.id));
    const hash = row.passwordHash;
    await h.request({ method: 'PUT', url: url(`/${user.id}`), payload: { password: 'another long one' } });
    const [after] = await h.ctx.db.select().from(realmUsers).where(eq(realmUsers.id, user.id));
    expect(after.passwordHash).not.toBe(hash);
    expect(await verifyPassword('another long one', after.passwordHash!)).toBe(true);
    const taken = await h.request({ method: 'PUT', url: url(`/${user.id}`), payload: { email: 'grace@example.com' } });
    expect(taken.statusCode).toBe(422);
  });

  it('carries values along a renamed key and drops them with a deleted field', async () => {
    const other = await makeRealm(h);
    const fields = `/api/admin/customers/${other.uid}/custom_fields`;
    const field = (await h.request({ method: 'POST', url: fields, payload: { key: 'colour', name: 'Colour', type: 'text' } })).json();
    const user = await makeRealmUser(h, other.uid, { custom_fields: [{ key: 'colour', value: 'blue' }] });
    const renamed = await h.request({ method: 'PUT', url: `${fields}/${field.id}`, payload: { key: 'color' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const shown = await h.request({ method: 'GET', url: `/api/admin/customers/${other.uid}/users/${user.id}` });
    expect(shown.json().custom_fields).toEqual([{ key: 'color', value: 'blue' }]);

    const toNumber = await h.request({ method: 'PUT', url: `${fields}/${field.id}`, payload: { type: 'number' } });
    expect(toNumber.statusCode).toBe(422);
    expect(toNumber.json().details).toEqual([{ field: 'type', messages: ['does not fit the values 1 user(s) hold'] }]);
    await makeRealmUser(h, other.uid, { custom_fields: [{ key: 'color', value: 'blue' }] });
    const unique = await h.request({ method: 'PUT', url: `${fields}/${field.id}`, payload: { unique: true } });
    expect(unique.statusCode).toBe(422);
    expect(unique.json().details).toEqual([{ field: 'unique', messages: ['cannot be set while several users share a value'] }]);

    expect((await h.request({ method: 'DELETE', url: `${fields}/${field.id}` })).statusCode).toBe(204);
    const [row] = await h.ctx.db.select().from(realmUsers).where(eq(realmUsers.id, user.id));
    expect(row.customFields).toEqual({});
  });

  it('lists users with a text query, pagination and meta', async () => {
    const other = await makeRealm(h);
    for (let i = 0; i < 3; i++) await makeRealmUser(h, other.uid, { email: `list${i}@example.com`, username: `lister${i}`, first_name: 'Lin', last_name: `Ister${i}` });
    await makeRealmUser(h, other.uid, { email: 'someone@example.com', first_name: 'Someone', last_name: 'Else' });
    const list = (q: string) => h.request({ method: 'GET', url: `/api/admin/customers/${other.uid}/users${q}` }).then((r) => r.json());
    expect((await list('')).meta).toEqual({ total_entries: 4, per_page: 10, current_page: 1, total_pages: 1 });
    const page = await list('?per_page=2&page=2&sort_by=email&order=asc');
    expect(page.users.map((u: { email: string }) => u.email)).toEqual(['list2@example.com', 'someone@example.com']);
    expect(page.meta).toEqual({ total_entries: 4, per_page: 2, current_page: 2, total_pages: 2 });
    expect((await list('?query=LISTER1')).users.map((u: { username: string }) => u.username)).toEqual(['lister1']);
    expect((await list('?query=lin%20ister2')).users.map((u: { username: string }) => u.username)).toEqual(['lister2']);
    expect((await list('?query=someone@')).meta.total_entries).toBe(1);
    expect((await list('?query=%25')).meta.total_entries).toBe(0);
  });

  it('ends every session of a user, and deactivation does too', async () => {
    const user = await makeRealmUser(h, realm.uid);
    const signIn = () => signInAtLoginPage(h, realm.uid, user.email, REALM_USER_PASSWORD);
    await signIn();
    await signIn();
    const res = await h.request({ method: 'DELETE', url: url(`/${user.id}/sessions`) });
    expect(res.statusCode).toBe(204);
    const sessions = await h.ctx.db.select().from(realmSessions).where(eq(realmSessions.userId, user.id));
    expect(sessions).toHaveLength(2);
    expect(sessions.every((s) => s.revokedAt !== null)).toBe(true);

    await signIn();
    const off = await h.request({ method: 'PUT', url: url(`/${user.id}`), payload: { active: false } });
    expect(off.json().active).toBe(false);
    const after = await h.ctx.db.select().from(realmSessions).where(eq(realmSessions.userId, user.id));
    expect(after.every((s) => s.revokedAt !== null)).toBe(true);
  });

  it('deletes a user', async () => {
    const user = await makeRealmUser(h, realm.uid);
    expect((await h.request({ method: 'DELETE', url: url(`/${user.id}`) })).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: url(`/${user.id}`) })).statusCode).toBe(404);
  });

  it('answers 404 for an unknown realm, an unknown user and a user of another realm', async () => {
    const other = await makeRealm(h);
    const stranger = await makeRealmUser(h, other.uid);
    expect((await h.request({ method: 'GET', url: '/api/admin/customers/nope/users' })).json()).toEqual({ errors: ['Realm not found'], code: 'ATR_NOT_FOUND' });
    for (const [method, suffix] of [['GET', ''], ['PUT', ''], ['DELETE', ''], ['DELETE', '/sessions']] as const) {
      for (const id of [stranger.id, 999999]) {
        const res = await h.request({ method, url: url(`/${id}${suffix}`), ...(method === 'PUT' ? { payload: { first_name: 'x' } } : {}) });
        expect(res.statusCode, `${method} ${id}${suffix}`).toBe(404);
        expect(res.json()).toEqual({ errors: ['User not found'], code: 'ATR_NOT_FOUND' });
      }
    }
  });

  it('answers 401 without a credential and 403 to a role of another realm; a viewer reads but cannot write', async () => {
    const other = await makeRealm(h);
    const foreign = await memberToken(h, [{ key: 'realm_admin', target: other.uid }]);
    const viewer = await memberToken(h, [{ key: 'realm_viewer', target: realm.uid }]);
    const user = await makeRealmUser(h, realm.uid);
    const routes = [
      ['GET', url()], ['POST', url()], ['GET', url(`/${user.id}`)], ['PUT', url(`/${user.id}`)],
      ['DELETE', url(`/${user.id}/sessions`)], ['DELETE', url(`/${user.id}`)],
    ] as const;
    for (const [method, path] of routes) {
      const payload = method === 'POST' || method === 'PUT' ? { payload: { email: 'x@example.com' } } : {};
      expect((await h.request({ method, url: path, token: null, ...payload })).statusCode, `${method} ${path}`).toBe(401);
      expect((await h.request({ method, url: path, token: foreign, ...payload })).statusCode, `${method} ${path}`).toBe(403);
      const asViewer = (await h.request({ method, url: path, token: viewer, ...payload })).statusCode;
      expect(asViewer, `${method} ${path}`).toBe(method === 'GET' ? 200 : 403);
    }
  });
});
