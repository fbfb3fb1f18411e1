import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { bearerOf } from '../http/bearer.js';
import { forbidden, secondFactorEnrolment, unauthorized } from '../errors/index.js';
import { principalFromSession, principalFromToken, rememberedTokenPrincipal } from './credential.js';
import type { Permission } from './permissions.js';
import { assertMaySeePersonalData } from './personal-data.js';
import type { AdminPrincipal } from './principal.js';

export const ADMIN_SESSION_COOKIE = 'atrium_admin';
export const CSRF_HEADER = 'x-csrf-token';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What an admin route needs: a permission, `signed-in` (any valid credential) or `public`.
     * Every admin route states one, hidden routes too: start-up fails on a route that states none (access-rules.ts).
     */
    access?: Permission | 'signed-in' | 'public';
    /** The path parameter naming the realm or space a targeted role must match. */
    target?: string;
    /** The answer shows a realm user's data: the member needs realm.users.read on the target too (personal-data.ts). */
    personal?: boolean;
    /** A session that must set up a second factor first (the account requires one) may call this route: its own session and enrolment. */
    enrolment?: boolean;
  }
  interface FastifyRequest {
    admin: AdminPrincipal | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Resolves the admin credential of every request in the admin catalog and enforces the route's
 * `access`. A bearer token, when present, is evaluated first and alone (spec 5.1).
 */
export async function authenticate(ctx: Context, request: FastifyRequest): Promise<AdminPrincipal> {
  // Any Authorization header decides alone: one that is not a well-formed bearer token is refused.
  if (request.headers.authorization) {
    const token = bearerOf(request);
    const principal = token ? await principalFromToken(ctx, token) : null;
    if (!principal) throw unauthorized('Invalid access token');
    return principal;
  }
  const sessionId = request.cookies[ADMIN_SESSION_COOKIE];
  if (!sessionId) throw unauthorized('Not authenticated: send an access token or sign in');
  const session = await principalFromSession(ctx, sessionId);
  if (!session) throw unauthorized('Your session has ended: sign in again');
  if (!SAFE_METHODS.has(request.method)) {
    const header = request.headers[CSRF_HEADER];
    if (!session.csrfMatches(typeof header === 'string' ? header : undefined)) {
      throw forbidden(`Missing or wrong ${CSRF_HEADER} header`);
    }
  }
  if (session.enrolmentOnly && !request.routeOptions.config.enrolment) throw secondFactorEnrolment();
  return session.principal;
}

/** The route's `access` (and `target`, `personal`) held against the member who acts. */
function authorize(request: FastifyRequest, principal: AdminPrincipal): void {
  const { access, target, personal } = request.routeOptions.config;
  request.admin = principal;
  if (access === 'signed-in' || access === 'public') return;
  const targetValue = target ? (request.params as Record<string, string>)[target] : undefined;
  // A route without a target in its path (a list across realms, say) lets any role carrying the
  // permission through; the operation narrows what it answers with `targetsOf`.
  if (!access) throw forbidden();
  principal.assertHolds(access, targetValue);
  if (personal) assertMaySeePersonalData(principal, targetValue ?? null);
}

export function adminGuard(ctx: Context) {
  const fullGuard = async (request: FastifyRequest): Promise<void> => authorize(request, await authenticate(ctx, request));
  // A callback hook, so that a request with a bearer token the cache holds goes on at once, as the customers guard does.
  return function guard(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
    request.admin = null;
    if (request.is404 || request.routeOptions.config.access === 'public') return done();
    const token = request.headers.authorization ? bearerOf(request) : undefined;
    const remembered = token ? rememberedTokenPrincipal(ctx, token) : undefined;
    if (!remembered) {
      fullGuard(request).then(() => done(), done);
      return;
    }
    try {
      authorize(request, remembered);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
}

/** The principal of a guarded route; the guard has already refused requests without one. */
export function adminOf(request: FastifyRequest): AdminPrincipal {
  if (!request.admin) throw unauthorized();
  return request.admin;
}

/** The context an admin route hands its operation: who acts is part of it (kept in http/, for the audit log's route). */
export { acting } from '../http/acting.js';
