import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ID, CLIENT_SECRET, startProvider, type TestProvider } from '../delegation/provider.js';
import { base, browser, h, idp, REALMS, toCallback, useRig } from '../delegation/rig.js';
import { memberToken } from '../helpers/realms.js';

/**
 * Whoever chooses a realm's identity provider can sign in as any of its users: choosing it is as
 * strong as impersonation, every sign-in through it says which provider vouched, and a change of
 * issuer is in the audit log.
 */
describe('an identity provider is as strong as impersonation', () => {
  useRig();
  let attacker: TestProvider;
  const url = `/api/admin/customers/${REALMS.strict}/identity_provider`;
  const issuerChanges = async () => (await h.request({
    method: 'GET', url: `/api/admin/logs?resource_type=identity_provider&resource_id=${REALMS.strict}&per_page=100`,
  })).json().logs.filter((l: { operation: string }) => l.operation === 'identity_provider_issuer_changed');

  beforeAll(async () => {
    // A provider the member controls, which would assert any address it likes.
    attacker = await startProvider([`${base}/realms/${REALMS.strict}/delegated_login/callback`]);
  });
  afterAll(async () => { await attacker?.close(); });

  it('refuses (403) a role with realms.read and realms.manage but not realm.users.impersonate, and lets it once it has that too', async () => {
    const role = await h.request({
      method: 'POST', url: '/api/admin/roles', payload: { name: 'Realm settings', context: 'realm', permissions: ['realms.read', 'realms.manage'] },
    });
    expect(role.statusCode, role.body).toBe(201);
    const token = await memberToken(h, [{ key: role.json().key, target: REALMS.strict }]);
    const takeover = { issuer: attacker.issuer, client_id: CLIENT_ID, client_secret: CLIENT_SECRET };
    expect((await h.request({ method: 'GET', url, token })).statusCode).toBe(200);
    const refused = await h.request({ method: 'PUT', url, token, payload: takeover });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0]).toContain('realm.users.impersonate');
    expect((await h.request({ method: 'PUT', url, token, payload: { button_label: 'Renamed' } })).statusCode).toBe(403);
    expect((await h.request({ method: 'DELETE', url, token })).statusCode).toBe(403);
    expect((await h.request({ method: 'GET', url })).json()).toMatchObject({ issuer: idp.issuer, button_label: 'Example ID' });
    const before = (await issuerChanges()).length;

    const granted = await h.request({
      method: 'PUT', url: `/api/admin/roles/${role.json().id}`, payload: { permissions: ['realms.read', 'realms.manage', 'realm.users.impersonate'] },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const changed = await h.request({ method: 'PUT', url, token, payload: takeover });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().issuer).toBe(attacker.issuer);

    // The audit log: one record of the new issuer, by that member with its token.
    const changes = await issuerChanges();
    expect(changes).toHaveLength(before + 1);
    expect(changes[0]).toMatchObject({
      operation: 'identity_provider_issuer_changed', resource_type: 'identity_provider', resource_id: REALMS.strict,
      credential: 'token', changed: ['issuer'], status_code: 200,
    });
    expect(changes[0].member_id).not.toBeNull();
    expect(changes[0].member_email).toMatch(/^member-/);
    // A change that keeps the issuer is not an issuer change; a removal is.
    expect((await h.request({ method: 'PUT', url, token, payload: { button_label: 'Renamed' } })).statusCode).toBe(200);
    expect(await issuerChanges()).toHaveLength(before + 1);
    expect((await h.request({ method: 'DELETE', url, token })).statusCode).toBe(204);
    const afterRemoval = await issuerChanges();
    expect(afterRemoval).toHaveLength(before + 2);
    expect(afterRemoval[0]).toMatchObject({ resource_id: REALMS.strict, status_code: 204 });
  });

  it('records on the sign-in event which provider vouched for the user', async () => {
    const b = browser();
    const { callback } = await toCallback(b, REALMS.direct, 'alice');
    expect((await b.atrium.fetch(callback)).status).toBe(303);
    const [user] = (await h.request({ method: 'GET', url: `/api/admin/customers/${REALMS.direct}/users?query=alice%40example.com` })).json().users;
    const events = (await h.request({ method: 'GET', url: `/api/admin/customers/${REALMS.direct}/events?user_id=${user.id}` })).json().events;
    const login = events.find((e: { type: string }) => e.type === 'user_login_log');
    expect(login).toMatchObject({ impersonated: false, properties: { identity_provider: idp.issuer } });
  });
});
