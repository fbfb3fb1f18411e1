import type { FastifyReply } from 'fastify';
import type { Context } from '../../context.js';
import { realmCookieName } from '../sessions.js';

export const secureCookies = (ctx: Context) => ctx.config.baseUrl.startsWith('https:');

/** Hands the browser a realm session: the cookie every realm page and the customers API read. */
export function setSessionCookie(ctx: Context, reply: FastifyReply, realmUid: string, secret: string): void {
  reply.setCookie(realmCookieName(realmUid), secret, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookies(ctx) });
}
