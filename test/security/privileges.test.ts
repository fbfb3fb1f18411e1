import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { createMember, type Member } from '../helpers/admin.js';
import { makeRealm } from '../helpers/realms.js';

/** Every escalation here is tried with the weaker member's own bearer token. */
describe('no privilege escalation', () => {
  let h: Harness;
  let admin: Member;

  beforeAll(async () => {
    h = await startHarness();
    admin = await createMember(h, [{ key: 'account_admin' }]);
  });
  afterAll(async () => { await h?.close(); });

  const as = (member: Member) => (options: Parameters<Harness['request']>[0]) => h.request({ ...options, token: member.token });

  it('keeps an account admin from making itself owner, minting tokens for the owner, or touching the owner', async () => {
    const act = as(admin);
    const promote = await act({ method: 'PUT', url: `/api/admin/team_members/${admin.id}`, payload: { roles: [{ key: 'account_owner' }] } });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().errors).toEqual(['Only an owner can grant account_owner']);
    const created = await act({
      method: 'POST', url: '/api/admin/team_members', payload: { email: 'crown@example.com', password: 'a sturdy password', roles: [{ key: 'account_owner' }] },
    });
    expect(created.statusCode).toBe(403);
    const application = await act({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Heist' } });
    const minted = await act({ method: 'POST', url: `/api/admin/team_members/${h.ownerId}/access_tokens`, payload: { application_id: application.json().id } });
    expect(minted.statusCode).toBe(403);
    expect((await act({ method: 'PUT', url: `/api/admin/team_members/${h.ownerId}`, payload: { active: false } })).statusCode).toBe(403);
    expect((await act({ method: 'PUT', url: `/api/admin/team_members/${h.ownerId}`, payload: { password: 'taken over now' } })).statusCode).toBe(403);
    expect((await act({ method: 'DELETE', url: `/api/admin/team_members/${h.ownerId}` })).statusCode).toBe(403);
    const me = await h.request({ method: 'GET', url: `/api/admin/team_members/${admin.id}` });
    expect(me.json().roles).toEqual([{ key: 'account_admin', target: null }]);
    // What it holds itself it may grant, and act on a member who holds no more than it does.
    const peer = await act({
      method: 'POST', url: '/api/admin/team_members', payload: { email: 'peer@example.com', password: 'a sturdy password', roles: [{ key: 'account_admin' }] },
    });
    expect(peer.statusCode).toBe(201);
    expect((await act({ method: 'PUT', url: `/api/admin/team_members/${peer.json().id}`, payload: { name: 'Peer Member' } })).statusCode).toBe(200);
  });

  it('keeps an account admin from revoking the owner\'s token by deleting its application', async () => {
    const tokens = await h.request({ method: 'GET', url: `/api/admin/team_members/${h.ownerId}/access_tokens` });
    const applicationId = tokens.json().access_tokens[0].application_id;
    const removal = await as(admin)({ method: 'DELETE', url: `/api/admin/api_access/applications/${applicationId}` });
    expect(removal.statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url: '/api/admin/session' })).statusCode).toBe(200);
    expect((await h.request({ method: 'GET', url: `/api/admin/api_access/applications/${applicationId}` })).statusCode).toBe(200);
    // An application carrying only tokens the admin may revoke (its own) is deleted, and those tokens with it.
    const own = await as(admin)({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Own' } });
    const minted = await as(admin)({ method: 'POST', url: `/api/admin/team_members/${admin.id}/access_tokens`, payload: { application_id: own.json().id } });
    expect(minted.statusCode).toBe(201);
    expect((await as(admin)({ method: 'DELETE', url: `/api/admin/api_access/applications/${own.json().id}` })).statusCode).toBe(204);
    expect((await h.request({ method: 'GET', url: '/api/admin/session', token: minted.json().token })).statusCode).toBe(401);
    // The owner may delete it.
    const mine = await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Owner only' } });
    await h.request({ method: 'POST', url: `/api/admin/team_members/${h.ownerId}/access_tokens`, payload: { application_id: mine.json().id } });
    expect((await as(admin)({ method: 'DELETE', url: `/api/admin/api_access/applications/${mine.json().id}` })).statusCode).toBe(403);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/api_access/applications/${mine.json().id}` })).statusCode).toBe(204);
  });

  it('keeps a member from acting on one who holds permissions it lacks', async () => {
    const role = await h.request({
      method: 'POST', url: '/api/admin/roles', payload: { key: 'team_keeper', name: 'Team keeper', context: 'account', permissions: ['team.read', 'team.manage'] },
    });
    expect(role.statusCode).toBe(201);
    const keeper = await createMember(h, [{ key: 'team_keeper' }]);
    const act = as(keeper);
    expect((await act({ method: 'PUT', url: `/api/admin/team_members/${admin.id}`, payload: { active: false } })).statusCode).toBe(403);
    expect((await act({ method: 'DELETE', url: `/api/admin/team_members/${admin.id}` })).statusCode).toBe(403);
    const tokens = await h.request({ method: 'GET', url: `/api/admin/team_members/${admin.id}/access_tokens` });
    const revoke = await act({ method: 'DELETE', url: `/api/admin/team_members/${admin.id}/access_tokens/${tokens.json().access_tokens[0].id}` });
    expect(revoke.statusCode).toBe(403);
    const grant = await act({ method: 'PUT', url: `/api/admin/team_members/${keeper.id}`, payload: { roles: [{ key: 'account_admin' }] } });
    expect(grant.statusCode).toBe(403);
    expect(grant.json().errors[0]).toMatch(/^You cannot grant account_admin: it carries permissions you do not hold/);
    const junior = await createMember(h, [{ key: 'team_keeper' }]);
    expect((await act({ method: 'PUT', url: `/api/admin/team_members/${junior.id}`, payload: { active: false } })).statusCode).toBe(200);
    expect((await as(admin)({ method: 'GET', url: '/api/admin/team_members' })).statusCode).toBe(200);
  });

  it('gives a role only permissions of its own context, and a role manager only what it holds', async () => {
    const realm = await makeRealm(h);
    const wide = await h.request({
      method: 'POST', url: '/api/admin/roles', payload: { key: 'realm_boss', name: 'Boss', context: 'realm', permissions: ['realm.users.read', 'team.manage', 'roles.manage'] },
    });
    expect(wide.statusCode).toBe(422);
    expect(wide.json().details).toEqual([{ field: 'permissions', messages: ['has permissions a realm role cannot carry: team.manage, roles.manage'] }]);
    const builtIn = (await h.request({ method: 'GET', url: '/api/admin/roles?per_page=100' })).json().roles.find((r: { key: string }) => r.key === 'realm_admin');
    const widened = await h.request({ method: 'PUT', url: `/api/admin/roles/${builtIn.id}`, payload: { permissions: [...builtIn.permissions, 'team.manage'] } });
    expect(widened.statusCode).toBe(422);
    const realmAdmin = await createMember(h, [{ key: 'realm_admin', target: realm.uid }]);
    expect((await as(realmAdmin)({ method: 'GET', url: '/api/admin/team_members' })).statusCode).toBe(403);
    expect((await as(realmAdmin)({ method: 'GET', url: `/api/admin/customers/${realm.uid}/users` })).statusCode).toBe(200);

    await h.request({ method: 'POST', url: '/api/admin/roles', payload: { key: 'role_keeper', name: 'Role keeper', context: 'account', permissions: ['roles.read', 'roles.manage'] } });
    const keeper = await createMember(h, [{ key: 'role_keeper' }]);
    const act = as(keeper);
    const more = await act({ method: 'POST', url: '/api/admin/roles', payload: { key: 'sneaky', name: 'Sneaky', context: 'account', permissions: ['team.manage'] } });
    expect(more.statusCode).toBe(403);
    expect((await act({ method: 'PUT', url: `/api/admin/roles/${builtIn.id}`, payload: { name: 'Realm chief' } })).statusCode).toBe(403);
    expect((await act({ method: 'POST', url: '/api/admin/roles', payload: { key: 'reader', name: 'Reader', context: 'account', permissions: ['roles.read'] } })).statusCode).toBe(201);
  });

  it('lets only an account role set a custom domain, and never a loopback, an address or the base host', async () => {
    const realm = await makeRealm(h);
    const realmAdmin = await createMember(h, [{ key: 'realm_admin', target: realm.uid }]);
    const put = (member: Member | null, domain: string) => h.request({
      method: 'PUT', url: `/api/admin/realms/${realm.uid}`, payload: { custom_domain: domain }, ...(member ? { token: member.token } : {}),
    });
    const byRealmAdmin = await put(realmAdmin, 'evil.example');
    expect(byRealmAdmin.statusCode).toBe(403);
    expect(byRealmAdmin.json().errors).toEqual(['Setting a custom domain needs an account role']);
    expect((await as(realmAdmin)({ method: 'PUT', url: `/api/admin/realms/${realm.uid}`, payload: { name: 'Renamed' } })).statusCode).toBe(200);
    for (const domain of ['localhost', 'app.localhost', '127.0.0.1', '10.0.0.1', '0x7f000001', 'intranet', '[::1]', 'atrium.test']) {
      const res = await put(null, domain);
      expect(res.statusCode, domain).toBe(422);
      expect(res.json().details[0].field).toBe('custom_domain');
    }
    expect((await put(null, 'login.bank.example')).statusCode).toBe(200);
  });

  // Last: it deactivates one of the two owners, perhaps the one whose token the other tests use.
  it('keeps one active owner when the last two are deactivated at once', async () => {
    const second = await createMember(h, [{ key: 'account_owner' }]);
    const answers = await Promise.all([h.ownerId, second.id].map((id) =>
      h.request({ method: 'PUT', url: `/api/admin/team_members/${id}`, payload: { active: false }, token: second.token })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
    const refused = answers.find((a) => a.statusCode === 422)!;
    expect(refused.json().errors).toEqual(['The account must keep at least one active member with the account_owner role']);
    const survivorToken = answers[0].statusCode === 200 ? second.token : h.ownerToken;
    const members = await h.request({ method: 'GET', url: '/api/admin/team_members?per_page=100', token: survivorToken });
    const activeOwners = members.json().team_members
      .filter((m: { active: boolean; roles: { key: string }[] }) => m.active && m.roles.some((r) => r.key === 'account_owner'));
    expect(activeOwners).toHaveLength(1);
  });
});
