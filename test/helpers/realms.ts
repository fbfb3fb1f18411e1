import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Harness } from './harness.js';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;

/** Creates a realm through the admin API and returns its body. */
export async function makeRealm(h: Harness, body: Record<string, unknown> = {}) {
  const res = await h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: `realm-${unique()}`, name: 'Personal Banking', ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Creates a realm user through the admin API and returns its body. */
export async function makeRealmUser(h: Harness, realmUid: string, body: Record<string, unknown> = {}) {
  const res = await h.request({
    method: 'POST', url: `/api/admin/customers/${realmUid}/users`,
    payload: { email: `user-${unique()}@example.com`, password: 'a long secret 1', first_name: 'Ada', last_name: 'Lovelace', ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A team member with the given roles and an access token of their own; returns the token. */
export async function memberToken(h: Harness, roles: { key: string; target?: string }[]): Promise<string> {
  const member = await h.request({
    method: 'POST', url: '/api/admin/team_members',
    payload: { email: `member-${unique()}@example.com`, password: 'member password 1', roles },
  });
  expect(member.statusCode, member.body).toBe(201);
  const application = await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: `app ${unique()}` } });
  expect(application.statusCode, application.body).toBe(201);
  const token = await h.request({
    method: 'POST', url: `/api/admin/team_members/${member.json().id}/access_tokens`, payload: { application_id: application.json().id },
  });
  expect(token.statusCode, token.body).toBe(201);
  return token.json().token;
}
