import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { businessEvents } from '../../src/tables/events.js';
import type { Harness } from '../helpers/harness.js';
import { makeRealmUser, REALM_USER_PASSWORD, signInAtLoginPage } from '../helpers/realms.js';
import { createClient, issueCode, postForm, REDIRECT } from '../oauth/fixtures.js';

export const NOT_FOUND = {};
export const USER_SESSION = { error: { user_session: 'user not found' } };

/** The admin API's POST .../users/{id}/notifications, with the owner's token unless told otherwise. */
export function sendRequest(h: Harness, realmUid: string, userId: number | string, payload: unknown, token?: string | null) {
  return h.request({ method: 'POST', url: `/api/admin/customers/${realmUid}/users/${userId}/notifications`, payload: payload as object, token });
}

/** Sends a notification as the owner; answers its body. */
export async function send(h: Harness, realmUid: string, userId: number, payload: Record<string, unknown> = {}) {
  const res = await sendRequest(h, realmUid, userId, { subject: 'Your statement is ready', ...payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; subject: string; body: string; url: string | null; opened: boolean; sent_at: string };
}

export interface SignedIn {
  id: number;
  /** Headers that carry the user's credential: the realm session cookie, or a bearer token. */
  headers: Record<string, string>;
}

/** A new user of the realm, signed in on the realm's login page. */
export async function signedInUser(h: Harness, realmUid: string): Promise<SignedIn> {
  const user = await makeRealmUser(h, realmUid);
  return { id: user.id, headers: { cookie: await signInAtLoginPage(h, realmUid, user.email, REALM_USER_PASSWORD) } };
}

/** A new user of the realm with an OAuth access token from the realm's authorize and token endpoints. */
export async function userWithToken(h: Harness, realmUid: string): Promise<SignedIn> {
  const { id, headers } = await signedInUser(h, realmUid);
  const client = await createClient(h, realmUid);
  const code = await issueCode(h, realmUid, client.uid, headers.cookie);
  const res = await postForm(h, `/realms/${realmUid}/oauth/token`, {
    grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.uid, client_secret: client.secret,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { id, headers: { authorization: `Bearer ${res.json().access_token}` } };
}

/** A customers API request on behalf of that user. */
export function asCustomer(h: Harness, who: Pick<SignedIn, 'headers'>, method: 'GET' | 'POST', realmUid: string, path: string) {
  return h.request({ method, url: `/api/customers/realms/${realmUid}${path}`, token: null, headers: who.headers });
}

/** The user's `notification_opened_log` events, as the events log holds them. */
export function openedEvents(h: Harness, userId: number) {
  return h.ctx.db.select().from(businessEvents)
    .where(and(eq(businessEvents.userId, userId), eq(businessEvents.type, 'notification_opened_log')));
}
