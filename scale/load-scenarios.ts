import { formFields } from '../test/oauth/browse.js';
import { authorizePath, REDIRECT } from '../test/oauth/fixtures.js';
import type { Cluster } from './cluster.js';
import type { LoadRecorder } from './load-recorder.js';

export const REALM = 'load';
const SPACE = 'load-space';
const TYPE = 'article';
const PASSWORD = 'a long load test password';
const ENTRIES = 30;
/** Sign-ins of one account never overlap more than this often (each worker keeps to one account): no lock is ever near. */
const WORKERS_PER_ACCOUNT = 4;
// A whole 1×1 PNG: the server decodes an avatar to resize it and refuses a damaged one (422).
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A realm user with a session and an OAuth access token, and a team member, shared by a few workers. */
export interface Account {
  userId: number;
  email: string;
  memberEmail: string;
  session: string;
  accessToken: string;
}

/** Everything the load reaches: accounts, an OAuth client, a content space with published entries. */
export interface LoadWorld {
  base: string;
  ownerToken: string;
  client: { uid: string; secret: string };
  accounts: Account[];
}

/** The name=value pairs a response's Set-Cookie headers set whose name starts with `prefix`. */
function cookiesOf(headers: Headers, prefix: string): string {
  return headers.getSetCookie().map((line) => line.split(';')[0]).filter((pair) => pair.startsWith(prefix)).join('; ');
}

/** Signs a realm user in the way a browser does: the login page, then its form. Answers the session cookie, or null. */
export async function signIn(r: LoadRecorder, w: LoadWorld, email: string): Promise<string | null> {
  const page = await r.fetch('GET /realms/{uid}/login', `${w.base}/realms/${REALM}/login`);
  if (page?.status !== 200) return null;
  const form = new URLSearchParams({ ...formFields(page.text), username: email, password: PASSWORD });
  const answer = await r.fetch('POST /realms/{uid}/login', `${w.base}/realms/${REALM}/login`, {
    method: 'POST', body: form, headers: { cookie: cookiesOf(page.headers, 'atrium_csrf') },
  });
  return answer?.status === 303 ? cookiesOf(answer.headers, 'atrium_realm_') || null : null;
}

/** A team member's sign-in to the administration. */
export async function adminSignIn(r: LoadRecorder, w: LoadWorld, email: string): Promise<void> {
  await r.fetch('POST /api/admin/session', `${w.base}/api/admin/session`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }),
  });
}

/** An authorization code for the signed-in user, exchanged for an access token. */
export async function exchangeCode(r: LoadRecorder, w: LoadWorld, session: string): Promise<string | null> {
  const authorize = await r.fetch('GET /realms/{uid}/oauth/authorize', `${w.base}${authorizePath(REALM, { response_type: 'code', client_id: w.client.uid, redirect_uri: REDIRECT })}`, {
    headers: { cookie: session },
  });
  const location = authorize?.headers.get('location');
  const code = location ? new URL(location, w.base).searchParams.get('code') : null;
  if (!code) return null;
  const token = await r.fetch('POST /realms/{uid}/oauth/token', `${w.base}/realms/${REALM}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: w.client.uid, client_secret: w.client.secret }),
  });
  return token?.status === 200 ? JSON.parse(token.text).access_token : null;
}

const customers = (r: LoadRecorder, w: LoadWorld, path: string, token: string) =>
  r.fetch(`GET /api/customers/realms/{uid}${path}`, `${w.base}/api/customers/realms/${REALM}${path}`, { headers: { authorization: `Bearer ${token}` } });

const listEntries = (r: LoadRecorder, w: LoadWorld, page: number) =>
  r.fetch('GET /api/content/spaces/{space}/types/{type}/entries', `${w.base}/api/content/spaces/${SPACE}/types/${TYPE}/entries?per_page=10&page=${page}`);

function uploadAvatar(r: LoadRecorder, w: LoadWorld, userId: number) {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'avatar.png');
  return r.fetch('PUT /api/admin/customers/{uid}/users/{id}/avatar', `${w.base}/api/admin/customers/${REALM}/users/${userId}/avatar`, {
    method: 'PUT', headers: { authorization: `Bearer ${w.ownerToken}` }, body: form,
  });
}

/** What one worker does next, with how often it is drawn. */
export interface Scenario {
  weight: number;
  run(r: LoadRecorder, w: LoadWorld, account: Account, random: () => number): Promise<unknown>;
}

export const SCENARIOS: Scenario[] = [
  { weight: 2, run: (r, w, a) => signIn(r, w, a.email) },
  { weight: 1, run: (r, w, a) => adminSignIn(r, w, a.memberEmail) },
  { weight: 2, run: (r, w, a) => exchangeCode(r, w, a.session) },
  { weight: 4, run: (r, w, a) => customers(r, w, '/me', a.accessToken) },
  { weight: 3, run: (r, w, a) => customers(r, w, '/events', a.accessToken) },
  { weight: 5, run: (r, w, _a, random) => listEntries(r, w, 1 + Math.floor(random() * 3)) },
  { weight: 1, run: (r, w, a) => uploadAvatar(r, w, a.userId) },
];

/** Picks a scenario by weight. */
export function draw(random: () => number): Scenario {
  let left = random() * SCENARIOS.reduce((sum, s) => sum + s.weight, 0);
  for (const scenario of SCENARIOS) if ((left -= scenario.weight) < 0) return scenario;
  return SCENARIOS[SCENARIOS.length - 1];
}

async function created(c: Cluster, url: string, body: unknown): Promise<any> {
  const res = await c.api('POST', url, body);
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST ${url} answered ${res.status}: ${JSON.stringify(res.json)}`);
  return res.json;
}

/**
 * Makes the world through the admin API: a realm with one account per WORKERS_PER_ACCOUNT workers (a user signed in,
 * with an access token, and a team member), an OAuth client, a space whose type has ENTRIES published entries.
 */
export async function prepareLoad(c: Cluster, setup: LoadRecorder, workers: number): Promise<LoadWorld> {
  await created(c, '/api/admin/realms', { uid: REALM, name: 'Load' });
  const client = await created(c, `/api/admin/customers/${REALM}/oauth_clients`, { name: 'Load', redirect_uris: [REDIRECT] });
  const w: LoadWorld = { base: c.proxy.url, ownerToken: c.token, client, accounts: [] };
  await created(c, '/api/admin/content/spaces', { uid: SPACE, name: 'Load', default_locale: 'en', locales: [] });
  await created(c, `/api/admin/content/spaces/${SPACE}/types`, { uid: TYPE, name: 'Article', fields: [{ name: 'title', type: 'text', required: true }] });
  for (let i = 0; i < ENTRIES; i++) {
    const entry = await created(c, `/api/admin/content/spaces/${SPACE}/types/${TYPE}/entries`, { name: `Entry ${i}`, fields: { title: `Title ${i}` } });
    await created(c, `/api/admin/content/spaces/${SPACE}/types/${TYPE}/entries/${entry.meta.uuid}/publish`, {});
  }
  const count = Math.ceil(workers / WORKERS_PER_ACCOUNT);
  w.accounts = await Promise.all(Array.from({ length: count }, async (_, i) => {
    const email = `load-${i}@scale.test`;
    const user = await created(c, `/api/admin/customers/${REALM}/users`, { email, password: PASSWORD, first_name: 'Load' });
    const memberEmail = `member-${i}@scale.test`;
    await created(c, '/api/admin/team_members', { email: memberEmail, password: PASSWORD });
    const session = await signIn(setup, w, email);
    const accessToken = session && await exchangeCode(setup, w, session);
    if (!session || !accessToken) throw new Error(`${email} could not sign in or get a token`);
    return { userId: user.id, email, memberEmail, session, accessToken };
  }));
  return w;
}
