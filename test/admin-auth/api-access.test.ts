import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { createMember } from '../helpers/admin.js';

describe('API access applications and access tokens', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  it('generates the Application ID and a Secret shown once; the callback URL equals the redirect URI', async () => {
    const created = await h.request({
      method: 'POST', url: '/api/admin/api_access/applications',
      payload: { name: 'CRM sync', description: 'Nightly sync', redirect_uri: 'https://crm.example.com/callback', logout_url: 'https://crm.example.com/logout' },
    });
    expect(created.statusCode).toBe(201);
    const app = created.json();
    expect(app).toMatchObject({
      id: expect.any(Number), uid: expect.stringMatching(/^[\w-]{32}$/), secret: expect.stringMatching(/^[\w-]{43}$/),
      name: 'CRM sync', description: 'Nightly sync', redirect_uri: 'https://crm.example.com/callback',
      callback_url: 'https://crm.example.com/callback', logout_url: 'https://crm.example.com/logout',
    });
    const shown = await h.request({ method: 'GET', url: `/api/admin/api_access/applications/${app.id}` });
    expect(shown.json().secret).toBeUndefined();
    expect(shown.body).not.toContain(app.secret);
    const listed = await h.request({ method: 'GET', url: '/api/admin/api_access/applications' });
    expect(listed.json().applications.some((a: { secret?: string }) => a.secret)).toBe(false);
    const changed = await h.request({ method: 'PUT', url: `/api/admin/api_access/applications/${app.id}`, payload: { redirect_uri: 'https://crm.example.com/cb2' } });
    expect(changed.json()).toMatchObject({ name: 'CRM sync', redirect_uri: 'https://crm.example.com/cb2', callback_url: 'https://crm.example.com/cb2' });
  });

  it('refuses a blank name and addresses that are not http(s) with 422', async () => {
    const res = await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: ' ', redirect_uri: 'javascript:alert(1)', logout_url: 'nope' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(['name', 'redirect_uri', 'logout_url']);
  });

  it('issues a token for a member and an application, shown once and acting with the member\'s roles', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const app = (await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Reports' } })).json();
    const issued = await h.request({ method: 'POST', url: `/api/admin/team_members/${member.id}/access_tokens`, payload: { application_id: app.id } });
    expect(issued.statusCode).toBe(201);
    expect(issued.json()).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^[\w-]{43}$/), application_id: app.id, application_name: 'Reports', created_at: expect.any(String) });
    const token = issued.json().token;
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token })).statusCode).toBe(200);
    expect((await h.request({ method: 'POST', url: '/api/admin/roles', token, payload: { name: 'x', context: 'account' } })).statusCode).toBe(403);
    const listed = await h.request({ method: 'GET', url: `/api/admin/team_members/${member.id}/access_tokens` });
    expect(listed.json().access_tokens).toHaveLength(2);
    expect(listed.json().access_tokens[1]).toEqual({ id: issued.json().id, application_id: app.id, application_name: 'Reports', created_at: issued.json().created_at });
    expect(listed.body).not.toContain(token);

    expect((await h.request({ method: 'DELETE', url: `/api/admin/team_members/${member.id}/access_tokens/${issued.json().id}` })).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token })).statusCode).toBe(401);
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token: member.token })).statusCode).toBe(200);
  });

  it('revokes every token of an application when it is deleted, and refuses tokens for unknown applications', async () => {
    const member = await createMember(h, [{ key: 'account_user' }]);
    const app = (await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Doomed' } })).json();
    const token = (await h.request({ method: 'POST', url: `/api/admin/team_members/${member.id}/access_tokens`, payload: { application_id: app.id } })).json().token;
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token })).statusCode).toBe(200);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/api_access/applications/${app.id}` })).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token })).statusCode).toBe(401);
    const orphan = await h.request({ method: 'POST', url: `/api/admin/team_members/${member.id}/access_tokens`, payload: { application_id: app.id } });
    expect(orphan.statusCode).toBe(422);
    expect(orphan.json().details).toEqual([{ field: 'application_id', messages: ['is not a known application'] }]);
    expect((await h.request({ method: 'GET', url: `/api/admin/api_access/applications/${app.id}` })).statusCode).toBe(404);
    expect((await h.request({ method: 'POST', url: '/api/admin/team_members/999999/access_tokens', payload: { application_id: 1 } })).statusCode).toBe(404);
  });
});

describe('access cache', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  it('sees a token revoked by another server process within two seconds', async () => {
    const { accessTokens } = await import('../../src/tables/admin-auth.js');
    const member = await createMember(h, [{ key: 'account_user' }]);
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token: member.token })).statusCode).toBe(200);
    const { eq } = await import('drizzle-orm');
    await h.ctx.db.delete(accessTokens).where(eq(accessTokens.adminId, member.id)); // as another process would: behind this one's back
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token: member.token })).statusCode).toBe(200);
    h.clock.advance(2001);
    expect((await h.request({ method: 'GET', url: '/api/admin/roles', token: member.token })).statusCode).toBe(401);
  });

  it('shows a change of roles made here at once, and one made by another process within two seconds', async () => {
    const { roleAssignments } = await import('../../src/tables/admin-auth.js');
    const { ne } = await import('drizzle-orm');
    const count = async () => (await h.request({ method: 'GET', url: '/api/admin/roles?query=account_user', token: h.ownerToken })).json().roles[0].users_count;
    await h.ctx.db.delete(roleAssignments).where(ne(roleAssignments.adminId, h.ownerId));
    h.clock.advance(2001);
    const before = await count();
    await createMember(h, [{ key: 'account_user' }]);
    expect(await count()).toBe(before + 1);
    await h.ctx.db.delete(roleAssignments).where(ne(roleAssignments.adminId, h.ownerId));
    expect(await count()).toBe(before + 1);
    h.clock.advance(2001);
    expect(await count()).toBe(before);
  });
});

describe('account settings', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  it('has a 10 MiB upload limit and common extensions by default, and changes partially', async () => {
    const shown = await h.request({ method: 'GET', url: '/api/admin/account' });
    expect(shown.json()).toMatchObject({ name: 'Atrium', upload_max_bytes: 10 * 1024 * 1024 });
    expect(shown.json().allowed_extensions).toEqual(expect.arrayContaining(['jpg', 'png', 'pdf', 'docx', 'txt']));
    const changed = await h.request({ method: 'PUT', url: '/api/admin/account', payload: { name: 'Acme', allowed_extensions: ['.PDF', 'png'] } });
    expect(changed.json()).toMatchObject({ name: 'Acme', upload_max_bytes: 10 * 1024 * 1024, allowed_extensions: ['pdf', 'png'] });
    const bad = await h.request({ method: 'PUT', url: '/api/admin/account', payload: { upload_max_bytes: 0, allowed_extensions: ['p d f'] } });
    expect(bad.statusCode).toBe(422);
    expect((await h.request({ method: 'GET', url: '/api/admin/account' })).json().name).toBe('Acme');
  });

  it('lets only roles with account.manage change it', async () => {
    const user = await createMember(h, [{ key: 'account_user' }]);
    expect((await h.request({ method: 'GET', url: '/api/admin/account', token: user.token })).statusCode).toBe(200);
    expect((await h.request({ method: 'PUT', url: '/api/admin/account', token: user.token, payload: { name: 'Mine' } })).statusCode).toBe(403);
  });
});
