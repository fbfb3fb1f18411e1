import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_EMAIL, startHarness, type Harness } from '../helpers/harness.js';
import { createMember, signIn } from '../helpers/admin.js';

describe('team members', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  const create = (payload: Record<string, unknown>) => h.request({ method: 'POST', url: '/api/admin/team_members', payload });

  it('creates a member with roles, answers 201 with the object and never shows the password', async () => {
    const res = await create({ email: 'Ana@Example.com', password: 'a sturdy password', first_name: 'Ana', last_name: 'Ruiz', roles: [{ key: 'account_admin' }, { key: 'site_viewer' }] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number), email: 'ana@example.com', name: 'Ana Ruiz', first_name: 'Ana', last_name: 'Ruiz', active: true,
      roles: [{ key: 'account_admin', target: null }, { key: 'site_viewer', target: null }],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*(Z|[+-]\d\d:\d\d)$/), updated_at: expect.any(String),
    });
    const shown = await h.request({ method: 'GET', url: `/api/admin/team_members/${res.json().id}` });
    expect(shown.json()).toEqual(res.json());
    expect(shown.body).not.toContain('password');
  });

  it('refuses duplicate emails, weak or empty passwords, unknown roles and misplaced targets with 422, writing nothing', async () => {
    const before = (await h.request({ method: 'GET', url: '/api/admin/team_members' })).json().meta.total_entries;
    const duplicate = await create({ email: OWNER_EMAIL.toUpperCase(), password: 'a sturdy password' });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json()).toEqual({ errors: ['Email has already been taken'], details: [{ field: 'email', messages: ['has already been taken'] }], code: 'ATR_INVALID' });
    const weak = await create({ email: 'weak@example.com', password: 'short' });
    expect(weak.json().details).toEqual([{ field: 'password', messages: ['is too short (minimum is 8 characters)'] }]);
    const common = await create({ email: 'weak@example.com', password: 'password' });
    expect(common.json().details).toEqual([{ field: 'password', messages: ['is too common'] }]);
    const empty = await create({ email: 'empty@example.com', password: '' });
    expect(empty.json().details).toEqual([{ field: 'password', messages: ["can't be blank"] }]);
    const badRoles = await create({
      email: 'roles@example.com', password: 'a sturdy password',
      roles: [{ key: 'galactic_emperor' }, { key: 'account_user', target: 'banking' }, { key: 'realm_admin' }],
    });
    expect(badRoles.statusCode).toBe(422);
    expect(badRoles.json().details).toEqual([
      { field: 'roles.0.key', messages: ['is not a known role: galactic_emperor'] },
      { field: 'roles.1.target', messages: ['must be empty for an account role'] },
      { field: 'roles.2.target', messages: ['must name the realm the role applies to'] },
    ]);
    const invalidEmail = await create({ email: 'not-an-email', password: 'a sturdy password' });
    expect(invalidEmail.json().details).toEqual([{ field: 'email', messages: ['is invalid'] }]);
    const unknownAttribute = await create({ email: 'x@example.com', password: 'a sturdy password', admin: true });
    expect(unknownAttribute.statusCode).toBe(422);
    expect(unknownAttribute.json().details).toEqual([{ field: 'admin', messages: ['is not a known attribute'] }]);
    const after = (await h.request({ method: 'GET', url: '/api/admin/team_members' })).json().meta.total_entries;
    expect(after).toBe(before);
  });

  it('updates partially: attributes left out keep their value, roles given replace the assignments', async () => {
    const created = (await create({ email: 'partial@example.com', password: 'a sturdy password', name: 'Pat Doe', roles: [{ key: 'account_user' }] })).json();
    const renamed = await h.request({ method: 'PUT', url: `/api/admin/team_members/${created.id}`, payload: { last_name: 'Smith' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ email: 'partial@example.com', first_name: 'Pat', last_name: 'Smith', roles: [{ key: 'account_user', target: null }] });
    // A space role names an existing space.
    expect((await h.request({ method: 'POST', url: '/api/admin/content/spaces', payload: { uid: 'blog', name: 'Blog', default_locale: 'en', locales: ['en'] } })).statusCode).toBe(201);
    const reroled = await h.request({ method: 'PUT', url: `/api/admin/team_members/${created.id}`, payload: { roles: [{ key: 'space_writer', target: 'blog' }] } });
    expect(reroled.json().roles).toEqual([{ key: 'space_writer', target: 'blog' }]);
    const taken = await h.request({ method: 'PUT', url: `/api/admin/team_members/${created.id}`, payload: { email: OWNER_EMAIL } });
    expect(taken.statusCode).toBe(422);
    expect((await h.request({ method: 'GET', url: `/api/admin/team_members/${created.id}` })).json().email).toBe('partial@example.com');
  });

  it('ends a member\'s sessions and tokens at once when deactivated', async () => {
    const member = await createMember(h, [{ key: 'account_admin' }]);
    const { cookie } = await signIn(h, member.email, member.password);
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token: member.token })).statusCode).toBe(200);
    const off = await h.request({ method: 'PUT', url: `/api/admin/team_members/${member.id}`, payload: { active: false } });
    expect(off.json().active).toBe(false);
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token: member.token })).statusCode).toBe(401);
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token: null, headers: { cookie } })).statusCode).toBe(401);
    const again = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email: member.email, password: member.password } });
    expect(again.statusCode).toBe(401);
    // Reactivation does not bring the old token back.
    await h.request({ method: 'PUT', url: `/api/admin/team_members/${member.id}`, payload: { active: true } });
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token: member.token })).statusCode).toBe(401);
  });

  it('keeps at least one active owner', async () => {
    const res = await h.request({ method: 'PUT', url: `/api/admin/team_members/${h.ownerId}`, payload: { active: false } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[0]).toMatch(/at least one active member with the account_owner role/);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/team_members/${h.ownerId}` })).statusCode).toBe(422);
    expect((await h.request({ method: 'GET', url: '/api/admin/session' })).statusCode).toBe(200);
  });

  it('deletes a member (204), then answers 404 for it', async () => {
    const created = (await create({ email: 'gone@example.com', password: 'a sturdy password' })).json();
    expect((await h.request({ method: 'DELETE', url: `/api/admin/team_members/${created.id}` })).statusCode).toBe(204);
    const missing = await h.request({ method: 'GET', url: `/api/admin/team_members/${created.id}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ errors: ['Team member not found'], code: 'ATR_NOT_FOUND' });
  });

  it('lists with pagination, search and order', async () => {
    const res = await h.request({ method: 'GET', url: '/api/admin/team_members?query=partial&per_page=5' });
    expect(res.json().team_members.map((m: { email: string }) => m.email)).toEqual(['partial@example.com']);
    expect(res.json().meta).toEqual({ total_entries: 1, per_page: 5, current_page: 1, total_pages: 1 });
    const asc = await h.request({ method: 'GET', url: '/api/admin/team_members?sort_by=email&order=ASC&per_page=100' });
    const emails = asc.json().team_members.map((m: { email: string }) => m.email);
    expect(emails).toEqual([...emails].sort());
  });

  it('refuses a site_developer what its role lacks (403) and lets it do what it has', async () => {
    const developer = await createMember(h, [{ key: 'site_developer' }]);
    const refused = await h.request({ method: 'POST', url: '/api/admin/team_members', token: developer.token, payload: { email: 'x@example.com', password: 'a sturdy password' } });
    expect(refused.statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token: developer.token })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/admin/session', token: developer.token })).statusCode).toBe(200);
    const viewer = await createMember(h, [{ key: 'account_user' }]);
    expect((await h.request({ method: 'GET', url: '/api/admin/team_members', token: viewer.token })).statusCode).toBe(200);
    expect((await h.request({ method: 'PUT', url: `/api/admin/team_members/${viewer.id}`, token: viewer.token, payload: { name: 'Me' } })).statusCode).toBe(403);
  });
});
