import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, refusal, statusOf } from '../helpers/client.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { createMember } from '../helpers/admin.js';

describe('roles', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  const admin = (token?: string | null) => adminClient(h, token);
  const roles = (query: { page?: string; per_page?: string; query?: string; sort_by?: string; order?: string }) =>
    admin().GET('/roles', { params: { query } });
  const byId = (id: number) => ({ params: { path: { id } } });
  const roleByKey = async (key: string) => (await roles({ per_page: '100' })).data!.roles.find((r) => r.key === key)!;

  it('lists the fifteen built-in roles with spec 2.6 fields', async () => {
    const res = await roles({ per_page: '100' });
    expect(res.response.status).toBe(200);
    const { roles: all, meta } = res.data!;
    expect(meta).toEqual({ total_entries: 15, per_page: 100, current_page: 1, total_pages: 1 });
    expect(all.map((r) => `${r.context}:${r.key}:${r.name}`)).toEqual([
      'account:account_user:Default user', 'account:account_admin:Default admin', 'account:account_owner:Full admin',
      'site:site_viewer:Viewer', 'site:site_developer:Developer', 'site:site_developer_cli:Developer CLI', 'site:site_reviewer:Reviewer', 'site:site_admin:Admin',
      'space:space_viewer:Viewer', 'space:space_writer:Writer', 'space:space_editor:Editor', 'space:space_admin:Admin',
      'realm:realm_user:User', 'realm:realm_viewer:Viewer', 'realm:realm_admin:Admin',
    ]);
    const owner = all.find((r) => r.key === 'account_owner');
    expect(owner).toMatchObject({ id: expect.any(Number), read_only: true, restorable: false, users_count: 1, created_at: expect.any(String) });
    expect(all.filter((r) => !r.read_only).every((r) => r.restorable)).toBe(true);
    const { data: searched } = await roles({ query: 'site_', sort_by: 'key', order: 'desc' });
    expect(searched!.roles.map((r) => r.key)).toEqual(['site_viewer', 'site_reviewer', 'site_developer_cli', 'site_developer', 'site_admin']);
    const { data: past } = await roles({ query: 'site_', page: '9' });
    expect(past).toEqual({ roles: [], meta: { total_entries: 5, per_page: 10, current_page: 9, total_pages: 1 } });
    const { data: onlyTwo } = await roles({ per_page: '2', page: '3' });
    expect(onlyTwo!.roles.map((r) => r.key)).toEqual(['site_developer', 'site_developer_cli']);
  });

  it('counts assignments in users_count', async () => {
    for (const uid of ['banking', 'retail']) await admin().POST('/realms', { body: { uid, name: uid } });
    const before = (await roleByKey('realm_viewer')).users_count;
    await createMember(h, [{ key: 'realm_viewer', target: 'banking' }]);
    await createMember(h, [{ key: 'realm_viewer', target: 'retail' }]);
    expect((await roleByKey('realm_viewer')).users_count).toBe(before + 2);
  });

  it('creates, changes and deletes a custom role whose permissions members then act with', async () => {
    const created = await admin().POST('/roles', { body: { name: 'Team auditor', context: 'account', permissions: ['team.read'] } });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ key: 'team_auditor', name: 'Team auditor', read_only: false, restorable: false, users_count: 0, permissions: ['team.read'] });
    const auditor = await createMember(h, [{ key: 'team_auditor' }]);
    expect(await statusOf(admin(auditor.token).GET('/team_members'))).toBe(200);
    expect(await statusOf(admin(auditor.token).GET('/account'))).toBe(403);

    const { data: changed } = await admin().PUT('/roles/{id}', { ...byId(created.data!.id), body: { permissions: ['team.read', 'account.read'] } });
    expect(changed).toMatchObject({ name: 'Team auditor', permissions: ['team.read', 'account.read'], users_count: 1 });
    expect(await statusOf(admin(auditor.token).GET('/account'))).toBe(200);

    expect(await statusOf(admin().DELETE('/roles/{id}', byId(created.data!.id)))).toBe(204);
    expect(await statusOf(admin(auditor.token).GET('/team_members'))).toBe(403);
    expect((await admin().GET('/team_members/{id}', byId(auditor.id))).data!.roles).toEqual([]);
  });

  it('refuses unknown permissions, bad contexts and taken keys with 422', async () => {
    const res = await refusal(admin().POST('/roles', { body: { key: 'account_owner', name: 'X', context: 'galaxy', permissions: ['rule.everything'] } }));
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual([
      { field: 'key', messages: ['has already been taken'] },
      { field: 'context', messages: ['must be one of account, site, space, realm'] },
      { field: 'permissions', messages: ['has unknown permissions: rule.everything'] },
    ]);
  });

  it('lists what a role of each context may carry; a role of a context takes exactly those, and roles.read is needed', async () => {
    const res = await admin().GET('/roles/permissions');
    expect(res.response.status).toBe(200);
    const contexts = res.data!.contexts;
    expect(contexts.map((c) => c.context)).toEqual(['account', 'site', 'space', 'realm']);
    const keys = (context: string) => contexts.find((c) => c.context === context)!.permissions.map((p) => p.key);
    expect(keys('account')).toContain('audit.read');
    expect(keys('space')).toEqual(['content.read', 'content.write', 'content.publish', 'content.manage']);
    expect(contexts.every((c) => c.permissions.every((p) => p.description.length > 0))).toBe(true);
    // What the list offers is what the server takes: every realm permission, and not one account-only permission.
    const realmRole = await admin().POST('/roles', { body: { name: 'Realm all', context: 'realm', permissions: keys('realm') } });
    expect(realmRole.response.status).toBe(201);
    expect(await statusOf(admin().POST('/roles', { body: { name: 'Realm team', context: 'realm', permissions: ['team.read'] } }))).toBe(422);
    expect(keys('realm')).not.toContain('team.read');
    expect(await statusOf(admin().POST('/realms', { body: { uid: 'perm-realm', name: 'Perm realm' } }))).toBe(201);
    const outsider = await createMember(h, [{ key: 'realm_admin', target: 'perm-realm' }]);
    expect(await statusOf(admin(outsider.token).GET('/roles/permissions'))).toBe(403);
    expect(await statusOf(admin(null).GET('/roles/permissions'))).toBe(401);
  });

  it('never edits the owner role, deletes no built-in role, and restores an edited built-in role', async () => {
    const owner = await roleByKey('account_owner');
    expect(await statusOf(admin().PUT('/roles/{id}', { ...byId(owner.id), body: { name: 'King' } }))).toBe(422);
    const viewer = await roleByKey('site_viewer');
    expect(await statusOf(admin().DELETE('/roles/{id}', byId(viewer.id)))).toBe(422);
    const { data: edited } = await admin().PUT('/roles/{id}', { ...byId(viewer.id), body: { name: 'Looker', permissions: ['site.read'] } });
    expect(edited).toMatchObject({ name: 'Looker', permissions: ['site.read'] });
    const restored = await admin().POST('/roles/{id}/restore', byId(viewer.id));
    expect(restored.response.status).toBe(200);
    expect(restored.data).toMatchObject({ name: 'Viewer', permissions: ['site.read', 'content.read'] });
    expect(await statusOf(admin().GET('/roles/{id}', byId(999999)))).toBe(404);
  });
});
