import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { activateWithLink, ACTIVATION_LINK_HOURS, findActivationLink, requestActivationLink } from '../activation.js';
import { findActiveRealm, type Realm } from '../realms.js';
import { safeRedirect } from '../redirects.js';
import { csrfMatches, issueCsrfToken, CSRF_FIELD } from '../../shared/html/csrf.js';
import { html, pageErrorHandler, pageNotFound, sendPage } from '../../shared/html/layout.js';
import { sendLinkConfirmation } from './link-confirmation.js';
import { pageTexts, type Texts } from '../../shared/html/messages.js';
import { secureCookies, setSessionCookie } from '../session-cookie.js';
import { pagePath, withRedirect } from '../../shared/html/paths.js';

const EMAIL_MAX = 320;
const Params = Type.Object({ realm_uid: Type.String() });
const LinkParams = Type.Object({ realm_uid: Type.String(), token: Type.String() });
const RedirectQuery = Type.Object({ redirect_uri: Type.Optional(Type.String()) });
const ResendForm = Type.Object({
  email: Type.Optional(Type.String({ maxLength: EMAIL_MAX })), redirect_uri: Type.Optional(Type.String()), csrf_token: Type.Optional(Type.String()),
});
const ConfirmForm = Type.Object({ csrf_token: Type.Optional(Type.String()) });

const hide = { hide: true };

interface ResendView {
  redirectUri?: string;
  email?: string;
  error?: string;
  sent?: boolean;
}

/**
 * The realm pages of an `activation_email` sign-up: `activation/{token}`, the link mailed at sign-up,
 * and `activation`, which sends it again. The link's GET only shows a page whose button posts the
 * confirmation: mail scanners and link previews fetch links, and must not use them up.
 */
export function activationPages(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const secure = () => secureCookies(ctx);

    scope.setErrorHandler(pageErrorHandler);

    function resendPage(request: FastifyRequest, reply: FastifyReply, realm: Realm, status: number, view: ResendView) {
      const token = issueCsrfToken(request, reply, realm.uid, secure());
      const t = pageTexts(request, realm);
      const alert = view.error ? html`<p class="alert" role="alert" id="activation-error">${view.error}</p>` : '';
      const body = view.sent
        ? html`<p class="notice" role="status">${t.activationResent(view.email ?? '', t.hours(ACTIVATION_LINK_HOURS))}</p>
<p><a href="${withRedirect(pagePath(realm, 'login'), view.redirectUri)}">${t.backToSignIn}</a></p>`
        : html`${alert}
<p>${t.activationResendIntro}</p>
<form method="post" action="${pagePath(realm, 'activation')}">
<label for="email">${t.email}
<input id="email" name="email" type="email" autocomplete="email" autocapitalize="none" spellcheck="false" required maxlength="${EMAIL_MAX}"
 value="${view.email ?? ''}" aria-invalid="${view.error ? 'true' : 'false'}"${view.error ? html` aria-describedby="activation-error"` : ''} autofocus>
</label>
<input type="hidden" name="redirect_uri" value="${view.redirectUri ?? ''}">
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
<button type="submit">${t.sendNewLink}</button>
</form>`;
      return sendPage(reply, status, {
        texts: t, title: view.error ? t.errorTitle(t.activateTitle) : t.activateTitle, heading: t.activateHeading(realm.name), realm, body,
      });
    }

    const deadLink = (t: Texts, reply: FastifyReply, realm: Realm, reason: 'unknown' | 'gone') => sendPage(reply, reason === 'gone' ? 410 : 404, {
      texts: t, title: t.errorTitle(t.linkNotValidTitle), heading: reason === 'gone' ? t.linkGoneHeading : t.linkUnknownHeading, realm,
      body: html`<p class="alert" role="alert">${reason === 'gone' ? t.activationLinkGone : t.activationLinkUnknown}</p>
${reason === 'gone' && realm.activationMode === 'activation_email' ? html`<p><a href="${pagePath(realm, 'activation')}">${t.sendNewLink}</a></p>` : ''}
<p><a href="${pagePath(realm, 'login')}">${t.signIn}</a></p>`,
    });

    /** The realm whose resend page exists: one whose sign-ups are confirmed by email. */
    async function emailRealm(reply: FastifyReply, uid: string): Promise<Realm | null> {
      const realm = await findActiveRealm(ctx, uid);
      if (realm?.activationMode === 'activation_email') return realm;
      pageNotFound(reply, realm ?? undefined);
      return null;
    }

    app.get('/realms/:realm_uid/activation', { schema: { ...hide, params: Params, querystring: RedirectQuery } }, async (request, reply) => {
      const realm = await emailRealm(reply, request.params.realm_uid);
      if (!realm) return reply;
      return resendPage(request, reply, realm, 200, { redirectUri: await safeRedirect(ctx, request.query.redirect_uri) ?? undefined });
    });

    app.post('/realms/:realm_uid/activation', { schema: { ...hide, params: Params, body: ResendForm } }, async (request, reply) => {
      const realm = await emailRealm(reply, request.params.realm_uid);
      if (!realm) return reply;
      const form = request.body ?? {};
      const t = pageTexts(request, realm);
      const view: ResendView = { redirectUri: await safeRedirect(ctx, form.redirect_uri) ?? undefined, email: form.email };
      if (!csrfMatches(request, form.csrf_token)) return resendPage(request, reply, realm, 403, { ...view, error: t.formExpired });
      const email = form.email?.trim();
      if (!email) return resendPage(request, reply, realm, 422, { ...view, error: t.enterEmail });
      const result = await requestActivationLink(ctx, realm, email, request.ip, view.redirectUri ?? null, t.locale);
      if (!result.accepted) {
        const minutes = Math.max(1, Math.ceil((result.retryAt.getTime() - ctx.clock.now().getTime()) / 60_000));
        return resendPage(request, reply.header('retry-after', String(minutes * 60)), realm, 429, { ...view, error: t.activationTooMany(t.minutes(minutes)) });
      }
      return resendPage(request, reply, realm, 200, { ...view, email, sent: true });
    });

    const confirmPage = (request: FastifyRequest, reply: FastifyReply, realm: Realm, token: string, email: string, status: number, error?: string) =>
      sendLinkConfirmation(request, reply, realm, secure(), (t) => ({
        title: t.activateTitle, heading: t.activateHeading(realm.name), text: t.activationConfirm(email), button: t.activateMyAccount,
        path: `activation/${encodeURIComponent(token)}`,
      }), status, error);

    app.get('/realms/:realm_uid/activation/:token', { schema: { ...hide, params: LinkParams } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const found = await findActivationLink(ctx, realm, request.params.token);
      if (!found.ok) return deadLink(pageTexts(request, realm), reply, realm, found.reason);
      return confirmPage(request, reply, realm, request.params.token, found.link.email, 200);
    });

    app.post('/realms/:realm_uid/activation/:token', { schema: { ...hide, params: LinkParams, body: ConfirmForm } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const t = pageTexts(request, realm);
      const { token } = request.params;
      if (!csrfMatches(request, request.body?.csrf_token)) {
        const found = await findActivationLink(ctx, realm, token);
        if (!found.ok) return deadLink(t, reply, realm, found.reason);
        return confirmPage(request, reply, realm, token, found.link.email, 403, t.formExpired);
      }
      const result = await activateWithLink(ctx, realm, token, { userAgent: request.headers['user-agent'] });
      if (!result.ok) return deadLink(t, reply, realm, result.reason);
      setSessionCookie(ctx, reply, realm.uid, result.session.secret);
      return reply.code(303).header('cache-control', 'no-store').redirect(result.redirectUri ?? pagePath(realm, 'profile'), 303);
    });
  };
}
