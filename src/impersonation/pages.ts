import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../context.js';
import { impersonatorEmail, openImpersonationLink } from './links.js';
import type { LiveSession } from '../realms/sessions.js';
import { html, pageErrorHandler, sendPage, type Markup } from '../shared/html/layout.js';
import { pageTexts, type Texts } from '../shared/html/messages.js';
import { setSessionCookie } from '../realms/session-cookie.js';

const Params = Type.Object({ realm_uid: Type.String(), token: Type.String() });

/**
 * `GET /realms/{uid}/session/access/{token}`: the one-time link an admin makes to impersonate a user
 * (links.ts). It opens the session and goes to the profile page; a used or expired link
 * answers 410, an unknown one 404, both with a page and no session.
 */
export function sessionAccessPage(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    scope.setErrorHandler(pageErrorHandler);
    app.get('/realms/:realm_uid/session/access/:token', { schema: { hide: true, params: Params } }, async (request, reply) => {
      const opened = await openImpersonationLink(ctx, request.params.realm_uid, request.params.token, request.headers['user-agent']);
      if (!opened.ok) {
        const gone = opened.reason === 'gone';
        const t = pageTexts(request, opened.realm);
        return sendPage(reply, gone ? 410 : 404, {
          texts: t, title: gone ? t.linkGoneTitle : t.linkUnknownTitle, realm: opened.realm,
          body: html`<p role="alert">${gone ? t.sessionLinkGone : t.sessionLinkUnknown}</p>`,
        });
      }
      setSessionCookie(ctx, reply, opened.realm.uid, opened.session.secret);
      return reply.code(303).header('cache-control', 'no-store').redirect(`/realms/${encodeURIComponent(opened.realm.uid)}/profile`, 303);
    });
  };
}

/** The notice every page of an impersonated session shows, so that nobody mistakes it for the user's own. */
export async function impersonationBanner(ctx: Context, t: Texts, session: Pick<LiveSession, 'impersonatorId'>): Promise<Markup | ''> {
  if (session.impersonatorId === null) return '';
  const email = await impersonatorEmail(ctx, session.impersonatorId);
  return html`<p class="notice" role="status">${t.impersonatedBy(email ?? null)}</p>`;
}
