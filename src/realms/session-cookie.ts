import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { resolveSession, type Customer } from './credential.js';
import { realmCookieName } from './sessions.js';
import { pageNotFound } from '../shared/html/layout.js';

export const secureCookies = (ctx: Context) => ctx.config.baseUrl.startsWith('https:');

/** Hands the browser a realm session: the cookie every realm page and the customers API read. */
export function setSessionCookie(ctx: Context, reply: FastifyReply, realmUid: string, secret: string): void {
  reply.setCookie(realmCookieName(realmUid), secret, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookies(ctx) });
}

/**
 * The signed-in user a profile page's request comes from, or undefined once the answer is sent: 404 for
 * an unknown realm, the login page (coming back to the profile) without a live session.
 */
export async function profileCustomer(ctx: Context, request: FastifyRequest, reply: FastifyReply, realmUid: string): Promise<Customer | undefined> {
  const found = await resolveSession(ctx, realmUid, request.cookies[realmCookieName(realmUid)]);
  if (!found) {
    pageNotFound(reply);
    return undefined;
  }
  if (typeof found.resolution === 'object') return found.resolution;
  const pages = `/realms/${encodeURIComponent(found.realm.uid)}`;
  reply.header('cache-control', 'no-store').redirect(`${pages}/login?${new URLSearchParams({ redirect_uri: `${pages}/profile` })}`, 303);
  return undefined;
}
