import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { prepared } from '../db/prepared.js';
import { AppError } from '../http/errors.js';
import { oauthAccessTokens } from '../oauth/tables.js';
import { findActiveRealm, onCustomDomain, type Realm } from '../realms/realms.js';
import { isLive, realmCookieName, renewSession, type LiveSession } from '../realms/sessions.js';
import { realmSessions, realmUsers, realms } from '../realms/tables.js';
import type { RealmUser } from '../realms/users.js';
import { hashSecret } from '../security/secrets.js';
import { bearerOf } from '../http/bearer.js';

/** Who a customers API request acts for: a live session of an active user of an active realm. */
export interface Customer {
  realm: Realm;
  user: RealmUser;
  session: LiveSession;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What a customers API route needs: `user` (the default) a live credential of a realm user,
     * `realm` only an active realm (verify_otp_code).
     */
    customerAccess?: 'user' | 'realm';
  }
  interface FastifyRequest {
    /** Set on customers API routes that need a user. */
    customer: Customer | null;
    /** Set on every customers API route under /realms/{realm_uid}. */
    customerRealm: Realm | null;
  }
}

// Spec 7 and the facts page: the exact bodies of the customers API's 404 and 401 answers.
export const REALM_NOT_FOUND_BODY = {};
export const USER_SESSION_BODY = { error: { user_session: 'user not found' } };
export const GRANT_EXPIRED_BODY = { error: { grant_expired: 'session expired' } };

export const realmNotFound = () => new AppError(404, ['Realm not found'], undefined, REALM_NOT_FOUND_BODY);
export const userNotFound = () => new AppError(401, ['user not found'], undefined, USER_SESSION_BODY);
export const sessionExpired = () => new AppError(401, ['session expired'], undefined, GRANT_EXPIRED_BODY);

/** What the credential lookup found: a live customer, or which of the two 401s applies. */
export type Resolution = Customer | 'user_session' | 'grant_expired';

interface Row {
  realm: Realm;
  session: LiveSession & { realmId: number } | null;
  user: RealmUser | null;
  tokenRevokedAt?: Date | null;
}

const sessionColumns = {
  id: realmSessions.id, userId: realmSessions.userId, realmId: realmSessions.realmId, expiresAt: realmSessions.expiresAt,
  revokedAt: realmSessions.revokedAt, impersonatorId: realmSessions.impersonatorId,
};

const selection = { realm: realms, session: sessionColumns, user: realmUsers };

/**
 * The realm with this uid, and in the same indexed query the access token (by its SHA-256 hash),
 * its session and user. A token of another realm's session is not recognized here.
 */
const realmWithToken = (db: Db) => prepared(db, 'customer_realm_token', (d, name) => d
  .select({ ...selection, tokenRevokedAt: oauthAccessTokens.revokedAt })
  .from(realms)
  .leftJoin(oauthAccessTokens, eq(oauthAccessTokens.tokenHash, sql.placeholder('hash')))
  .leftJoin(realmSessions, and(eq(realmSessions.id, oauthAccessTokens.sessionId), eq(realmSessions.realmId, realms.id)))
  .leftJoin(realmUsers, eq(realmUsers.id, realmSessions.userId))
  .where(eq(realms.uid, sql.placeholder('uid')))
  .prepare(name));

/** The realm with this uid, and in the same indexed query the session the cookie names, with its user. */
const realmWithCookie = (db: Db) => prepared(db, 'customer_realm_cookie', (d, name) => d
  .select(selection)
  .from(realms)
  .leftJoin(realmSessions, and(eq(realmSessions.sessionHash, sql.placeholder('hash')), eq(realmSessions.realmId, realms.id)))
  .leftJoin(realmUsers, eq(realmUsers.id, realmSessions.userId))
  .where(eq(realms.uid, sql.placeholder('uid')))
  .prepare(name));

/** A bearer token with its session, user and realm, wherever the realm: one indexed query. */
const tokenAnywhere = (db: Db) => prepared(db, 'customer_token', (d, name) => d
  .select({ ...selection, tokenRevokedAt: oauthAccessTokens.revokedAt })
  .from(oauthAccessTokens)
  .innerJoin(realmSessions, eq(realmSessions.id, oauthAccessTokens.sessionId))
  .innerJoin(realmUsers, eq(realmUsers.id, realmSessions.userId))
  .innerJoin(realms, eq(realms.id, realmSessions.realmId))
  .where(eq(oauthAccessTokens.tokenHash, sql.placeholder('hash')))
  .prepare(name));

const first = <T>(rows: T[]) => rows[0] as Row | undefined;

/** A credential's row from the cache when it was found before, otherwise from the database (then kept). */
async function remembered(ctx: Context, scope: string, secret: string, load: (hash: string) => Promise<Row | undefined>): Promise<Row | undefined> {
  const hash = hashSecret(secret);
  const key = `${scope}:${hash}`;
  const now = ctx.clock.now();
  const credentialRows = ctx.caches.of<Row>('customers');
  const cached = credentialRows.get(key, now);
  // Only the live path is sped up: a credential that looks dead is confirmed by the database, since
  // another process may have renewed its session meanwhile.
  if (cached?.session && isLive(cached.session, now) && !cached.tokenRevokedAt) return cached;
  const row = await load(hash);
  // Only credentials that were found are kept: garbage tokens must not fill the cache.
  if (row?.session) credentialRows.set(key, row, now);
  return row;
}

/** Applies spec 7 to a found session: inactive user first (user_session), then a dead grant. */
async function judge(ctx: Context, row: Row): Promise<Resolution> {
  if (!row.session || !row.user) return 'user_session';
  if (!row.user.active) return 'user_session';
  if (row.tokenRevokedAt || !isLive(row.session, ctx.clock.now())) return 'grant_expired';
  // Sliding expiry: a credential in use keeps its session alive.
  await renewSession(ctx, row.realm, row.session);
  return { realm: row.realm, user: row.user, session: row.session };
}

export interface Presented {
  /** The bearer token, when an Authorization: Bearer header was sent. */
  bearer?: string;
  /** The realm session cookie's value. */
  cookie?: string;
}

/**
 * Spec 5.2: a recognized bearer token decides alone (the cookie is not read); without one, the
 * realm session cookie. `undefined` when the realm is unknown or inactive.
 */
export async function resolveCustomer(ctx: Context, realmUid: string, presented: Presented): Promise<{ realm: Realm; resolution: Resolution } | undefined> {
  if (presented.bearer) {
    const row = await remembered(ctx, `token:${realmUid}`, presented.bearer,
      (hash) => realmWithToken(ctx.db).execute({ hash, uid: realmUid }).then(first));
    if (!row || !row.realm.active) return undefined;
    if (row.session) return { realm: row.realm, resolution: await judge(ctx, row) };
  }
  const row = presented.cookie
    ? await remembered(ctx, `cookie:${realmUid}`, presented.cookie, (hash) => realmWithCookie(ctx.db).execute({ hash, uid: realmUid }).then(first))
    : first(await realmWithCookie(ctx.db).execute({ hash: hashSecret(''), uid: realmUid }));
  if (!row || !row.realm.active) return undefined;
  return { realm: row.realm, resolution: presented.cookie ? await judge(ctx, row) : 'user_session' };
}

/**
 * A bearer token alone, wherever its realm: for the profile API, whose paths name no realm.
 * Undefined when the token is not one we issued.
 */
export async function resolveToken(ctx: Context, bearer: string): Promise<{ realm: Realm; resolution: Resolution } | undefined> {
  const row = first(await tokenAnywhere(ctx.db).execute({ hash: hashSecret(bearer) }));
  if (!row) return undefined;
  return { realm: row.realm, resolution: row.realm.active ? await judge(ctx, row) : 'user_session' };
}

export function throwUnlessCustomer(resolution: Resolution): Customer {
  if (resolution === 'user_session') throw userNotFound();
  if (resolution === 'grant_expired') throw sessionExpired();
  return resolution;
}

/**
 * The customers API guard (onRequest of the customers catalog): it answers at BASE_URL only (spec 4.4);
 * every route with a `realm_uid`
 * parameter gets its realm (404 `{}` when unknown or inactive) and, unless the route says
 * `customerAccess: 'realm'`, the user behind the credential (401 otherwise).
 */
export function customerGuard(ctx: Context) {
  return async function guard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    request.customer = null;
    request.customerRealm = null;
    if (await onCustomDomain(ctx, request)) throw realmNotFound();
    const realmUid = (request.params as { realm_uid?: string } | undefined)?.realm_uid;
    if (request.is404 || realmUid === undefined) return;
    if (request.routeOptions.config.customerAccess === 'realm') {
      const realm = await findActiveRealm(ctx, realmUid);
      if (!realm) throw realmNotFound();
      request.customerRealm = realm;
      return;
    }
    const found = await resolveCustomer(ctx, realmUid, { bearer: bearerOf(request), cookie: request.cookies[realmCookieName(realmUid)] });
    if (!found) throw realmNotFound();
    request.customerRealm = found.realm;
    request.customer = throwUnlessCustomer(found.resolution);
  };
}

/** The customer of a guarded route; the guard has already refused requests without one. */
export function customerOf(request: FastifyRequest): Customer {
  if (!request.customer) throw userNotFound();
  return request.customer;
}

const REALM_COOKIE_PREFIX = realmCookieName('');

/**
 * The profile API's credential: its paths name no realm. A bearer token names its realm itself;
 * otherwise the realm session cookie of the realm the `realm_uid` query names, or of the one realm
 * whose session cookie the browser sent.
 */
export async function resolveProfileCustomer(ctx: Context, request: FastifyRequest): Promise<Customer> {
  const bearer = bearerOf(request);
  if (bearer) {
    const found = await resolveToken(ctx, bearer);
    if (found) return throwUnlessCustomer(found.resolution);
  }
  const named = (request.query as { realm_uid?: unknown } | undefined)?.realm_uid;
  const sent = Object.keys(request.cookies).filter((name) => name.startsWith(REALM_COOKIE_PREFIX) && request.cookies[name]);
  const realmUid = typeof named === 'string' && named ? named : sent.length === 1 ? sent[0].slice(REALM_COOKIE_PREFIX.length) : undefined;
  if (realmUid === undefined) throw userNotFound();
  const found = await resolveCustomer(ctx, realmUid, { cookie: request.cookies[realmCookieName(realmUid)] });
  if (!found) throw realmNotFound();
  return throwUnlessCustomer(found.resolution);
}

/** The profile catalog's guard: every operation acts for the signed-in realm user. */
export function profileGuard(ctx: Context) {
  return async function guard(request: FastifyRequest): Promise<void> {
    request.customer = null;
    request.customerRealm = null;
    if (request.is404 || request.routeOptions.schema?.hide) return;
    request.customer = await resolveProfileCustomer(ctx, request);
    request.customerRealm = request.customer.realm;
  };
}
