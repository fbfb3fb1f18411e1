import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';
import { memberToken } from '../helpers/realms.js';

interface LogEntry {
  operation: string;
  resource_type: string | null;
  resource_id: string | null;
  resource_label: string | null;
  realm: { uid: string; name: string | null } | null;
}

describe('the audit log names what was written (resource_label, realm)', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(async () => { await h?.close(); });

  const logs = async (query = '', token?: string): Promise<LogEntry[]> => {
    const res = await h.request({ method: 'GET', url: `/api/admin/logs?per_page=100${query}`, ...(token ? { token } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().logs;
  };
  const write = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
    const res = await h.request({ method, url: `/api/admin${url}`, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.statusCode === 204 ? null : res.json();
  };

  it('records the resource\'s name and its realm\'s, keeps the name through a deletion, and filters by realm', async () => {
    await write('POST', '/realms', { uid: 'acme', name: 'Acme' });
    await write('POST', '/realms', { uid: 'other', name: 'Other' });
    const user = await write('POST', '/customers/acme/users', { email: 'ana@example.com', first_name: 'Ana', last_name: 'Pérez' });
    await write('PUT', `/customers/acme/users/${user.id}`, { last_name: 'Pérez Gil' });
    const unnamed = await write('POST', '/customers/acme/users', { email: 'no-name@example.com' });
    await write('DELETE', `/customers/acme/users/${user.id}/sessions`);
    await write('DELETE', `/customers/acme/users/${user.id}`);
    await write('POST', '/customers/other/users', { email: 'elsewhere@example.com' });
    const application = await write('POST', '/api_access/applications', { name: 'Back office' });
    await write('POST', `/team_members/${h.ownerId}/access_tokens`, { application_id: application.id });

    const acme = { uid: 'acme', name: 'Acme' };
    expect((await logs('&realm_uid=acme')).reverse()).toEqual([
      expect.objectContaining({ operation: 'POST /customers/{realm_uid}/users', resource_type: 'users', resource_label: 'Ana Pérez', realm: acme }),
      expect.objectContaining({ operation: 'PUT /customers/{realm_uid}/users/{id}', resource_label: 'Ana Pérez Gil', realm: acme }),
      // A user without a name is named by the email.
      expect.objectContaining({ resource_id: String(unnamed.id), resource_label: 'no-name@example.com', realm: acme }),
      // Neither a deletion nor the end of the sessions answers a body: the name recorded last stands.
      expect.objectContaining({ operation: 'DELETE /customers/{realm_uid}/users/{id}/sessions', resource_label: 'Ana Pérez Gil', realm: acme }),
      expect.objectContaining({ operation: 'DELETE /customers/{realm_uid}/users/{id}', resource_label: 'Ana Pérez Gil', realm: acme }),
    ]);
    const all = await logs();
    expect(all.find((entry) => entry.operation === 'POST /realms' && entry.resource_id === 'acme'))
      .toMatchObject({ resource_type: 'realms', resource_label: 'Acme', realm: null });
    expect(all.find((entry) => entry.operation === 'POST /api_access/applications')).toMatchObject({ resource_label: 'Back office', realm: null });
    // An access token's answer carries the token: nothing of it becomes a label.
    expect(all.find((entry) => entry.resource_type === 'access_tokens')).toMatchObject({ resource_label: null });
  });

  it('names a realm user only to a reader who may read the realm\'s users (personal data)', async () => {
    await write('POST', '/realms', { uid: 'private', name: 'Private' });
    await write('POST', '/realms', { uid: 'shared', name: 'Shared' });
    await write('POST', '/customers/private/users', { email: 'secret@example.com', first_name: 'Sol' });
    await write('POST', '/customers/shared/users', { email: 'open@example.com', first_name: 'Lia' });
    const role = await write('POST', '/roles', { key: 'auditor', name: 'Auditor', context: 'account', permissions: ['audit.read'] });
    const auditor = await memberToken(h, [{ key: role.key }, { key: 'realm_viewer', target: 'shared' }]);
    const named = (entries: LogEntry[], uid: string) => entries.filter((entry) => entry.resource_type === 'users' && entry.realm?.uid === uid)
      .map((entry) => entry.resource_label);
    expect(named(await logs(), 'private')).toEqual(['Sol']);
    const seen = await logs('', auditor);
    expect(named(seen, 'private')).toEqual([null]);
    expect(named(seen, 'shared')).toEqual(['Lia']);
    // The realm itself is no one's personal data.
    expect(seen.find((entry) => entry.operation === 'POST /realms' && entry.resource_id === 'private')).toMatchObject({ resource_label: 'Private' });
  });

  it('keeps the realm\'s name as it was when the realm is renamed, and has none for the realm\'s own deletion', async () => {
    await write('POST', '/realms', { uid: 'renamed', name: 'Before' });
    await write('POST', '/customers/renamed/users', { email: 'bo@example.com', first_name: 'Bo' });
    await write('PUT', '/realms/renamed', { name: 'After' });
    await write('POST', '/customers/renamed/users', { email: 'cy@example.com', first_name: 'Cy' });
    await write('DELETE', '/realms/renamed');
    const entries = (await logs('&realm_uid=renamed')).reverse();
    expect(entries.map((entry) => [entry.operation, entry.resource_label, entry.realm?.name])).toEqual([
      ['POST /customers/{realm_uid}/users', 'Bo', 'Before'],
      ['PUT /realms/{realm_uid}', 'After', 'After'],
      ['POST /customers/{realm_uid}/users', 'Cy', 'After'],
      ['DELETE /realms/{realm_uid}', 'After', null],
    ]);
  });
});
