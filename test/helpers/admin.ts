import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Harness } from './harness.js';

/**
 * Calls the admin API (`url` below /api/admin) as the owner and answers the body (null for a 204). The status must be
 * `status` when given, else any success.
 */
export const adminCall = (h: Harness) => async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, status?: number) => {
  const res = await h.request({ method, url: `/api/admin${url}`, ...(payload ? { payload: payload as object } : {}) });
  if (status === undefined) expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  else expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.statusCode === 204 ? null : res.json();
};

export interface Member {
  id: number;
  email: string;
  password: string;
  token: string;
}

/** A new team member with the given roles, and an access token for it. */
export async function createMember(h: Harness, roles: { key: string; target?: string }[]): Promise<Member> {
  const email = `member-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'a sturdy password';
  const member = await h.request({ method: 'POST', url: '/api/admin/team_members', payload: { email, password, name: 'Test Member', roles } });
  if (member.statusCode !== 201) throw new Error(`member not created: ${member.body}`);
  const app = await h.request({ method: 'POST', url: '/api/admin/api_access/applications', payload: { name: 'Tests' } });
  const token = await h.request({
    method: 'POST', url: `/api/admin/team_members/${member.json().id}/access_tokens`, payload: { application_id: app.json().id },
  });
  return { id: member.json().id, email, password, token: token.json().token };
}

/** Signs in with email and password; returns the session cookie header value and the CSRF token. */
export async function signIn(h: Harness, email: string, password: string): Promise<{ cookie: string; csrf: string }> {
  const res = await h.request({ method: 'POST', url: '/api/admin/session', token: null, payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'atrium_admin')!;
  return { cookie: `atrium_admin=${cookie.value}`, csrf: res.json().csrf_token };
}
