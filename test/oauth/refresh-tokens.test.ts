import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { startHarness, type Harness } from '../helpers/harness.js';
import { listen } from '../helpers/server.js';
import { browse, CookieJar } from './browse.js';
import { createClient, createRealm, createUser, REDIRECT, USER_PASSWORD, type ClientFixture } from './fixtures.js';

const login = { username: 'ana@bank.test', password: USER_PASSWORD };

/** Issue 31 item 4: refresh tokens bound to the session, rotated on every use, a reuse revoking the family (RFC 9700 4.14). */
describe('refresh tokens of a realm with OpenID Connect', () => {
  let h: Harness;
  let base: string;
  let offline: ClientFixture;
  let online: ClientFixture;
  let userId: number;

  beforeAll(async () => {
    h = await startHarness();
    base = await listen(h);
    await createRealm(h, 'bank');
    await h.request({ method: 'PUT', url: '/api/admin/realms/bank', payload: { settings: { openid_connect_enabled: true } } });
    offline = await createClient(h, 'bank', { scopes: ['openid', 'offline_access'], refresh_token_lifetime_seconds: 3000, refresh_token_idle_seconds: 1200 });
    online = await createClient(h, 'bank', {});
    userId = await createUser(h, { uid: 'bank' }, login.username);
  });
  afterAll(async () => { await h?.close(); });

  const configOf = (fixture: ClientFixture) => client.discovery(
    new URL(`${base}/realms/bank`), fixture.uid, undefined, client.ClientSecretPost(fixture.secret), { execute: [client.allowInsecureRequests] },
  );

  /** Signs in through the login page and exchanges the code; answers the token response. */
  async function signIn(fixture: ClientFixture, scope = 'openid offline_access') {
    const config = await configOf(fixture);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT, scope, state, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    const callback = await browse(new CookieJar(base), url.toString(), login, REDIRECT);
    if (callback.searchParams.get('error')) return { config, error: callback.searchParams.get('error') };
    return { config, tokens: await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }) };
  }

  const refresh = (fixture: ClientFixture, refreshToken: string) => fetch(`${base}/realms/bank/oauth/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: fixture.uid, client_secret: fixture.secret }),
  });
  const me = async (accessToken: string) => (await fetch(`${base}/api/customers/realms/bank/me`, { headers: { authorization: `Bearer ${accessToken}` } })).status;

  it('grants offline_access only to a client that lists it', async () => {
    expect((await signIn(online)).error).toBe('invalid_scope');
    const { tokens } = await signIn(online, 'openid');
    expect(tokens!.refresh_token).toBeUndefined();
  });

  it('rotates the refresh token on every use, and a reused one revokes the family and its access tokens', async () => {
    const { config, tokens } = await signIn(offline);
    expect(tokens!.refresh_token).toMatch(/^[\w-]{43}$/);
    const first = tokens!.refresh_token!;
    const refreshed = await client.refreshTokenGrant(config, first);
    expect(refreshed.refresh_token).not.toBe(first);
    expect(refreshed.access_token).not.toBe(tokens!.access_token);
    expect(refreshed.claims()).toMatchObject({ iss: `${base}/realms/bank`, aud: offline.uid, auth_time: tokens!.claims()!.auth_time });
    expect(await me(refreshed.access_token)).toBe(200);

    const replayed = await refresh(offline, first);
    expect(replayed.status).toBe(400);
    expect((await replayed.json()).error).toBe('invalid_grant');
    // The whole family is gone: the newest refresh token and every access token it issued.
    expect((await refresh(offline, refreshed.refresh_token!)).status).toBe(400);
    expect(await me(refreshed.access_token)).toBe(401);
    expect(await me(tokens!.access_token)).toBe(401);
  });

  it('revokes the family a code started when the code is replayed', async () => {
    const config = await configOf(offline);
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT, scope: 'openid offline_access', state: 's', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    const code = (await browse(new CookieJar(base), url.toString(), login, REDIRECT)).searchParams.get('code')!;
    const exchange = () => fetch(`${base}/realms/bank/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: offline.uid, client_secret: offline.secret }),
    });
    const first = await exchange();
    expect(first.status).toBe(200);
    const tokens = await first.json();
    expect((await exchange()).status).toBe(400);
    expect((await refresh(offline, tokens.refresh_token)).status).toBe(400);
    expect(await me(tokens.access_token)).toBe(401);
  });

  it('lets exactly one of 20 concurrent refreshes with one token through, then revokes the family', async () => {
    const { tokens } = await signIn(offline);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refresh(offline, tokens!.refresh_token!)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    const winner = await answers[statuses.indexOf(200)].json();
    expect((await refresh(offline, winner.refresh_token)).status).toBe(400);
    expect(await me(winner.access_token)).toBe(401);
  });

  it('ends with the session, and with its idle and absolute lifetimes', async () => {
    const ended = await signIn(offline);
    const sessions = await h.request({ method: 'DELETE', url: `/api/admin/customers/bank/users/${userId}/sessions` });
    expect(sessions.statusCode).toBe(204);
    const afterEnd = await refresh(offline, ended.tokens!.refresh_token!);
    expect(afterEnd.status).toBe(400);
    expect((await afterEnd.json()).error_description).toMatch(/session/);

    const idle = await signIn(offline);
    h.clock.advance(1201_000);
    expect((await refresh(offline, idle.tokens!.refresh_token!)).status).toBe(400);

    // Used within the idle lifetime, the family lives to its absolute end, renewing the session (120 minutes) meanwhile.
    const kept = await signIn(offline);
    let current = kept.tokens!.refresh_token!;
    for (let step = 0; step < 2; step++) {
      h.clock.advance(1100_000);
      const res = await refresh(offline, current);
      expect(res.status).toBe(200);
      current = (await res.json()).refresh_token;
    }
    h.clock.advance(1100_000);
    const past = await refresh(offline, current);
    expect(past.status).toBe(400);
    expect((await past.json()).error_description).toMatch(/expired/);
  });

  it('renews the session on each refresh, so that an app refreshing stays signed in past the session\'s first lifetime', async () => {
    const longLived = await createClient(h, 'bank', { scopes: ['openid', 'offline_access'] });
    const { tokens } = await signIn(longLived);
    h.clock.advance(100 * 60_000);
    const first = await refresh(longLived, tokens!.refresh_token!);
    expect(first.status).toBe(200);
    // 200 minutes after the sign-in: the session (120 minutes) lives on from the refresh at 100.
    h.clock.advance(100 * 60_000);
    const second = await refresh(longLived, (await first.json()).refresh_token);
    expect(second.status).toBe(200);
    expect(await me((await second.json()).access_token)).toBe(200);
  });

  it('spends nothing on a refused refresh (a wrong secret, a wider scope), and gives a narrower scope to the new access token alone', async () => {
    const { tokens } = await signIn(offline);
    const form = (fields: Record<string, string>) => fetch(`${base}/realms/bank/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens!.refresh_token!, client_id: offline.uid, client_secret: offline.secret, ...fields }),
    });
    const wrongSecret = await form({ client_secret: 'wrong' });
    expect([wrongSecret.status, (await wrongSecret.json()).error]).toEqual([401, 'invalid_client']);
    expect((await (await form({ scope: 'openid profile' })).json()).error).toBe('invalid_scope');
    expect((await (await form({ scope: ' ' })).json()).error).toBe('invalid_scope');

    const narrower = await form({ scope: 'offline_access' });
    expect(narrower.status).toBe(200);
    const body = await narrower.json();
    expect(body.scope).toBe('offline_access');
    expect(body.id_token).toBeUndefined();
    // The family keeps the scope granted: its next refresh may ask for openid again.
    const again = await refresh(offline, body.refresh_token);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ scope: 'openid offline_access', id_token: expect.any(String) });
  });

  it('rotates the refresh tokens of a client whose access tokens are JWTs, each new access token a JWT', async () => {
    const jwtClient = await createClient(h, 'bank', { scopes: ['openid', 'offline_access'], jwt_access_token_seconds: 300 });
    const { tokens } = await signIn(jwtClient);
    expect(tokens!.expires_in).toBe(300);
    const res = await refresh(jwtClient, tokens!.refresh_token!);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ expires_in: 300, refresh_token: expect.stringMatching(/^[\w-]{43}$/) });
    expect(JSON.parse(Buffer.from(body.access_token.split('.')[0], 'base64url').toString())).toMatchObject({ typ: 'at+jwt' });
    expect(await me(body.access_token)).toBe(200);
    expect((await refresh(jwtClient, tokens!.refresh_token!)).status).toBe(400);
    expect(await me(body.access_token)).toBe(401);
  });

  it('refuses another client\'s refresh token, a scope wider than granted, and any token where the realm has OpenID Connect off', async () => {
    const { tokens } = await signIn(offline);
    const stolen = await refresh(online, tokens!.refresh_token!);
    expect(stolen.status).toBe(400);
    expect((await stolen.json()).error).toBe('invalid_grant');
    const wider = await fetch(`${base}/realms/bank/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens!.refresh_token!, client_id: offline.uid, client_secret: offline.secret, scope: 'openid public' }),
    });
    expect((await wider.json()).error).toBe('invalid_scope');

    await h.request({ method: 'PUT', url: '/api/admin/realms/bank', payload: { settings: { openid_connect_enabled: false } } });
    try {
      const off = await refresh(offline, tokens!.refresh_token!);
      expect(off.status).toBe(400);
      expect((await off.json()).error).toBe('unsupported_grant_type');
    } finally {
      await h.request({ method: 'PUT', url: '/api/admin/realms/bank', payload: { settings: { openid_connect_enabled: true } } });
    }
  });

  it('checks the lifetimes a client is given', async () => {
    const res = await h.request({
      method: 'POST', url: '/api/admin/customers/bank/oauth_clients',
      payload: { name: 'Bad', redirect_uris: [REDIRECT], refresh_token_lifetime_seconds: 600, refresh_token_idle_seconds: 900 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'refresh_token_idle_seconds', messages: ['must not be longer than refresh_token_lifetime_seconds'] }]);
  });
});
