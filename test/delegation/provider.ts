import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';
import { CookieJar } from '../helpers/cookie-jar.js';

/**
 * A real OpenID Connect provider (node-oidc-provider) on a loopback port, with its development
 * login and consent pages. The test may rewrite the next token answer (to hand Atrium a forged ID
 * token) and counts the token requests it served.
 */

export const CLIENT_ID = 'atrium-realm';
export const CLIENT_SECRET = 'a client secret long enough for oidc-provider 1234567890';
/** Seconds an access token of the provider lives (Atrium refreshes it on its own clock). */
export const ACCESS_TOKEN_TTL = 600;

export interface Account {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  preferred_username?: string;
  employee_number?: string;
}

export interface TestProvider {
  issuer: string;
  /** Accounts by login name; an unlisted login gets `{}` (only a `sub`). */
  accounts: Record<string, Account>;
  /** The next answer of the token endpoint goes through this first. */
  rewriteNextTokenAnswer(change: (body: Record<string, unknown>) => Record<string, unknown>): void;
  tokenRequests: number;
  /** An ID token signed with the provider's key (or `foreignKey`), with these claims over sane defaults valid at `now`. */
  idToken(claims: Record<string, unknown>, options: { now: Date; foreignKey?: boolean }): Promise<string>;
  userinfo(accessToken: string): Promise<Response>;
  close(): Promise<void>;
}

export async function startProvider(redirectUris: string[]): Promise<TestProvider> {
  const own = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...await exportJWK(own.privateKey), kid: 'key-1', alg: 'RS256', use: 'sig' };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts: Record<string, Account> = {};

  const provider = new Provider(issuer, {
    clients: [{
      client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: redirectUris,
      grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
    }],
    jwks: { keys: [jwk] },
    findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id, ...accounts[id] }) }),
    claims: {
      openid: ['sub'], email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'preferred_username', 'employee_number'],
    },
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    issueRefreshToken: async () => true,
    ttl: { AccessToken: ACCESS_TOKEN_TTL, IdToken: 7200, RefreshToken: 86_400, Grant: 86_400, Session: 86_400, Interaction: 3600 },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
  });
  const handle = provider.callback();
  let rewrite: ((body: Record<string, unknown>) => Record<string, unknown>) | null = null;
  const state = { tokenRequests: 0 };

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.method === 'POST' && req.url?.startsWith('/token')) {
      state.tokenRequests++;
      const change = rewrite;
      rewrite = null;
      if (change) {
        // Koa ends the answer with its whole JSON body: rewritten here, the length set again.
        const end = res.end.bind(res) as (chunk: unknown) => http.ServerResponse;
        res.end = ((chunk: unknown) => {
          const body = JSON.stringify(change(JSON.parse(String(chunk))));
          res.setHeader('content-length', Buffer.byteLength(body));
          return end(body);
        }) as typeof res.end;
      }
    }
    void handle(req, res);
  });

  return {
    issuer,
    accounts,
    rewriteNextTokenAnswer: (change) => { rewrite = change; },
    get tokenRequests() { return state.tokenRequests; },
    set tokenRequests(value: number) { state.tokenRequests = value; },
    idToken: async (claims, options) => {
      const now = Math.floor(options.now.getTime() / 1000);
      return new SignJWT({ iss: issuer, aud: CLIENT_ID, sub: 'forged', iat: now, exp: now + 600, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'key-1' })
        .sign(options.foreignKey ? foreign.privateKey : own.privateKey);
    },
    userinfo: (accessToken) => fetch(`${issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } }),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/**
 * A browser at the provider: follows its redirects and fills its development login (any login name)
 * and consent pages, until the provider sends the browser back to the relying party. Answers that
 * address (the callback with `code`, or with `error`).
 */
export async function signInAtProvider(jar: CookieJar, start: string, login: string, options: { deny?: boolean } = {}): Promise<string> {
  const origin = new URL(jar.base).origin;
  let url = start;
  for (let step = 0; step < 20; step++) {
    const res = await jar.fetch(url);
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url).href;
      if (new URL(next).origin !== origin) return next;
      url = next;
      continue;
    }
    const page = await res.text();
    if (res.status !== 200) throw new Error(`the provider answered ${res.status}: ${page.slice(0, 300)}`);
    const action = new URL(/<form[^>]*action="([^"]+)"/.exec(page)![1].replace(/&amp;/g, '&'), url);
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (options.deny) {
      const abort = /href="([^"]*\/abort[^"]*)"/.exec(page)?.[1];
      url = new URL(abort!.replace(/&amp;/g, '&'), url).href;
      continue;
    }
    const fields: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt: prompt ?? 'consent' };
    const posted = await jar.post(action.href, fields);
    if (posted.status < 300 || posted.status >= 400) throw new Error(`the provider's ${prompt} form answered ${posted.status}`);
    const next = new URL(posted.headers.get('location')!, action).href;
    if (new URL(next).origin !== origin) return next;
    url = next;
  }
  throw new Error('the provider did not send the browser back');
}
