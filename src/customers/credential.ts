import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Context } from '../context.js';
import { realmNotFound, sessionExpired, userNotFound } from '../errors/index.js';
import { findActiveRealm, onBaseHost, onCustomDomain, type Realm } from '../realms/realms.js';
import { bearerOf } from '../http/bearer.js';
import { rememberedTokenCustomer, resolveRealmToken, resolveToken } from '../oauth/credential.js';
import { rememberedSessionCustomer, resolveSession, type Customer, type Resolution } from '../realms/credential.js';
import { realmCookieName } from '../realms/sessions.js';

export type { Customer } from '../realms/credential.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `realm`: a customers route that needs no credential (verify_otp_code) gets only its realm. */
    customerAccess?: 'realm';
  }
  interface FastifyRequest {
    /** Set on customers API routes: the user behind the credential. */
    customer: Customer | null;
    /** Set on every customers API route under /realms/{realm_uid}. */
    customerRealm: Realm | null;
    /** Set on profile API routes: the session making the request when the credential is its cookie (not a bearer token). */
    cookieSessionId: number | null;
  }
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
    const found = await resolveRealmToken(ctx, realmUid, presented.bearer);
    if (!found) return undefined;
    if (found.resolution) return { realm: found.realm, resolution: found.resolution };
  }
  return resolveSession(ctx, realmUid, presented.cookie);
}

/** `resolveCustomer`'s live customer when the cache alone tells, by the same precedence (a bearer token decides alone). */
function rememberedCustomerOf(ctx: Context, realmUid: string, presented: Presented): Customer | undefined {
  if (presented.bearer) return rememberedTokenCustomer(ctx, realmUid, presented.bearer);
  return presented.cookie ? rememberedSessionCustomer(ctx, realmUid, presented.cookie) : undefined;
}

export function throwUnlessCustomer(resolution: Resolution): Customer {
  if (resolution === 'user_session') throw userNotFound();
  if (resolution === 'grant_expired') throw sessionExpired();
  return resolution;
}

/**
 * The customers API guard (onRequest of the customers catalog): it answers at BASE_URL only (spec 4.4);
 * every route with a `realm_uid` parameter gets its realm (404 `{}` when unknown or inactive) and the
 * user behind the credential (401 otherwise), except a route whose `config.customerAccess` is `realm`.
 */
export function customerGuard(ctx: Context) {
  const fullGuard = async (request: FastifyRequest): Promise<void> => {
    if (await onCustomDomain(ctx, request)) throw realmNotFound();
    if (request.is404 || request.routeOptions.config.access === 'public') return;
    // Every other route names its realm (requireRealmParameter refused any that does not at start-up).
    const realmUid = (request.params as { realm_uid: string }).realm_uid;
    if (request.routeOptions.config.customerAccess === 'realm') {
      request.customerRealm = await findActiveRealm(ctx, realmUid) ?? null;
      if (!request.customerRealm) throw realmNotFound();
      return;
    }
    const found = await resolveCustomer(ctx, realmUid, { bearer: bearerOf(request), cookie: request.cookies[realmCookieName(realmUid)] });
    if (!found) throw realmNotFound();
    request.customerRealm = found.realm;
    request.customer = throwUnlessCustomer(found.resolution);
  };
  // A callback hook, so that a request whose customer the cache holds goes on at once: most customers API requests
  // are of a recent credential, and the awaits of the full guard were a sixth of such a request's time.
  return function guard(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
    request.customer = null;
    request.customerRealm = null;
    const { config } = request.routeOptions;
    if (onBaseHost(ctx, request) && !request.is404 && config.access !== 'public' && config.customerAccess !== 'realm') {
      const realmUid = (request.params as { realm_uid: string }).realm_uid;
      const customer = rememberedCustomerOf(ctx, realmUid, { bearer: bearerOf(request), cookie: request.cookies[realmCookieName(realmUid)] });
      if (customer) {
        request.customerRealm = customer.realm;
        request.customer = customer;
        return done();
      }
    }
    fullGuard(request).then(() => done(), done);
  };
}

/** The realm of a customers route; the guard has already refused requests without one. */
export function customerRealmOf(request: FastifyRequest): Realm {
  if (!request.customerRealm) throw realmNotFound();
  return request.customerRealm;
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
export async function resolveProfileCustomer(ctx: Context, request: FastifyRequest): Promise<{ customer: Customer; viaCookie: boolean }> {
  const bearer = bearerOf(request);
  if (bearer) {
    const found = await resolveToken(ctx, bearer);
    if (found) return { customer: throwUnlessCustomer(found.resolution), viaCookie: false };
  }
  const named = (request.query as { realm_uid?: unknown } | undefined)?.realm_uid;
  const sent = Object.keys(request.cookies).filter((name) => name.startsWith(REALM_COOKIE_PREFIX) && request.cookies[name]);
  const realmUid = typeof named === 'string' && named ? named : sent.length === 1 ? sent[0].slice(REALM_COOKIE_PREFIX.length) : undefined;
  if (realmUid === undefined) throw userNotFound();
  const found = await resolveCustomer(ctx, realmUid, { cookie: request.cookies[realmCookieName(realmUid)] });
  if (!found) throw realmNotFound();
  return { customer: throwUnlessCustomer(found.resolution), viaCookie: true };
}

/**
 * Checks, as each customers route is registered, that it acts for the user of a realm its path names
 * (`/realms/:realm_uid/...`), or says it is public (the reference page): the guard then never lets a route
 * through for lack of a realm. Start-up fails otherwise.
 */
export function requireRealmParameter(route: RouteOptions): void {
  if (route.config?.access === 'public' || route.url.includes(':realm_uid')) return;
  throw new Error(`${[route.method].flat().join(',')} ${route.url} names no realm (/realms/:realm_uid/...) and is not public (config.access)`);
}

/** The profile catalog's guard: every operation acts for the signed-in realm user. */
export function profileGuard(ctx: Context) {
  return async function guard(request: FastifyRequest): Promise<void> {
    request.customer = null;
    request.customerRealm = null;
    request.cookieSessionId = null;
    if (request.is404 || request.routeOptions.config.access === 'public') return;
    const { customer, viaCookie } = await resolveProfileCustomer(ctx, request);
    request.customer = customer;
    request.customerRealm = customer.realm;
    request.cookieSessionId = viaCookie ? customer.session.id : null;
  };
}
