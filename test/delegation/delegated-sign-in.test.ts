import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import * as oauth from 'oauth4webapi';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar } from '../helpers/cookie-jar.js';
import { usingPostgres } from '../helpers/database.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm, makeRealmUser } from '../helpers/realms.js';
import { buildApp } from '../../src/app.js';
import { rowsOf } from '../../src/db/rows.js';
import { createClient, REDIRECT } from '../oauth/fixtures.js';
import { ACCESS_TOKEN_TTL, CLIENT_ID, CLIENT_SECRET, signInAtProvider, startProvider, type TestProvider } from './provider.js';

const insecure = { [oauth.allowInsecureRequests]: true };
const REALMS = { direct: 'idp-direct', moderated: 'idp-moderated', invitation: 'idp-invitation', strict: 'idp-strict' } as const;

describe('sign-in delegated to an OpenID Connect provider (oidc-provider on a real port)', () => {
  let h: Harness;
  let base: string;
  let idp: TestProvider;
  let app: FastifyInstance;
  /** Every line the server logged. */
  const lines: string[] = [];
  const warnings = () => lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40);

  beforeAll(async () => {
    h = await startHarness();
    // The browsers' server logs through its own logger, kept here: what it says of a refusal, and that it never holds a token.
    const sink = new Writable({ write(chunk, _encoding, done) { lines.push(...String(chunk).trim().split('\n')); done(); } });
    const logger = pino({ level: 'info' }, sink) as unknown as FastifyBaseLogger;
    app = await buildApp({ ...h.ctx, log: logger }, { logger });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    h.ctx.config.baseUrl = base;
    idp = await startProvider(Object.values(REALMS).map((uid) => `${base}/realms/${uid}/delegated_login/callback`));
    Object.assign(idp.accounts, {
      alice: { email: 'alice@example.com', email_verified: true, given_name: 'Alice', family_name: 'Liddell', preferred_username: 'alice', employee_number: 'E-1' },
      bob: { email: 'bob@example.com', email_verified: true, given_name: 'Robert' },
      carol: { email: 'carol@example.com', email_verified: false },
      dave: { email: 'dave@example.com', email_verified: true, given_name: 'Dave' },
      erin: { email: 'erin@example.com', email_verified: true },
    });
    for (const [mode, uid] of [['direct', REALMS.direct], ['moderated', REALMS.moderated], ['invitation_only', REALMS.invitation], ['direct', REALMS.strict]]) {
      await makeRealm(h, { uid, settings: { activation_mode: mode } });
      expect((await h.request({ method: 'POST', url: `/api/admin/customers/${uid}/custom_fields`, payload: { key: 'employee', name: 'Employee', type: 'text' } })).statusCode).toBe(201);
      const put = await h.request({
        method: 'PUT', url: `/api/admin/customers/${uid}/identity_provider`,
        payload: {
          issuer: idp.issuer, client_id: CLIENT_ID, client_secret: CLIENT_SECRET, button_label: 'Example ID', show_delegation_information: true,
          claim_mapping: { first_name: 'given_name', last_name: 'family_name', username: 'preferred_username', custom_fields: { employee: 'employee_number' } },
        },
      });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json().redirect_uri).toBe(`${base}/realms/${uid}/delegated_login/callback`);
    }
  });
  afterAll(async () => {
    await idp?.close();
    await app?.close();
    await h?.close();
  });

  /** A browser: one cookie jar for Atrium, one for the provider. */
  const browser = () => ({ atrium: new CookieJar(base), provider: new CookieJar(idp.issuer) });
  type Browser = ReturnType<typeof browser>;

  /** Starts a delegated sign-in; answers the provider's authorization address. */
  async function start(b: Browser, realm: string, redirectUri?: string): Promise<URL> {
    const res = await b.atrium.fetch(`/realms/${realm}/delegated_login${redirectUri ? `?${new URLSearchParams({ redirect_uri: redirectUri })}` : ''}`);
    expect(res.status).toBe(303);
    return new URL(res.headers.get('location')!);
  }

  /** Starts and signs in at the provider; answers the callback address the provider sends the browser to. */
  async function toCallback(b: Browser, realm: string, login: string, redirectUri?: string): Promise<{ callback: string; authorization: URL }> {
    const authorization = await start(b, realm, redirectUri);
    return { callback: await signInAtProvider(b.provider, authorization.href, login), authorization };
  }

  const sessionCookie = (b: Browser, realm: string) => b.atrium.get(`atrium_realm_${realm}`)?.value;

  /** The provider's access tokens /me answered, to look for in the log. */
  const seen = new Set<string>();

  async function me(b: Browser, realm: string) {
    const res = await b.atrium.fetch(`/api/customers/realms/${realm}/me`);
    expect(res.status).toBe(200);
    const body = await res.json();
    if (body.delegated_token) seen.add(body.delegated_token.access_token);
    return body;
  }

  /** What a sign-in writes, to show that a refused one wrote nothing. */
  async function written() {
    const count = async (table: string) => rowsOf<{ n: number }>(await h.ctx.db.execute(sql.raw(`select count(*)::int as n from ${table}`)))[0].n;
    return {
      users: await count('realm_users'), sessions: await count('realm_sessions'), identities: await count('realm_user_identities'),
      tokens: await count('delegated_tokens'), states: await count('used_delegation_states'), events: await count('business_events'),
    };
  }

  async function userByEmail(realm: string, email: string) {
    const res = await h.request({ method: 'GET', url: `/api/admin/customers/${realm}/users?query=${encodeURIComponent(email)}` });
    return res.json().users[0];
  }

  it('shows the button, signs up a new user through the provider and shows the provider\'s token on /me', async () => {
    const b = browser();
    const login = await b.atrium.fetch(`/realms/${REALMS.direct}/login`);
    const page = await login.text();
    expect(page).toContain(`<form method="get" action="/realms/${REALMS.direct}/delegated_login">`);
    expect(page).toContain('Sign in with Example ID');

    const authorization = await start(b, REALMS.direct);
    expect(authorization.origin).toBe(idp.issuer);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      client_id: CLIENT_ID, response_type: 'code', scope: 'openid email profile', code_challenge_method: 'S256',
      redirect_uri: `${base}/realms/${REALMS.direct}/delegated_login/callback`,
    });
    for (const name of ['state', 'nonce', 'code_challenge']) expect(authorization.searchParams.get(name)).toMatch(/^[\w-]{43,}$/);
    const flowCookie = b.atrium.get('atrium_delegation')!;
    expect(flowCookie).toMatchObject({ path: `/realms/${REALMS.direct}/delegated_login`, httpOnly: true, sameSite: 'Lax' });
    expect(flowCookie.value).not.toContain(authorization.searchParams.get('state'));

    const callback = await signInAtProvider(b.provider, authorization.href, 'alice');
    expect(callback.startsWith(`${base}/realms/${REALMS.direct}/delegated_login/callback?code=`)).toBe(true);
    const done = await b.atrium.fetch(callback);
    expect(done.status, await done.clone().text()).toBe(303);
    expect(done.headers.get('location')).toBe(`/realms/${REALMS.direct}/profile`);
    expect(sessionCookie(b, REALMS.direct)).toBeTruthy();
    expect(b.atrium.get('atrium_delegation')).toBeUndefined();

    const body = await me(b, REALMS.direct);
    expect(body).toMatchObject({
      email: 'alice@example.com', first_name: 'Alice', last_name: 'Liddell', username: 'alice',
      custom_fields: [{ key: 'employee', value: 'E-1' }],
      delegated_token: {
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), access_token: expect.any(String),
        access_token_expires_in: ACCESS_TOKEN_TTL, access_token_expires_in_datetime: new Date(h.clock.now().getTime() + ACCESS_TOKEN_TTL * 1000).toISOString(),
      },
    });
    const userinfo = await idp.userinfo(body.delegated_token.access_token);
    expect(userinfo.status).toBe(200);
    expect(await userinfo.json()).toMatchObject({ sub: 'alice', email: 'alice@example.com' });

    const profile = await b.atrium.fetch(`/api/profile/me?realm_uid=${REALMS.direct}`);
    expect((await profile.json()).delegated_token).toEqual(body.delegated_token);

    const events = (await h.request({ method: 'GET', url: `/api/admin/customers/${REALMS.direct}/events` })).json().events;
    expect(events.map((e: { type: string }) => e.type).sort()).toEqual(['user_login_log', 'user_signup_log']);
    expect(events.find((e: { type: string }) => e.type === 'user_login_log').properties).toEqual({ identity_provider: idp.issuer });
  });

  it('finds the same user by the provider\'s sub the next time, in another browser', async () => {
    const before = await written();
    const b = browser();
    const { callback } = await toCallback(b, REALMS.direct, 'alice');
    expect((await b.atrium.fetch(callback)).status).toBe(303);
    const after = await written();
    expect(after.users).toBe(before.users);
    expect(after.identities).toBe(before.identities);
    expect(after.sessions).toBe(before.sessions + 1);
    expect((await me(b, REALMS.direct)).email).toBe('alice@example.com');
  });

  it('links an existing user by the provider\'s verified email, and only a verified one', async () => {
    const bob = await makeRealmUser(h, REALMS.direct, { email: 'bob@example.com', first_name: 'Bob' });
    const b = browser();
    const { callback } = await toCallback(b, REALMS.direct, 'bob');
    expect((await b.atrium.fetch(callback)).status).toBe(303);
    const body = await me(b, REALMS.direct);
    expect(body.id).toBe(bob.id);
    // Linked at the first sign-in; the existing profile is not overwritten by the claims.
    expect(body.first_name).toBe('Bob');

    await makeRealmUser(h, REALMS.direct, { email: 'carol@example.com' });
    const before = await written();
    const c = browser();
    const refused = await c.atrium.fetch((await toCallback(c, REALMS.direct, 'carol')).callback);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('did not give a verified email address');
    expect(sessionCookie(c, REALMS.direct)).toBeUndefined();
    expect(await written()).toEqual(before);
  });

  it('resumes an OAuth authorize of the realm after the delegated sign-in, ending with a code; the realm\'s token carries the delegation', async () => {
    const registered = await createClient(h, REALMS.direct);
    const issuer = new URL(`${base}/realms/${REALMS.direct}`);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const client: oauth.Client = { client_id: registered.uid };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorize = new URL(as.authorization_endpoint!);
    authorize.search = new URLSearchParams({
      response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    }).toString();

    const b = browser();
    const toLogin = await b.atrium.fetch(authorize.href);
    expect(toLogin.status).toBe(302);
    const loginPage = await (await b.atrium.fetch(toLogin.headers.get('location')!)).text();
    const form = /<form method="get" action="([^"]+)">\s*<input type="hidden" name="redirect_uri" value="([^"]+)">/.exec(loginPage)!;
    const redirectUri = form[2].replace(/&amp;/g, '&');
    expect(redirectUri).toBe(`${authorize.pathname}${authorize.search}`);
    const { callback } = await toCallback(b, REALMS.direct, 'dave', redirectUri);
    const back = await b.atrium.fetch(callback);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(redirectUri);
    const coded = await b.atrium.fetch(back.headers.get('location')!);
    const params = oauth.validateAuthResponse(as, client, new URL(coded.headers.get('location')!), state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretPost(registered.secret), params, REDIRECT, verifier, insecure);
    const token = await oauth.processAuthorizationCodeResponse(as, client, response);

    const res = await oauth.protectedResourceRequest(token.access_token, 'GET', new URL(`${base}/api/customers/realms/${REALMS.direct}/me`), undefined, undefined, insecure);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.email).toBe('dave@example.com');
    expect(body.delegated_token).toEqual((await me(b, REALMS.direct)).delegated_token);
    expect((await idp.userinfo(body.delegated_token.access_token)).status).toBe(200);
    const profile = await fetch(`${base}/api/profile/me`, { headers: { authorization: `Bearer ${token.access_token}` } });
    expect((await profile.json()).delegated_token.uuid).toBe(body.delegated_token.uuid);
  });

  it('refreshes an expired provider token once for 50 parallel reads, on the injected clock', async () => {
    const b = browser();
    expect((await b.atrium.fetch((await toCallback(b, REALMS.direct, 'erin')).callback)).status).toBe(303);
    const first = (await me(b, REALMS.direct)).delegated_token;
    h.clock.advance((ACCESS_TOKEN_TTL + 1) * 1000);
    const requests = idp.tokenRequests;
    const cookie = b.atrium.header('/api');
    // On PostgreSQL half the readers go to a second server process on the same database.
    const peer = usingPostgres() ? await h.peer() : null;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => (peer && i % 2 ? peer.app : h.app).inject({
      method: 'GET', url: `/api/customers/realms/${REALMS.direct}/me`, headers: { cookie },
    })));
    await peer?.close();
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));
    const tokens = new Set(answers.map((a) => a.json().delegated_token?.access_token));
    expect(tokens.size).toBe(1);
    const [refreshed] = tokens;
    expect(refreshed).toBeTruthy();
    expect(refreshed).not.toBe(first.access_token);
    expect(idp.tokenRequests - requests).toBe(1);
    const body = answers[0].json().delegated_token;
    expect(body.uuid).toBe(first.uuid);
    expect(body.access_token_expires_in).toBe(ACCESS_TOKEN_TTL);
    expect((await idp.userinfo(refreshed)).status).toBe(200);
  });

  it('shows null when the realm\'s show_delegation_information is off, and for a password session', async () => {
    const b = browser();
    expect((await b.atrium.fetch((await toCallback(b, REALMS.direct, 'alice')).callback)).status).toBe(303);
    await h.request({ method: 'PUT', url: `/api/admin/realms/${REALMS.direct}`, payload: { settings: { show_delegation_information: false } } });
    expect((await me(b, REALMS.direct)).delegated_token).toBeNull();
    await h.request({ method: 'PUT', url: `/api/admin/realms/${REALMS.direct}`, payload: { settings: { show_delegation_information: true } } });
    expect((await me(b, REALMS.direct)).delegated_token).not.toBeNull();

    const user = await makeRealmUser(h, REALMS.direct);
    const p = browser();
    const loginPage = await (await p.atrium.fetch(`/realms/${REALMS.direct}/login`)).text();
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(loginPage)![1];
    expect((await p.atrium.post(`/realms/${REALMS.direct}/login`, { username: user.email, password: 'a long secret 1', csrf_token: csrf })).status).toBe(303);
    expect((await me(p, REALMS.direct)).delegated_token).toBeNull();
  });

  it('creates an inactive user in a moderated realm and says so; refuses in an invitation-only realm', async () => {
    const b = browser();
    const pending = await b.atrium.fetch((await toCallback(b, REALMS.moderated, 'alice')).callback);
    expect(pending.status).toBe(200);
    expect(await pending.text()).toContain('An administrator will activate it');
    expect(sessionCookie(b, REALMS.moderated)).toBeUndefined();
    expect((await userByEmail(REALMS.moderated, 'alice@example.com')).active).toBe(false);
    const again = await b.atrium.fetch((await toCallback(b, REALMS.moderated, 'alice')).callback);
    expect(again.status).toBe(403);
    expect(await again.text()).toContain('Your account is not active');

    const before = await written();
    const c = browser();
    const closed = await c.atrium.fetch((await toCallback(c, REALMS.invitation, 'alice')).callback);
    expect(closed.status).toBe(403);
    expect(await closed.text()).toContain('this realm does not take new accounts here');
    expect(await written()).toEqual(before);
  });

  it('refuses a sign-up that misses a required custom field, naming it', async () => {
    const field = await h.request({
      method: 'POST', url: `/api/admin/customers/${REALMS.strict}/custom_fields`, payload: { key: 'badge', name: 'Badge', type: 'text', required: true },
    });
    expect(field.statusCode).toBe(201);
    const before = await written();
    const b = browser();
    const res = await b.atrium.fetch((await toCallback(b, REALMS.strict, 'alice')).callback);
    const page = await res.text();
    expect(res.status).toBe(422);
    expect(page).toContain('Your account could not be created');
    expect(page).toContain('Custom fields badge can&#39;t be blank');
    expect(await written()).toEqual(before);
  });

  describe('refuses with a page and writes nothing', () => {
    async function refused(b: Browser, callback: string, status: number, text: string): Promise<void> {
      const before = await written();
      const res = await b.atrium.fetch(callback);
      const page = await res.text();
      expect(res.status, page).toBe(status);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(page).toContain(text);
      expect(sessionCookie(b, REALMS.direct)).toBeUndefined();
      expect(await written()).toEqual(before);
    }

    it('a mismatched state (the flow stays usable for its own answer)', async () => {
      const b = browser();
      const { callback } = await toCallback(b, REALMS.direct, 'alice');
      const forged = new URL(callback);
      forged.searchParams.set('state', 'not-the-state-of-this-browser');
      await refused(b, forged.href, 400, 'does not belong to the sign-in started in this browser');
      expect((await b.atrium.fetch(callback)).status).toBe(303);
    });

    it('an answer reaching a browser that started no sign-in', async () => {
      const { callback } = await toCallback(browser(), REALMS.direct, 'alice');
      await refused(browser(), callback, 400, 'has expired or was started in another browser');
    });

    it('a flow older than ten minutes', async () => {
      const b = browser();
      const { callback } = await toCallback(b, REALMS.direct, 'alice');
      h.clock.advance(11 * 60_000);
      await refused(b, callback, 400, 'has expired');
    });

    it('the provider\'s error answer (access_denied)', async () => {
      const b = browser();
      const authorization = await start(b, REALMS.direct);
      const callback = await signInAtProvider(b.provider, authorization.href, 'alice', { deny: true });
      expect(new URL(callback).searchParams.get('error')).toBe('access_denied');
      await refused(b, callback, 403, 'did not allow the sign-in');
    });

    it('a replayed code', async () => {
      const b = browser();
      const { callback } = await toCallback(b, REALMS.direct, 'alice');
      const flow = b.atrium.get('atrium_delegation')!.value;
      expect((await b.atrium.fetch(callback)).status).toBe(303);
      const replay = browser();
      replay.atrium.cookies.set(`atrium_delegation|/realms/${REALMS.direct}/delegated_login`, { value: flow, path: `/realms/${REALMS.direct}/delegated_login`, httpOnly: true, sameSite: 'Lax', secure: false });
      await refused(replay, callback, 400, 'could not be verified');
      expect(warnings().at(-1).reason).toContain('invalid_grant');
    });

    it('a second code for a flow already used (the flow is taken once)', async () => {
      const b = browser();
      const authorization = await start(b, REALMS.direct);
      const flow = b.atrium.get('atrium_delegation')!.value;
      const first = await signInAtProvider(b.provider, authorization.href, 'alice');
      // The provider remembers the consent: the same authorization request gives another code at once.
      const second = await signInAtProvider(b.provider, authorization.href, 'alice');
      expect(new URL(second).searchParams.get('code')).not.toBe(new URL(first).searchParams.get('code'));
      expect((await b.atrium.fetch(first)).status).toBe(303);
      const replay = browser();
      replay.atrium.cookies.set(`atrium_delegation|/realms/${REALMS.direct}/delegated_login`, { value: flow, path: `/realms/${REALMS.direct}/delegated_login`, httpOnly: true, sameSite: 'Lax', secure: false });
      await refused(replay, second, 409, 'This sign-in was already used');
    });

    it('a foreign code: another browser\'s, given with this browser\'s state', async () => {
      const { callback: theirs } = await toCallback(browser(), REALMS.direct, 'alice');
      const b = browser();
      const { callback: mine } = await toCallback(b, REALMS.direct, 'bob');
      const crossed = new URL(mine);
      crossed.searchParams.set('code', new URL(theirs).searchParams.get('code')!);
      await refused(b, crossed.href, 400, 'could not be verified');
      expect(warnings().at(-1).reason).toContain('invalid_grant');
    });

    /** A sign-in whose token answer carries `forge(nonce)` as its ID token. */
    async function withIdToken(login: string, forge: (nonce: string) => Promise<string>): Promise<{ b: Browser; callback: string }> {
      const b = browser();
      const { callback, authorization } = await toCallback(b, REALMS.direct, login);
      const idToken = await forge(authorization.searchParams.get('nonce')!);
      idp.rewriteNextTokenAnswer((body) => ({ ...body, id_token: idToken }));
      return { b, callback };
    }

    it('accepts a well-made ID token of the provider\'s key through the same rig (the control)', async () => {
      const { b, callback } = await withIdToken('alice', (nonce) => idp.idToken({ sub: 'alice', nonce }, { now: h.clock.now() }));
      expect((await b.atrium.fetch(callback)).status).toBe(303);
    });

    // Each is the control's token with one thing wrong; times are on Atrium's (injected) clock.
    const now = () => ({ now: h.clock.now() });
    const forgeries: [string, (nonce: string) => Promise<string>, string][] = [
      ['a wrong audience', (nonce) => idp.idToken({ sub: 'alice', nonce, aud: 'another-client' }, now()), 'unexpected JWT "aud"'],
      ['a wrong issuer', (nonce) => idp.idToken({ sub: 'alice', nonce, iss: 'https://impostor.example' }, now()), 'unexpected JWT "iss"'],
      ['a wrong nonce', () => idp.idToken({ sub: 'alice', nonce: 'another-nonce' }, now()), 'unexpected ID Token "nonce"'],
      ['no nonce', () => idp.idToken({ sub: 'alice' }, now()), '"nonce" (nonce) claim missing'],
      ['a signature by another key', (nonce) => idp.idToken({ sub: 'alice', nonce }, { ...now(), foreignKey: true }), 'JWT signature verification failed'],
      ['an expiry passed', (nonce) => {
        const seconds = Math.floor(h.clock.now().getTime() / 1000);
        return idp.idToken({ sub: 'alice', nonce, iat: seconds - 7200, exp: seconds - 3600 }, now());
      }, 'unexpected JWT "exp"'],
    ];
    for (const [label, forge, reason] of forgeries) {
      it(`an ID token with ${label} (openid-client's check says why, in the log)`, async () => {
        const { b, callback } = await withIdToken('alice', forge);
        await refused(b, callback, 400, 'could not be verified');
        expect(warnings().at(-1)).toMatchObject({ msg: 'a delegated sign-in was refused', reason: expect.stringContaining(reason) });
      });
    }
  });

  it('takes one flow once under 8 simultaneous callbacks, each with a code the provider honours', async () => {
    const b = browser();
    const authorization = await start(b, REALMS.direct);
    // The same authorization request, answered 8 times by the provider: 8 good codes for one state.
    const callbacks: string[] = [];
    for (let i = 0; i < 8; i++) callbacks.push(await signInAtProvider(b.provider, authorization.href, 'alice'));
    expect(new Set(callbacks.map((c) => new URL(c).searchParams.get('code'))).size).toBe(8);
    const cookie = b.atrium.header(`/realms/${REALMS.direct}/delegated_login/callback`);
    const before = await written();
    const answers = await Promise.all(callbacks.map((callback) => fetch(callback, { headers: { cookie }, redirect: 'manual' })));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 409, 409, 409, 409, 409, 409, 409]);
    const after = await written();
    expect(after.sessions - before.sessions).toBe(1);
    expect(after.tokens - before.tokens).toBe(1);
    expect(after.states - before.states).toBe(1);
  });

  it('lets at most one of 10 simultaneous replays of one callback through (the provider revokes a replayed code\'s tokens)', async () => {
    const b = browser();
    const { callback } = await toCallback(b, REALMS.direct, 'alice');
    const cookie = b.atrium.header(`/realms/${REALMS.direct}/delegated_login/callback`);
    const before = await written();
    const answers = await Promise.all(Array.from({ length: 10 }, () => fetch(callback, { headers: { cookie }, redirect: 'manual' })));
    const signedIn = answers.filter((a) => a.status === 303).length;
    expect(signedIn).toBeLessThanOrEqual(1);
    expect(answers.filter((a) => a.status >= 400 && a.status < 500)).toHaveLength(10 - signedIn);
    expect((await written()).sessions - before.sessions).toBe(signedIn);
  });

  it('ends a flow whose provider changed meanwhile (409), and tells when the provider does not answer (502)', async () => {
    const b = browser();
    const { callback } = await toCallback(b, REALMS.strict, 'alice');
    const other = await startProvider([`${base}/realms/${REALMS.strict}/delegated_login/callback`]);
    const url = `/api/admin/customers/${REALMS.strict}/identity_provider`;
    expect((await h.request({ method: 'PUT', url, payload: { issuer: other.issuer } })).statusCode).toBe(200);
    const before = await written();
    const changed = await b.atrium.fetch(callback);
    expect(changed.status).toBe(409);
    expect(await changed.text()).toContain('changed while you were signing in');
    expect(await written()).toEqual(before);

    await other.close();
    const down = await browser().atrium.fetch(`/realms/${REALMS.strict}/delegated_login`);
    expect(down.status).toBe(502);
    expect(await down.text()).toContain('Example ID is not answering at the moment');
    expect((await h.request({ method: 'PUT', url, payload: { issuer: idp.issuer } })).statusCode).toBe(200);
  });

  it('forgets the provider\'s tokens of a session that ends', async () => {
    const b = browser();
    expect((await b.atrium.fetch((await toCallback(b, REALMS.direct, 'alice')).callback)).status).toBe(303);
    const before = await written();
    const logout = await (await b.atrium.fetch(`/realms/${REALMS.direct}/logout`)).text();
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(logout)![1];
    expect((await b.atrium.post(`/realms/${REALMS.direct}/logout`, { csrf_token: csrf })).status).toBe(303);
    expect((await written()).tokens).toBe(before.tokens - 1);
  });

  it('never logs the client secret or a token of the provider', async () => {
    const all = lines.join('\n');
    expect(lines.length).toBeGreaterThan(50);
    expect(seen.size).toBeGreaterThan(3);
    for (const secret of [CLIENT_SECRET, ...seen]) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/[?&]code=[\w-]{10,}/);
    const stored = rowsOf<{ sealed_access_token: string; sealed_refresh_token: string }>(
      await h.ctx.db.execute(sql`select sealed_access_token, sealed_refresh_token from delegated_tokens`),
    );
    for (const row of stored) {
      expect(row.sealed_access_token).toMatch(/^v1\./);
      expect(row.sealed_refresh_token).toMatch(/^v1\./);
      for (const token of seen) expect(row.sealed_access_token).not.toContain(token);
    }
  });

  it('removing the provider removes the button, the flow and the tokens shown on /me', async () => {
    const b = browser();
    expect((await b.atrium.fetch((await toCallback(b, REALMS.direct, 'alice')).callback)).status).toBe(303);
    expect((await h.request({ method: 'DELETE', url: `/api/admin/customers/${REALMS.direct}/identity_provider` })).statusCode).toBe(204);
    expect((await me(b, REALMS.direct)).delegated_token).toBeNull();
    expect(await (await b.atrium.fetch(`/realms/${REALMS.direct}/login`)).text()).not.toContain('Sign in with');
    expect((await b.atrium.fetch(`/realms/${REALMS.direct}/delegated_login`)).status).toBe(404);
    const left = rowsOf(await h.ctx.db.execute(sql`select (select count(*)::int from delegated_tokens t join realms r on r.id = t.realm_id where r.uid = ${REALMS.direct}) as tokens,
      (select count(*)::int from realm_user_identities i join realms r on r.id = i.realm_id where r.uid = ${REALMS.direct}) as identities`));
    expect(left[0]).toEqual({ tokens: 0, identities: 0 });
  });
});
