import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { inputValue } from './cookie-jar.js';
import type { Harness } from './harness.js';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;

/** Creates a realm through the admin API and returns its body. */
export async function makeRealm(h: Harness, body: Record<string, unknown> = {}) {
  const res = await h.request({ method: 'POST', url: '/api/admin/realms', payload: { uid: `realm-${unique()}`, name: 'Personal Banking', ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** The password makeRealmUser gives a user unless told otherwise. */
export const REALM_USER_PASSWORD = 'a long secret 1';

/** Creates a realm user through the admin API and returns its body. */
export async function makeRealmUser(h: Harness, realmUid: string, body: Record<string, unknown> = {}) {
  const res = await h.request({
    method: 'POST', url: `/api/admin/customers/${realmUid}/users`,
    payload: { email: `user-${unique()}@example.com`, password: REALM_USER_PASSWORD, first_name: 'Ada', last_name: 'Lovelace', ...body },
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

/** The `name=value` pairs of an answer's Set-Cookie headers, as a cookie header would send them back. */
const cookiesOf = (res: LightMyRequestResponse) => res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

/** Posts a realm page's form with the CSRF cookie and token the page (GET at the same path) hands out, as a browser would. */
async function submitPage(h: Harness, path: string, fields: Record<string, string>, cookie = '', headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const page = await h.request({ method: 'GET', url: path, token: null, headers: { ...headers, ...(cookie ? { cookie } : {}) } });
  expect(page.statusCode, page.body).toBe(200);
  return h.request({
    method: 'POST', url: path, token: null,
    headers: { ...headers, cookie: [cookie, cookiesOf(page)].filter(Boolean).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...fields, csrf_token: inputValue(page.body, 'csrf_token') ?? '' }).toString(),
  });
}

/**
 * Signs a realm user in through the realm's login page; answers the session cookie (`atrium_realm_{uid}=…`).
 * `headers` are the browser's own (a User-Agent, say).
 */
export async function signInAtLoginPage(h: Harness, realmUid: string, username: string, password: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await submitPage(h, `/realms/${realmUid}/login`, { username, password }, '', headers);
  const session = res.cookies.find((c) => c.name === `atrium_realm_${realmUid}`);
  if (res.statusCode !== 303 || !session) throw new Error(`sign-in answered ${res.statusCode}: ${res.body}`);
  return `${session.name}=${session.value}`;
}

/** Signs the session of that cookie out through the realm's sign-out page. */
export async function signOutAtLogoutPage(h: Harness, realmUid: string, cookie: string): Promise<void> {
  const res = await submitPage(h, `/realms/${realmUid}/logout`, {}, cookie);
  expect(res.statusCode, res.body).toBe(303);
}

/** Opens a session as the user through the owner's impersonation link; answers its session cookie. */
export async function impersonatedSession(h: Harness, realmUid: string, userId: number): Promise<string> {
  const link = await h.request({ method: 'POST', url: `/api/admin/customers/${realmUid}/users/${userId}/impersonate` });
  expect(link.statusCode, link.body).toBe(200);
  const opened = await h.request({ method: 'GET', url: new URL(link.json().url).pathname, token: null });
  const session = opened.cookies.find((c) => c.name === `atrium_realm_${realmUid}`);
  if (opened.statusCode !== 303 || !session) throw new Error(`the impersonation link answered ${opened.statusCode}: ${opened.body}`);
  return `${session.name}=${session.value}`;
}
