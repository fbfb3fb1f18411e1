import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { createMember } from '../helpers/admin.js';

describe('roles', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  const roleByKey = async (key: string) => (await h.request({ method: 'GET', url: '/api/admin/roles?per_page=100' })).json().roles
    .find((r: { key: string }) => r.key === key);

  it('lists the fifteen built-in roles with spec 2.6 fields', async () => {
    const res = await h.request({ method: 'GET', url: '/api/admin/roles?per_page=100' });
    expect(res.statusCode).toBe(200);
    const { roles, meta } = res.json();
    expect(meta).toEqual({ total_entries: 15, per_page: 100, current_page: 1, total_pages: 1 });
    expect(roles.map((r: { key: string; name: string; context: string }) => `${r.context}:${r.key}:${r.name}`)).toEqual([
      'account:account_user:Default user', 'account:account_admin:Default admin', 'account:account_owner:Full admin',
      'site:site_viewer:Viewer', 'site:site_developer:Developer', 'site:site_developer_cli:Developer CLI', 'site:site_reviewer:Reviewer', 'site:site_admin:Admin',
      'space:space_viewer:Viewer', 'space:space_writer:Writer', 'space:space_editor:Editor', 'space:space_admin:Admin',
      'realm:realm_user:User', 'realm:realm_viewer:Viewer', 'realm:realm_admin:Admin',
    ]);
    const owner = roles.find((r: { key: string }) => r.key === 'account_owner');
    expect(owner).toMatchObject({ id: expect.any(Number), read_only: true, restorable: false, users_count: 1, created_at: expect.any(String) });
    expect(roles.filter((r: { read_only: boolean }) => !r.read_only).every((r: { restorable: boolean }) => r.restorable)).toBe(true);
    const searched = await h.request({ method: 'GET', url: '/api/admin/roles?query=site_&sort_by=key&order=desc' });
    expect(searched.json().roles.map((r: { key: string }) => r.key)).toEqual(['site_viewer', 'site_reviewer', 'site_developer_cli', 'site_developer', 'site_admin']);
    const past = await h.request({ method: 'GET', url: '/api/admin/roles?query=site_&page=9' });
    expect(past.json()).toEqual({ roles: [], meta: { total_entries: 5, per_page: 10, current_page: 9, total_pages: 1 } });
    const onlyTwo = await h.request({ method: 'GET', url: '/api/admin/roles?per_page=2&page=3' });
    expect(onlyTwo.json().roles.map((r: { key: string }) => r.key)).toEqual(['site_developer', 'site_developer_cli']);
  });

  it('counts assignments in users_count', async () => {
    for (const uid of ['banking', 'retail']) await h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid, name: uid } });
    const before = (await roleByKey('realm_viewer')).users_count;
    await createMember(h, [{ key: 'realm_viewer', target: 'banking' }]);
    await createMember(h, [{ key: 'realm_viewer', target: 'retail' }]);
    expect((await roleByKey('realm_viewer')).users_count).toBe(before + 2);
  });

  it('creates, changes and deletes a custom role whose permissions members then act with', async () => {
    const created = await h.request({ method: 'POST', url: '/api/admin/roles', payload: { name: 'Team auditor', context: 'account', permissions: ['team.read'] } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ key: 'team_auditor', name: 'Team auditor', read_only: false, restorable: false, users_count: 0, permissions: ['team.read'] });
    const auditor = await createMember(h, [{ key: 'team_auditor' }]);
    expect((await h.request({ method: 'GET', url: '/api/admin/team_members', token: auditor.token })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: '/api/admin/account', token: auditor.token })).statusCode).toBe(403);

    const changed = await h.request({ method: 'PUT', url: `/api/admin/roles/${created.json().id}`, payload: { permissions: ['team.read', 'account.read'] } });
    expect(changed.json()).toMatchObject({ name: 'Team auditor', permissions: ['team.read', 'account.read'], users_count: 1 });
    expect((await h.request({ method: 'GET', url: '/api/admin/account', token: auditor.token })).statusCode).toBe(200);

    expect((await h.request({ method: 'DELETE', url: `/api/admin/roles/${created.json().id}` })).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: '/api/admin/team_members', token: auditor.token })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: `/api/admin/team_members/${auditor.id}` })).json().roles).toEqual([]);
  });

  it('refuses unknown permissions, bad contexts and taken keys with 422', async () => {
    const res = await h.request({ method: 'POST', url: '/api/admin/roles', payload: { key: 'account_owner', name: 'X', context: 'galaxy', permissions: ['rule.everything'] } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([
      { field: 'key', messages: ['has already been taken'] },
      { field: 'context', messages: ['must be one of account, site, space, realm'] },
      { field: 'permissions', messages: ['has unknown permissions: rule.everything'] },
    ]);
  });

  it('lists what a role of each context may carry; a role of a context takes exactly those, and roles.read is needed', async () => {
    const res = await h.request({ method: 'GET', url: '/api/admin/roles/permissions' });
    expect(res.statusCode, res.body).toBe(200);
    const contexts: { context: string; permissions: { key: string; description: string }[] }[] = res.json().contexts;
    expect(contexts.map((c) => c.context)).toEqual(['account', 'site', 'space', 'realm']);
    const keys = (context: string) => contexts.find((c) => c.context === context)!.permissions.map((p) => p.key);
    expect(keys('account')).toContain('audit.read');
    expect(keys('space')).toEqual(['content.read', 'content.write', 'content.publish', 'content.manage']);
    expect(contexts.every((c) => c.permissions.every((p) => p.description.length > 0))).toBe(true);
    // What the list offers is what the server takes: every realm permission, and not one account-only permission.
    const realmRole = await h.request({ method: 'POST', url: '/api/admin/roles', payload: { name: 'Realm all', context: 'realm', permissions: keys('realm') } });
    expect(realmRole.statusCode, realmRole.body).toBe(201);
    const refused = await h.request({ method: 'POST', url: '/api/admin/roles', payload: { name: 'Realm team', context: 'realm', permissions: ['team.read'] } });
    expect(refused.statusCode).toBe(422);
    expect(keys('realm')).not.toContain('team.read');
    expect((await h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: 'perm-realm', name: 'Perm realm' } })).statusCode).toBe(201);
    const outsider = await createMember(h, [{ key: 'realm_admin', target: 'perm-realm' }]);
    expect((await h.request({ method: 'GET', url: '/api/admin/roles/permissions', token: outsider.token })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/admin/roles/permissions', token: null })).statusCode).toBe(401);
  });

  it('never edits the owner role, deletes no built-in role, and restores an edited built-in role', async () => {
    const owner = await roleByKey('account_owner');
    expect((await h.request({ method: 'PUT', url: `/api/admin/roles/${owner.id}`, payload: { name: 'King' } })).statusCode).toBe(422);
    const viewer = await roleByKey('site_viewer');
    const deleted = await h.request({ method: 'DELETE', url: `/api/admin/roles/${viewer.id}` });
    expect(deleted.statusCode).toBe(422);
    const edited = await h.request({ method: 'PUT', url: `/api/admin/roles/${viewer.id}`, payload: { name: 'Looker', permissions: ['site.read'] } });
    expect(edited.json()).toMatchObject({ name: 'Looker', permissions: ['site.read'] });
    const restored = await h.request({ method: 'POST', url: `/api/admin/roles/${viewer.id}/restore` });
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ name: 'Viewer', permissions: ['site.read', 'content.read'] });
    expect((await h.request({ method: 'GET', url: '/api/admin/roles/999999' })).statusCode).toBe(404);
  });
});
