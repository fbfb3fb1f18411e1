import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { createMember } from '../helpers/admin.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { listen } from '../helpers/server.js';
import { browse, CookieJar } from './browse.js';
import { createClient, createRealm, createUser, REDIRECT, USER_PASSWORD, type ClientFixture } from './fixtures.js';

const login = { username: 'ana@bank.test', password: USER_PASSWORD };

/** Issue 31 items 1-3: discovery, keys, ID tokens and userinfo, through the certified relying-party library openid-client. */
describe('OpenID Connect on a realm that enables it', () => {
  let h: Harness;
  let base: string;
  let confidential: ClientFixture;
  let publicClient: ClientFixture;
  let userUuid: string;

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    await createRealm(h, 'bank');
    const enabled = await h.request({ method: 'PUT', url: '/api/admin/realms/bank', payload: { settings: { openid_connect_enabled: true } } });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json().settings.openid_connect_enabled).toBe(true);
    confidential = await createClient(h, 'bank', { scopes: ['public', 'openid', 'profile', 'email'] });
    publicClient = await createClient(h, 'bank', { scopes: ['openid'], confidential: false });
    const userId = await createUser(h, { uid: 'bank' }, login.username);
    userUuid = (await h.request({ url: `/api/admin/customers/bank/users/${userId}` })).json().uuid;
    // Not the realm's: a second realm keeps OpenID Connect off.
    await createRealm(h, 'plain');
  });
  afterAll(async () => { await h?.close(); });

  const discover = async (fixture: ClientFixture, auth = client.ClientSecretPost(fixture.secret)) =>
    client.discovery(new URL(`${base}/realms/bank`), fixture.uid, undefined, auth, { execute: [client.allowInsecureRequests] });

  /** The authorization request with PKCE, state and nonce, through the login page to the client's callback. */
  async function signIn(config: client.Configuration, jar: CookieJar, scope: string, extra: Record<string, string> = {}) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT, scope, state, nonce, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', ...extra,
    });
    const callback = await browse(jar, url.toString(), login, REDIRECT);
    return { callback, verifier, state, nonce };
  }

  it('completes discovery, code + PKCE + nonce, ID token validation and userinfo', async () => {
    const config = await discover(confidential);
    const server = config.serverMetadata();
    expect(server.issuer).toBe(`${base}/realms/bank`);
    expect(server.jwks_uri).toBe(`${base}/realms/bank/oauth/jwks`);
    expect(server.userinfo_endpoint).toBe(`${base}/realms/bank/oauth/userinfo`);
    expect(server.id_token_signing_alg_values_supported).toEqual(['RS256', 'ES256']);
    expect(server.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email']));

    const { callback, verifier, state, nonce } = await signIn(config, new CookieJar(base), 'openid profile email');
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: `${base}/realms/bank`, aud: confidential.uid, sub: userUuid, nonce, amr: ['pwd'],
      email: login.username, email_verified: true, given_name: 'Ana', family_name: 'Test', name: 'Ana Test', preferred_username: 'ana',
    });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(typeof claims.auth_time).toBe('number');
    expect(claims.sid).toMatch(/^[\w-]{32}$/);
    expect(claims.at_hash).toMatch(/^[\w-]{22}$/);
    expect(decodeProtectedHeader(tokens.id_token!)).toMatchObject({ alg: 'RS256', typ: 'JWT' });

    const info = await client.fetchUserInfo(config, tokens.access_token, userUuid);
    expect(info).toEqual({
      sub: userUuid, email: login.username, email_verified: true, name: 'Ana Test', given_name: 'Ana', family_name: 'Test',
      preferred_username: 'ana', updated_at: expect.any(Number),
    });
    // POST too (Core 5.3.1), and the same token still works in the customers API.
    const posted = await fetch(`${base}/realms/bank/oauth/userinfo`, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(posted.status).toBe(200);
    expect((await posted.json()).sub).toBe(userUuid);
    expect((await fetch(`${base}/api/customers/realms/bank/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(200);
  });

  it('gives only the scopes\' claims, and no ID token without openid', async () => {
    const config = await discover(confidential);
    const jar = new CookieJar(base);
    const { callback, verifier, state, nonce } = await signIn(config, jar, 'openid');
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    expect(Object.keys(tokens.claims()!).sort()).toEqual(['amr', 'at_hash', 'aud', 'auth_time', 'exp', 'iat', 'iss', 'nonce', 'sid', 'sub']);
    expect(await client.fetchUserInfo(config, tokens.access_token, userUuid)).toEqual({ sub: userUuid });

    const plain = await signIn(config, jar, 'public');
    const oauthOnly = await client.authorizationCodeGrant(config, plain.callback, { pkceCodeVerifier: plain.verifier, expectedState: plain.state });
    expect(oauthOnly.id_token).toBeUndefined();
    const refused = await fetch(`${base}/realms/bank/oauth/userinfo`, { headers: { authorization: `Bearer ${oauthOnly.access_token}` } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="openid"');
  });

  it('refuses userinfo without a live token of the realm', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }] as Record<string, string>[]) {
      const res = await fetch(`${base}/realms/bank/oauth/userinfo`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
      expect((await res.json()).error).toBe('invalid_token');
    }
  });

  it('signs a public client in with PKCE S256 only', async () => {
    const config = await discover(publicClient, client.None());
    const { callback, verifier, state, nonce } = await signIn(config, new CookieJar(base), 'openid');
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    expect(tokens.claims()!.aud).toBe(publicClient.uid);

    const url = new URL(`${base}/realms/bank/oauth/authorize`);
    url.search = new URLSearchParams({ response_type: 'code', client_id: publicClient.uid, redirect_uri: REDIRECT, scope: 'openid', state: 's' }).toString();
    const refused = await browse(new CookieJar(base), url.toString(), login, REDIRECT);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    expect(refused.searchParams.get('error_description')).toMatch(/S256/);
  });

  it('answers prompt=none without a session with login_required, and max_age with a new sign-in', async () => {
    const config = await discover(confidential);
    const none = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 's', prompt: 'none' });
    const res = await fetch(none, { redirect: 'manual' });
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe('login_required');

    const jar = new CookieJar(base);
    const first = await signIn(config, jar, 'openid');
    const firstTokens = await client.authorizationCodeGrant(config, first.callback, { pkceCodeVerifier: first.verifier, expectedState: first.state, expectedNonce: first.nonce });
    h.clock.advance(120_000);
    // The session is two minutes old: max_age=60 sends the user to the login page again, and the new session is younger.
    const again = await signIn(config, jar, 'openid', { max_age: '60' });
    const againTokens = await client.authorizationCodeGrant(config, again.callback, { pkceCodeVerifier: again.verifier, expectedState: again.state, expectedNonce: again.nonce, maxAge: 60 });
    expect(againTokens.claims()!.auth_time).toBeGreaterThanOrEqual(firstTokens.claims()!.auth_time! + 120);
    expect(againTokens.claims()!.sid).not.toBe(firstTokens.claims()!.sid);
  });

  it('keeps a rotated key published until the tokens it signed expire', async () => {
    const config = await discover(confidential);
    const signed = await signIn(config, new CookieJar(base), 'openid');
    const tokens = await client.authorizationCodeGrant(config, signed.callback, { pkceCodeVerifier: signed.verifier, expectedState: signed.state, expectedNonce: signed.nonce });
    const oldKid = decodeProtectedHeader(tokens.id_token!).kid;

    const rotated = await h.request({ method: 'POST', url: '/api/admin/customers/bank/signing_keys/rotate' });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().kid).not.toBe(oldKid);
    const kids = async () => ((await (await fetch(`${base}/realms/bank/oauth/jwks`)).json()).keys as { kid: string }[]).map((k) => k.kid);
    expect(await kids()).toEqual([rotated.json().kid, oldKid]);
    const jwks = createRemoteJWKSet(new URL(`${base}/realms/bank/oauth/jwks`));
    await expect(jwtVerify(tokens.id_token!, jwks, { issuer: `${base}/realms/bank`, audience: confidential.uid, currentDate: h.clock.now() })).resolves.toBeDefined();

    const next = await signIn(config, new CookieJar(base), 'openid');
    const nextTokens = await client.authorizationCodeGrant(config, next.callback, { pkceCodeVerifier: next.verifier, expectedState: next.state, expectedNonce: next.nonce });
    expect(decodeProtectedHeader(nextTokens.id_token!).kid).toBe(rotated.json().kid);

    h.clock.advance(3600_000 + 1000);
    expect(await kids()).toEqual([rotated.json().kid]);
  });

  it('issues RFC 9068 JWT access tokens to a client that asks for them, verifiable offline; a token signed by an unknown key is refused', async () => {
    const jwtClient = await createClient(h, 'bank', { scopes: ['openid'], jwt_access_token_seconds: 300 });
    expect(jwtClient).toMatchObject({ jwt_access_token_seconds: 300 });
    const config = await discover(jwtClient);
    const { callback, verifier, state, nonce } = await signIn(config, new CookieJar(base), 'openid');
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    expect(tokens.expires_in).toBe(300);
    const jwks = createRemoteJWKSet(new URL(`${base}/realms/bank/oauth/jwks`));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
      issuer: `${base}/realms/bank`, audience: `${base}/api/customers/realms/bank`, typ: 'at+jwt', currentDate: h.clock.now(),
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ sub: userUuid, client_id: jwtClient.uid, scope: 'openid', sid: tokens.claims()!.sid });
    expect(payload.exp! - payload.iat!).toBe(300);
    // Atrium's own APIs take it like an opaque token, by its hash.
    expect((await fetch(`${base}/realms/bank/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(200);

    const { generateKeyPair, SignJWT } = await import('jose');
    const stranger = await generateKeyPair('RS256');
    const forged = await new SignJWT({ ...payload }).setProtectedHeader({ alg: 'RS256', kid: 'unknown', typ: 'at+jwt' }).sign(stranger.privateKey);
    for (const url of [`${base}/realms/bank/oauth/userinfo`, `${base}/api/customers/realms/bank/me`]) {
      expect((await fetch(url, { headers: { authorization: `Bearer ${forged}` } })).status, url).toBe(401);
    }
    await expect(jwtVerify(forged, jwks, { currentDate: h.clock.now() })).rejects.toThrow();
    expect((await h.request({ method: 'PUT', url: `/api/admin/customers/bank/oauth_clients/${jwtClient.id}`, payload: { jwt_access_token_seconds: 7200 } })).statusCode).toBe(422);
  });

  it('refuses a key rotation to a member who only views the realm', async () => {
    const viewer = await createMember(h, [{ key: 'realm_viewer', target: 'bank' }]);
    const before = await (await fetch(`${base}/realms/bank/oauth/jwks`)).json();
    const refused = await h.request({ method: 'POST', url: '/api/admin/customers/bank/signing_keys/rotate', token: viewer.token });
    expect(refused.statusCode).toBe(403);
    expect(await (await fetch(`${base}/realms/bank/oauth/jwks`)).json()).toEqual(before);
  });
});

describe('a realm with OpenID Connect off', () => {
  let h: Harness;
  let base: string;
  let registered: ClientFixture;

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    await createRealm(h, 'bank');
    registered = await createClient(h, 'bank', { scopes: ['public', 'openid'] });
    await createUser(h, { uid: 'bank' }, login.username);
  });
  afterAll(async () => { await h?.close(); });

  it('has no discovery document, keys or userinfo, and refuses the scope openid before a code', async () => {
    for (const path of ['/.well-known/openid-configuration', '/oauth/jwks', '/oauth/userinfo']) {
      expect((await fetch(`${base}/realms/bank${path}`)).status, path).toBe(404);
    }
    const metadata = await (await fetch(`${base}/.well-known/oauth-authorization-server/realms/bank`)).json();
    expect(metadata.scopes_supported).toEqual(['public', 'admin']);
    expect(metadata.jwks_uri).toBeUndefined();

    const url = new URL(`${base}/realms/bank/oauth/authorize`);
    url.search = new URLSearchParams({ response_type: 'code', client_id: registered.uid, redirect_uri: REDIRECT, scope: 'openid', state: 's' }).toString();
    const callback = await browse(new CookieJar(base), url.toString(), login, REDIRECT);
    expect(callback.searchParams.get('error')).toBe('invalid_scope');
    expect(callback.searchParams.get('code')).toBeNull();
  });
});
