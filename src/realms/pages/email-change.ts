import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { confirmEmailChange, findEmailChangeLink } from '../email-change.js';
import { findActiveRealm, type Realm } from '../realms.js';
import { csrfMatches } from '../../shared/html/csrf.js';
import { html, pageErrorHandler, pageNotFound, sendPage } from '../../shared/html/layout.js';
import { sendLinkConfirmation } from './link-confirmation.js';
import { pageTexts, type Texts } from '../../shared/html/messages.js';
import { secureCookies } from '../session-cookie.js';
import { pagePath } from '../../shared/html/paths.js';

const LinkParams = Type.Object({ realm_uid: Type.String(), token: Type.String() });
const ConfirmForm = Type.Object({ csrf_token: Type.Optional(Type.String()) });

const hide = { hide: true };

/**
 * `email_change/{token}`: the link mailed to the new address of a PUT /me. As the activation link,
 * its GET only shows a page whose button posts the confirmation (mail scanners fetch links).
 */
export function emailChangePages(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    scope.setErrorHandler(pageErrorHandler);

    const outcomePage = (t: Texts, reply: FastifyReply, realm: Realm, status: number, message: ReturnType<Texts['emailChanged']> | string) =>
      sendPage(reply, status, {
        texts: t, title: status === 200 ? t.emailChangeTitle : t.errorTitle(t.emailChangeTitle), realm,
        body: html`<p class="${status === 200 ? 'notice' : 'alert'}" role="${status === 200 ? 'status' : 'alert'}">${message}</p>
<p><a href="${pagePath(realm, 'profile')}">${t.profileTitle}</a></p>`,
      });

    const deadLink = (t: Texts, reply: FastifyReply, realm: Realm, reason: 'unknown' | 'gone') =>
      outcomePage(t, reply, realm, reason === 'gone' ? 410 : 404, reason === 'gone' ? t.emailChangeLinkGone : t.emailChangeLinkUnknown);

    const confirmPage = (request: FastifyRequest, reply: FastifyReply, realm: Realm, token: string, email: string, status: number, error?: string) =>
      sendLinkConfirmation(request, reply, realm, secureCookies(ctx), (t) => ({
        title: t.emailChangeTitle, text: t.emailChangeConfirm(email), button: t.emailChangeButton, path: `email_change/${encodeURIComponent(token)}`,
      }), status, error);

    app.get('/realms/:realm_uid/email_change/:token', { schema: { ...hide, params: LinkParams } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const found = await findEmailChangeLink(ctx, realm, request.params.token);
      if (!found.ok) return deadLink(pageTexts(request, realm), reply, realm, found.reason);
      return confirmPage(request, reply, realm, request.params.token, found.link.email, 200);
    });

    app.post('/realms/:realm_uid/email_change/:token', { schema: { ...hide, params: LinkParams, body: ConfirmForm } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const t = pageTexts(request, realm);
      const { token } = request.params;
      if (!csrfMatches(request, request.body?.csrf_token)) {
        const found = await findEmailChangeLink(ctx, realm, token);
        if (!found.ok) return deadLink(t, reply, realm, found.reason);
        return confirmPage(request, reply, realm, token, found.link.email, 403, t.formExpired);
      }
      const result = await confirmEmailChange(ctx, realm, token);
      if (result.ok) return outcomePage(t, reply, realm, 200, t.emailChanged(result.email));
      if (result.reason === 'taken') return outcomePage(t, reply, realm, 409, t.emailChangeTaken);
      return deadLink(t, reply, realm, result.reason);
    });
  };
}
