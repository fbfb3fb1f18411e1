import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/connect.js';
import { prepared } from '../db/prepared.js';
import { resolveSession } from '../realms/credential.js';
import type { Context } from '../context.js';
import { hashSecret, randomSecret } from '../security/secrets.js';
import { issuerOf } from './metadata.js';
import { pkceMethods, wellFormedPkceValue } from './pkce.js';
import type { Realm } from '../realms/realms.js';
import { DEFAULT_SCOPE, OFFLINE_ACCESS, OPENID_SCOPES, SCOPES } from './schema.js';
import { authorizationCodes, oauthClients } from '../tables/oauth.js';

export const CODE_LIFETIME_MS = 10 * 60_000;

export type AuthorizeQuery = Record<string, string | string[] | undefined>;

export type AuthorizeOutcome =
  /** The client cannot be trusted with a redirect: an error page, never a redirect. */
  | { kind: 'page'; problem: AuthorizeProblem }
  /** Back to the client, with a code or an RFC 6749 4.1.2.1 error. */
  | { kind: 'redirect'; location: string }
  /** No live realm session: the login page, which comes back here afterwards. */
  | { kind: 'login'; location: string };

/** What the error page says is wrong with the request, in the page's language (shared/html/messages.ts). */
export type AuthorizeProblem = 'authorizeNoClient' | 'authorizeUnknownClient' | 'authorizeNoRedirect' | 'authorizeUnknownRedirect' | 'logoutBadHint' | 'logoutUnknownRedirect';

const page = (problem: AuthorizeProblem): AuthorizeOutcome => ({ kind: 'page', problem });

const single = (value: string | string[] | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

function redirectTo(redirectUri: string, params: Record<string, string | undefined>): AuthorizeOutcome {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(key, value);
  return { kind: 'redirect', location: url.toString() };
}

/**
 * The scope granted, or null when one requested is unknown or not among the client's own (spec 5.2 rule 7); the
 * OpenID Connect scopes are known only where the realm enables it.
 */
function grantedScope(requested: string | undefined, clientScopes: string[], openidConnect: boolean): string | null {
  const scopes = [...new Set((requested ?? '').split(' ').filter(Boolean))];
  if (!scopes.length) scopes.push(DEFAULT_SCOPE);
  const known: readonly string[] = openidConnect ? [...SCOPES, ...OPENID_SCOPES] : SCOPES;
  // offline_access (refresh tokens) only where an admin listed it on the client: that listing is the consent.
  const allowed = (s: string) => known.includes(s) && (clientScopes.includes(s) || (!clientScopes.length && s !== OFFLINE_ACCESS));
  return scopes.every(allowed) ? scopes.join(' ') : null;
}

const PROMPTS = ['none', 'login', 'consent', 'select_account'];
const NONCE_LIMIT = 512;

/** An OpenID Connect request's own parameters (Core 3.1.2.1), or what is wrong with them. */
function openidRequest(query: AuthorizeQuery): { nonce: string | null; prompt: string | null; maxAge: number | null } | string {
  const nonce = single(query.nonce) ?? null;
  if (nonce !== null && (nonce.length > NONCE_LIMIT || /[^\x20-\x7e]/.test(nonce))) return `nonce must be at most ${NONCE_LIMIT} printable ASCII characters`;
  const prompts = (single(query.prompt) ?? '').split(' ').filter(Boolean);
  if (prompts.some((p) => !PROMPTS.includes(p))) return `prompt must be among ${PROMPTS.join(', ')}`;
  if (prompts.includes('none') && prompts.length > 1) return 'prompt=none cannot be combined with another value';
  const rawMaxAge = single(query.max_age);
  if (rawMaxAge !== undefined && !/^\d{1,9}$/.test(rawMaxAge)) return 'max_age must be a whole number of seconds';
  // consent and select_account ask nothing here: there is no consent screen, and a browser holds one session per realm.
  const prompt = prompts.includes('none') ? 'none' : prompts.includes('login') ? 'login' : null;
  return { nonce, prompt, maxAge: rawMaxAge === undefined ? null : Number(rawMaxAge) };
}

/** The authorize request's path and query without its prompt parameter. */
function withoutPrompt(path: string): string {
  const url = new URL(path, 'http://x');
  url.searchParams.delete('prompt');
  return url.pathname + url.search;
}

// Prepared, as the token endpoint's queries are: minting a code is as hot a path as exchanging one.
const clientByUid = (db: Db) => prepared(db, 'oauth_client_by_uid', (d, name) => d.select().from(oauthClients)
  .where(eq(oauthClients.uid, sql.placeholder('uid'))).prepare(name));

type Client = typeof oauthClients.$inferSelect;

/**
 * The client a request names, kept briefly in the credentials cache (tagged with its realm and
 * itself, which an update or removal drops) as credentials are: every authorize reads it.
 */
function clientOf(ctx: Context, uid: string): Promise<Client | undefined> {
  return ctx.caches.of<Client>('customers').getOrLoad(`client:${uid}`, ctx.clock.now(),
    async () => (await clientByUid(ctx.db).execute({ uid }))[0], (client) => [`realm:${client.realmId}`, `client:${client.id}`]);
}

const insertCode = (db: Db) => prepared(db, 'oauth_code_insert', (d, name) => {
  const text = (key: string) => sql`${sql.placeholder(key)}::text`;
  const at = (key: string) => sql`${sql.placeholder(key)}::timestamptz`;
  return d.insert(authorizationCodes).values({
    codeHash: sql.placeholder('codeHash'), clientId: sql.placeholder('clientId'), sessionId: sql.placeholder('sessionId'),
    redirectUri: sql.placeholder('redirectUri'), scope: sql.placeholder('scope'),
    codeChallenge: text('codeChallenge'), codeChallengeMethod: text('codeChallengeMethod'),
    nonce: text('nonce'), expiresAt: at('expiresAt'), createdAt: at('createdAt'),
  }).prepare(name);
});

/**
 * The authorization endpoint (spec 4.4, 5.2; RFC 6749 4.1.1, RFC 7636). `returnPath` is this request's
 * path and query, where the login page sends the user back once signed in.
 */
export async function authorize(
  ctx: Context, realm: Realm, query: AuthorizeQuery, sessionSecret: string | undefined, returnPath: string,
): Promise<AuthorizeOutcome> {
  const clientId = single(query.client_id);
  const redirectUri = single(query.redirect_uri);
  if (!clientId) return page('authorizeNoClient');
  const client = await clientOf(ctx, clientId);
  // A client of another realm is as unknown here as one that does not exist (spec 5.2 rule 10).
  if (!client || client.realmId !== realm.id) return page('authorizeUnknownClient');
  if (!redirectUri) return page('authorizeNoRedirect');
  if (!client.redirectUris.includes(redirectUri)) return page('authorizeUnknownRedirect');

  const state = single(query.state);
  const fail = (error: string, description: string) => redirectTo(redirectUri, {
    error, error_description: description, state, iss: issuerOf(ctx, realm),
  });
  const repeated = ['response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'nonce', 'prompt', 'max_age']
    .find((name) => Array.isArray(query[name]));
  if (repeated) return fail('invalid_request', `${repeated} is repeated`);

  const responseType = single(query.response_type);
  if (!responseType) return fail('invalid_request', 'response_type is missing');
  if (responseType !== 'code') return fail('unsupported_response_type', 'only response_type=code is supported');

  const scope = grantedScope(single(query.scope), client.scopes, realm.openidConnectEnabled);
  if (!scope) return fail('invalid_scope', 'a requested scope is unknown or not allowed for this application');
  const openid = scope.split(' ').includes('openid');
  const oidc = openid ? openidRequest(query) : null;
  if (typeof oidc === 'string') return fail('invalid_request', oidc);

  const challenge = single(query.code_challenge);
  let method = single(query.code_challenge_method);
  if (method !== undefined && !challenge) return fail('invalid_request', 'code_challenge_method without code_challenge');
  if (challenge) {
    method ??= 'S256';
    if (!pkceMethods(realm.pkcePlainAllowed).includes(method)) {
      return fail('invalid_request', `code_challenge_method ${method} is not supported; use ${pkceMethods(realm.pkcePlainAllowed).join(' or ')}`);
    }
    if (!wellFormedPkceValue(challenge)) return fail('invalid_request', 'code_challenge must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
  }
  // OpenID Connect for a public client: the code must be bound to its PKCE verifier (RFC 9700 2.1.1).
  if (openid && !client.confidential && method !== 'S256') return fail('invalid_request', 'a public client must send a code_challenge with the method S256');

  const loginThen = (path: string) => ({ kind: 'login', location: `/realms/${encodeURIComponent(realm.uid)}/login?redirect_uri=${encodeURIComponent(path)}` } as const);
  const now = ctx.clock.now();
  // No live session of an active user: sign in first (the login page comes back here).
  const found = await resolveSession(ctx, realm.uid, sessionSecret);
  const customer = found?.resolution;
  if (typeof customer !== 'object') return oidc?.prompt === 'none' ? fail('login_required', 'no user is signed in') : loginThen(returnPath);
  const session = customer.session;
  if (oidc && (oidc.prompt === 'login' || (oidc.maxAge !== null && now.getTime() - customer.session.createdAt.getTime() > oidc.maxAge * 1000))) {
    if (oidc.prompt === 'none') return fail('login_required', 'the user signed in longer ago than max_age allows');
    // Signing in again makes a new session, which satisfies max_age; prompt=login is dropped so as not to ask twice.
    return loginThen(withoutPrompt(returnPath));
  }

  const code = randomSecret();
  await insertCode(ctx.db).execute({
    codeHash: hashSecret(code),
    clientId: client.id,
    sessionId: session.id,
    redirectUri,
    scope,
    codeChallenge: challenge ?? null,
    codeChallengeMethod: challenge ? method! : null,
    nonce: oidc?.nonce ?? null,
    expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS).toISOString(),
    createdAt: now.toISOString(),
  });
  return redirectTo(redirectUri, { code, state, iss: issuerOf(ctx, realm) });
}
