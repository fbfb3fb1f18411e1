import * as oauth from 'oauth4webapi';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { usingPostgres } from '../helpers/database.js';
import { makeRealmUser } from '../helpers/realms.js';
import { createClient, REDIRECT } from '../oauth/fixtures.js';
import { ACCESS_TOKEN_TTL, CLIENT_ID, signInAtProvider } from './provider.js';
import { base, browser, expectNothingSecretLogged, h, idp, me, REALMS, seen, sessionCookie, start, toCallback, useRig, written } from './rig.js';

const insecure = { [oauth.allowInsecureRequests]: true };

describe('sign-in delegated to an OpenID Connect provider (oidc-provider on a real port)', () => {
  useRig();

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

  it('names the identity provider in the realm\'s ID token (idp) after a delegated sign-in, with no amr', async () => {
    expect((await h.request({ method: 'PUT', url: `/api/admin/realms/${REALMS.direct}`, payload: { settings: { openid_connect_enabled: true } } })).statusCode).toBe(200);
    const registered = await createClient(h, REALMS.direct, { scopes: ['openid'] });
    const b = browser();
    const { callback } = await toCallback(b, REALMS.direct, 'dave');
    expect((await b.atrium.fetch(callback)).status).toBe(303);
    const issuer = new URL(`${base}/realms/${REALMS.direct}`);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...insecure }));
    const client: oauth.Client = { client_id: registered.uid };
    const verifier = oauth.generateRandomCodeVerifier();
    const authorize = new URL(as.authorization_endpoint!);
    authorize.search = new URLSearchParams({
      response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    }).toString();
    const coded = await b.atrium.fetch(authorize.href);
    const params = oauth.validateAuthResponse(as, client, new URL(coded.headers.get('location')!), 's');
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretPost(registered.secret), params, REDIRECT, verifier, insecure);
    const result = await oauth.processAuthorizationCodeResponse(as, client, response);
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    expect(claims.idp).toBe(idp.issuer);
    expect(claims.amr).toBeUndefined();
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
    expect(page).toContain('Badge can&#39;t be blank.');
    expect(await written()).toEqual(before);
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
    expect(seen.size).toBeGreaterThan(3);
    expectNothingSecretLogged();
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
    expect(await (await b.atrium.fetch(`/realms/${REALMS.direct}/login`)).text()).not.toContain('delegated_login');
    expect((await b.atrium.fetch(`/realms/${REALMS.direct}/delegated_login`)).status).toBe(404);
    const left = rowsOf(await h.ctx.db.execute(sql`select (select count(*)::int from delegated_tokens t join realms r on r.id = t.realm_id where r.uid = ${REALMS.direct}) as tokens,
      (select count(*)::int from realm_user_identities i join realms r on r.id = i.realm_id where r.uid = ${REALMS.direct}) as identities`));
    expect(left[0]).toEqual({ tokens: 0, identities: 0 });
  });
});
