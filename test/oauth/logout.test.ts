import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { rowsOf } from '../../src/db/rows.js';
import * as client from 'openid-client';
import { startHarness, type Harness } from '../helpers/harness.js';
import { listen } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { browse, CookieJar } from './browse.js';
import { createClient, createRealm, createUser, REDIRECT, USER_PASSWORD, type ClientFixture } from './fixtures.js';

const login = { username: 'ana@bank.test', password: USER_PASSWORD };
const AFTER_LOGOUT = 'https://app.example/signed-out';

/** Issue 31 item 6: RP-initiated logout and back-channel logout, with openid-client and a loopback listener as the client. */
describe('OpenID Connect logout', () => {
  let h: Harness;
  let base: string;
  let app: ClientFixture;
  let userId: number;
  let listener: http.Server;
  const received: string[] = [];

  beforeAll(async () => {
    listener = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => { body += chunk; });
      req.on('end', () => {
        received.push(new URLSearchParams(body).get('logout_token') ?? '');
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    // The listener is on loopback: allowed for this test only, as OUTBOUND_ALLOW_PRIVATE=1 allows it on a server.
    h = await startHarness({ OUTBOUND_ALLOW_PRIVATE: '1' });
    base = await listen(h);
    await createRealm(h, 'bank');
    await h.request({ method: 'PUT', url: '/api/admin/realms/bank', payload: { settings: { openid_connect_enabled: true } } });
    app = await createClient(h, 'bank', {
      scopes: ['openid'], post_logout_redirect_uris: [AFTER_LOGOUT],
      backchannel_logout_uri: `http://127.0.0.1:${(listener.address() as AddressInfo).port}/backchannel`,
    });
    userId = await createUser(h, { uid: 'bank' }, login.username);
  });
  afterAll(async () => {
    await h?.close();
    await new Promise((resolve) => listener.close(resolve));
  });

  async function signIn(jar = new CookieJar(base), credentials = login) {
    const config = await client.discovery(new URL(`${base}/realms/bank`), app.uid, undefined, client.ClientSecretPost(app.secret), { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
    const callback = await browse(jar, url.toString(), credentials, REDIRECT);
    return { config, jar, tokens: await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }) };
  }
  const me = async (token: string) => (await fetch(`${base}/api/customers/realms/bank/me`, { headers: { authorization: `Bearer ${token}` } })).status;

  /** The logout token the listener got for this sid, verified against the realm's keys. */
  async function logoutTokenFor(sid: string) {
    const jwks = createRemoteJWKSet(new URL(`${base}/realms/bank/oauth/jwks`));
    let found: Record<string, unknown> | undefined;
    await until(async () => {
      for (const token of received) {
        const { payload } = await jwtVerify(token, jwks, { issuer: `${base}/realms/bank`, audience: app.uid, typ: 'logout+jwt', currentDate: h.clock.now() });
        if (payload.sid === sid) found = payload;
      }
      return found !== undefined;
    }, 'the back-channel logout token', 15_000);
    return found!;
  }

  it('ends the session the ID token names, returns to the registered address with the state, and tells the client in the back channel', async () => {
    const { config, jar, tokens } = await signIn();
    const claims = tokens.claims()!;
    expect(config.serverMetadata().end_session_endpoint).toBe(`${base}/realms/bank/oauth/logout`);
    expect(config.serverMetadata().backchannel_logout_supported).toBe(true);
    const url = client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: AFTER_LOGOUT, state: 'bye' });
    const res = await jar.fetch(url.toString());
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${AFTER_LOGOUT}?state=bye`);
    expect(await me(tokens.access_token)).toBe(401);

    const logout = await logoutTokenFor(claims.sid as string);
    expect(logout).toMatchObject({ sub: claims.sub, events: { 'http://schemas.openid.net/event/backchannel-logout': {} } });
    expect(logout.nonce).toBeUndefined();
    expect(typeof logout.jti).toBe('string');
    expect(decodeProtectedHeader(received[0]).typ).toBe('logout+jwt');

    // The session is over: signing in again asks for the password.
    const again = await jar.fetch(client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 's' }).toString());
    expect(again.headers.get('location')).toMatch(/\/realms\/bank\/login\?/);
  });

  it('tells the client when the session ends any other way (an admin ends the user\'s sessions)', async () => {
    const { tokens } = await signIn();
    expect((await h.request({ method: 'DELETE', url: `/api/admin/customers/bank/users/${userId}/sessions` })).statusCode).toBe(204);
    expect((await logoutTokenFor(tokens.claims()!.sid as string)).sub).toBe(tokens.claims()!.sub);
  });

  it('does not tell the client of a session that had ended by itself before the user\'s sessions were ended', async () => {
    const expired = (await signIn()).tokens.claims()!.sid as string;
    // The user's sessions so far (this one) reach their end.
    await h.ctx.db.execute(sql`update realm_sessions set expires_at = ${new Date(h.clock.now().getTime() - 86_400_000).toISOString()}::timestamptz
      where user_id = ${userId} and revoked_at is null`);
    const live = (await signIn()).tokens.claims()!.sid as string;
    expect((await h.request({ method: 'DELETE', url: `/api/admin/customers/bank/users/${userId}/sessions` })).statusCode).toBe(204);
    await logoutTokenFor(live);
    await until(async () => rowsOf<{ n: number }>(await h.ctx.db.execute(sql`select count(*)::int as n from queue_tasks
      where queue = 'oidc-backchannel-logout' and failed_at is null`))[0].n === 0, 'every logout sent');
    expect(received.map((token) => decodeJwt(token).sid)).not.toContain(expired);
  });

  it('tells the client when the user is deleted: the logout token names the session and user that are gone', async () => {
    const doomed = await createUser(h, { uid: 'bank' }, 'doomed@bank.test');
    const { tokens } = await signIn(new CookieJar(base), { username: 'doomed@bank.test', password: login.password });
    expect((await h.request({ method: 'DELETE', url: `/api/admin/customers/bank/users/${doomed}` })).statusCode).toBe(204);
    const claims = tokens.claims()!;
    expect(await logoutTokenFor(claims.sid as string)).toMatchObject({ sub: claims.sub, aud: app.uid });
  });

  it('refuses a bad or foreign hint and an unregistered return address, ending nothing', async () => {
    const { tokens } = await signIn();
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /id_token_hint/],
      [{ id_token_hint: 'not.a.jwt' }, /id_token_hint/],
      [{ id_token_hint: `${tokens.id_token!.slice(0, -4)}AAAA` }, /id_token_hint/],
      [{ id_token_hint: tokens.id_token!, client_id: 'someone-else' }, /id_token_hint/],
      [{ id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'https://evil.example/' }, /post_logout_redirect_uri/],
    ];
    for (const [params, message] of cases) {
      const res = await fetch(`${base}/realms/bank/oauth/logout?${new URLSearchParams(params)}`, { redirect: 'manual' });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(await res.text()).toMatch(message);
    }
    expect(await me(tokens.access_token)).toBe(200);
  });

  it('checks a client\'s logout addresses', async () => {
    const res = await h.request({
      method: 'POST', url: '/api/admin/customers/bank/oauth_clients',
      payload: { name: 'Bad', redirect_uris: [REDIRECT], post_logout_redirect_uris: ['javascript:alert(1)'], backchannel_logout_uri: 'ftp://x' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field).sort()).toEqual(['backchannel_logout_uri', 'post_logout_redirect_uris']);
  });
});
