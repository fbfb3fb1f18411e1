import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomSecret, safeEqual } from '../../security/secrets.js';

/**
 * Double-submit CSRF protection of the realm pages' forms: a random token in a short-lived HttpOnly
 * cookie scoped to the realm's pages, repeated in a hidden field, compared in constant time.
 */
// Outside the atrium_realm_<uid> names of session cookies, so that no realm uid can collide with it.
export const CSRF_COOKIE = 'atrium_csrf';
export const CSRF_FIELD = 'csrf_token';
const CSRF_MINUTES = 60;
const WELL_FORMED = /^[A-Za-z0-9_-]{43}$/;

const cookiePath = (realmUid: string) => `/realms/${realmUid}`;

/** The token for a form: the browser's current one (so that two open tabs both work), or a new one; `path`: a site's pages. */
export function issueCsrfToken(request: FastifyRequest, reply: FastifyReply, realmUid: string, secure: boolean, path = cookiePath(realmUid)): string {
  const current = request.cookies[CSRF_COOKIE];
  const token = current && WELL_FORMED.test(current) ? current : randomSecret();
  reply.setCookie(CSRF_COOKIE, token, { path, httpOnly: true, sameSite: 'lax', secure, maxAge: CSRF_MINUTES * 60 });
  return token;
}

/** Whether the form's token matches the cookie's. */
export function csrfMatches(request: FastifyRequest, formToken: unknown): boolean {
  const cookie = request.cookies[CSRF_COOKIE];
  return typeof formToken === 'string' && !!cookie && WELL_FORMED.test(cookie) && safeEqual(cookie, formToken);
}
