import { expect } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { signInAtLoginPage } from '../helpers/realms.js';

export const USER_PASSWORD = 'a long enough password';

export interface RealmFixture {
  uid: string;
}

export interface RealmOptions {
  customDomain?: string;
  pkcePlainAllowed?: boolean;
  active?: boolean;
}

/** A realm made through the admin API. */
export async function createRealm(h: Harness, uid: string, options: RealmOptions = {}): Promise<RealmFixture> {
  const res = await h.request({
    method: 'POST', url: '/api/admin/realms',
    payload: {
      uid, name: `Realm ${uid}`, active: options.active ?? true, custom_domain: options.customDomain ?? null,
      settings: { pkce_plain_allowed: options.pkcePlainAllowed ?? false },
    },
  });
  if (res.statusCode !== 201) throw new Error(`realm creation answered ${res.statusCode}: ${res.body}`);
  return { uid };
}

/** A user of the realm made through the admin API; answers its id. */
export async function createUser(h: Harness, realm: RealmFixture, email: string): Promise<number> {
  const res = await h.request({
    method: 'POST', url: `/api/admin/customers/${realm.uid}/users`,
    payload: { email, username: email.split('@')[0], password: USER_PASSWORD, first_name: 'Ana', last_name: 'Test' },
  });
  if (res.statusCode !== 201) throw new Error(`user creation answered ${res.statusCode}: ${res.body}`);
  return res.json().id;
}

/** A new user of the realm, signed in on the realm's login page with USER_PASSWORD; answers its id and session cookie. */
export async function signedInUser(h: Harness, realm: RealmFixture, email: string): Promise<{ id: number; cookie: string }> {
  const id = await createUser(h, realm, email);
  return { id, cookie: await signInAtLoginPage(h, realm.uid, email, USER_PASSWORD) };
}

export interface ClientFixture {
  id: number;
  uid: string;
  secret: string;
}

export async function createClient(h: Harness, realmUid: string, body: Record<string, unknown> = {}): Promise<ClientFixture> {
  const res = await h.request({
    method: 'POST', url: `/api/admin/customers/${realmUid}/oauth_clients`,
    payload: { name: 'App', redirect_uris: ['https://app.example/callback'], ...body },
  });
  if (res.statusCode !== 201) throw new Error(`client creation answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

export const REDIRECT = 'https://app.example/callback';

export function authorizePath(realmUid: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  return `/realms/${realmUid}/oauth/authorize?${query}`;
}

/** The query of a redirect back to the client. */
export function callbackParams(location: string | undefined): URLSearchParams {
  if (!location) throw new Error('no Location header');
  return new URL(location).searchParams;
}

/** A fresh code from the authorize endpoint for a signed-in user. */
export async function issueCode(h: Harness, realmUid: string, clientUid: string, cookie: string, extra: Record<string, string | undefined> = {}): Promise<string> {
  const res = await h.request({
    method: 'GET', token: null, headers: { cookie },
    url: authorizePath(realmUid, { response_type: 'code', client_id: clientUid, redirect_uri: REDIRECT, ...extra }),
  });
  const code = res.statusCode === 302 ? new URL(res.headers.location as string, 'http://x').searchParams.get('code') : null;
  if (!code) throw new Error(`no code: ${res.statusCode} ${res.headers.location ?? res.body}`);
  return code;
}

/** An access token tied to the session of that cookie, through the authorize and token endpoints (a new client each time). */
export async function accessTokenFor(h: Harness, realmUid: string, cookie: string): Promise<string> {
  const client = await createClient(h, realmUid);
  const code = await issueCode(h, realmUid, client.uid, cookie);
  const res = await postForm(h, `/realms/${realmUid}/oauth/token`, {
    grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.uid, client_secret: client.secret,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token;
}

/** A form POST to a realm's token or revocation endpoint. */
export function postForm(h: Harness, url: string, form: Record<string, string | undefined>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  return h.request({ method: 'POST', url, token: null, payload: body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
}

export const basicAuth = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
