import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { makeRealmUser, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';
import { realms } from '../../src/tables/realms.js';

/** A new user of the realm, signed in through the realm's login page (which records a `user_login_log`). */
export async function signedInUser(h: Harness, realmUid: string) {
  const user = await makeRealmUser(h, realmUid);
  const cookie = await signInAtLoginPage(h, realmUid, user.email, REALM_USER_PASSWORD);
  return { user, cookie };
}

/** GET /events of the customers API with the user's session cookie. */
export function userEvents(h: Harness, realmUid: string, cookie: string, query = '', headers: Record<string, string> = {}) {
  return h.request({ method: 'GET', url: `/api/customers/realms/${realmUid}/events${query}`, token: null, headers: { cookie, ...headers } });
}

/** The titles of the user's events (the page asked for), after checking the answer's status. */
export async function titles(h: Harness, realmUid: string, cookie: string, query = '', headers: Record<string, string> = {}) {
  const res = await userEvents(h, realmUid, cookie, query, headers);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().events as { title: string }[]).map((e) => e.title);
}

/** Records a custom event through the admin API. */
export async function recordCustom(h: Harness, realmUid: string, userId: number, type: string, properties?: unknown) {
  const res = await h.request({ method: 'POST', url: `/api/admin/customers/${realmUid}/users/${userId}/events`, payload: { type, properties } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** The realm's internal id, which `recordEvent` takes (the admin API names realms by uid only). */
export async function realmIdOf(h: Harness, realmUid: string): Promise<number> {
  const [row] = await h.ctx.db.select({ id: realms.id }).from(realms).where(eq(realms.uid, realmUid));
  return row.id;
}
