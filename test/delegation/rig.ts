import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../../src/app.js';
import { rowsOf } from '../../src/db/rows.js';
import { CookieJar } from '../helpers/cookie-jar.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { makeRealm } from '../helpers/realms.js';
import { CLIENT_ID, CLIENT_SECRET, signInAtProvider, startProvider, type TestProvider } from './provider.js';

/**
 * What the delegated sign-in tests share: Atrium on a real port (logging into `lines`), an
 * oidc-provider on another, realms of several activation modes with the provider set up, and a
 * browser's moves. Bindings are live: read them once `useRig()`'s beforeAll has run.
 */

export const REALMS = { direct: 'idp-direct', moderated: 'idp-moderated', invitation: 'idp-invitation', strict: 'idp-strict' } as const;

export let h: Harness;
export let base: string;
export let idp: TestProvider;
let app: FastifyInstance;
/** Every line the server the browsers use logged. */
export const lines: string[] = [];
export const warnings = () => lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40);
/** The provider's access tokens /me answered, to look for in the log. */
export const seen = new Set<string>();

export function useRig(): void {
  beforeAll(async () => {
    // The provider listens on loopback: reaching it needs the setting of a development machine.
    h = await startHarness({ OUTBOUND_ALLOW_PRIVATE: '1' });
    // The browsers' server logs through its own logger, kept here: what it says of a refusal, and that it never holds a token.
    const sink = new Writable({ write(chunk, _encoding, done) { lines.push(...String(chunk).trim().split('\n')); done(); } });
    const logger = pino({ level: 'info' }, sink) as unknown as FastifyBaseLogger;
    // Its `db` stays a getter of the harness's, which follows the request transaction of an admin write.
    app = await buildApp({ ...h.ctx, log: logger, get db() { return h.ctx.db; } }, { logger });
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
}

/** A browser: one cookie jar for Atrium, one for the provider. */
export const browser = () => ({ atrium: new CookieJar(base), provider: new CookieJar(idp.issuer) });
export type Browser = ReturnType<typeof browser>;

/** Starts a delegated sign-in; answers the provider's authorization address. */
export async function start(b: Browser, realm: string, redirectUri?: string): Promise<URL> {
  const res = await b.atrium.fetch(`/realms/${realm}/delegated_login${redirectUri ? `?${new URLSearchParams({ redirect_uri: redirectUri })}` : ''}`);
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!);
}

/** Starts and signs in at the provider; answers the callback address the provider sends the browser to. */
export async function toCallback(b: Browser, realm: string, login: string, redirectUri?: string): Promise<{ callback: string; authorization: URL }> {
  const authorization = await start(b, realm, redirectUri);
  return { callback: await signInAtProvider(b.provider, authorization.href, login), authorization };
}

export const sessionCookie = (b: Browser, realm: string) => b.atrium.get(`atrium_realm_${realm}`)?.value;

export async function me(b: Browser, realm: string) {
  const res = await b.atrium.fetch(`/api/customers/realms/${realm}/me`);
  expect(res.status).toBe(200);
  const body = await res.json();
  if (body.delegated_token) seen.add(body.delegated_token.access_token);
  return body;
}

/** What a sign-in writes, to show that a refused one wrote nothing. */
export async function written() {
  const count = async (table: string) => rowsOf<{ n: number }>(await h.ctx.db.execute(sql.raw(`select count(*)::int as n from ${table}`)))[0].n;
  return {
    users: await count('realm_users'), sessions: await count('realm_sessions'), identities: await count('realm_user_identities'),
    tokens: await count('delegated_tokens'), states: await count('used_delegation_states'), events: await count('business_events'),
  };
}

/** The log holds requests, and neither the client secret, a provider access token /me showed, nor a code. */
export function expectNothingSecretLogged(): void {
  const all = lines.join('\n');
  expect(lines.length).toBeGreaterThan(30);
  for (const secret of [CLIENT_SECRET, ...seen]) expect(all).not.toContain(secret);
  expect(all).not.toMatch(/[?&]code=[\w-]{10,}/);
}

/** The flow cookie of one browser handed to another, as an attacker who copied it would. */
export function withFlowCookie(value: string): Browser {
  const b = browser();
  const path = `/realms/${REALMS.direct}/delegated_login`;
  b.atrium.cookies.set(`atrium_delegation|${path}`, { value, path, httpOnly: true, sameSite: 'Lax', secure: false });
  return b;
}
