import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { passwordWeakness } from '../../security/passwords.js';
import { findLink } from '../links.js';
import { changePassword, requestPasswordReset, resetPassword, RESET_LINK_MINUTES } from '../passwords.js';
import { findActiveRealm, type Realm } from '../realms.js';
import { csrfMatches, issueCsrfToken, CSRF_FIELD } from '../../shared/html/csrf.js';
import { html, pageErrorHandler, pageNotFound, sendPage, type Markup } from '../../shared/html/layout.js';
import { fieldMessage, pageTexts, type Texts } from '../../shared/html/messages.js';
import { profileCustomer, secureCookies } from '../session-cookie.js';
import { pagePath } from '../../shared/html/paths.js';

const IDENTIFIER_MAX = 320;
const Params = Type.Object({ realm_uid: Type.String() });
const LinkParams = Type.Object({ realm_uid: Type.String(), token: Type.String() });
const RequestForm = Type.Object({ identifier: Type.Optional(Type.String({ maxLength: IDENTIFIER_MAX })), csrf_token: Type.Optional(Type.String()) });
const ResetForm = Type.Object({
  password: Type.Optional(Type.String()), confirmation: Type.Optional(Type.String()), csrf_token: Type.Optional(Type.String()),
});
const ChangeForm = Type.Object({
  current: Type.Optional(Type.String()), password: Type.Optional(Type.String()), confirmation: Type.Optional(Type.String()),
  csrf_token: Type.Optional(Type.String()),
});

const hide = { hide: true };
const minutesUntil = (ctx: Context, moment: Date) => Math.max(1, Math.ceil((moment.getTime() - ctx.clock.now().getTime()) / 60_000));
const alert = (error: string | undefined) => (error ? html`<p class="alert" role="alert" id="password-error">${error}</p>` : '');
const described = (error: string | undefined) => (error ? html` aria-describedby="password-error"` : '');

/** What is wrong with a new password and its confirmation, or null. */
function newPasswordProblem(t: Texts, password: string | undefined, confirmation: string | undefined): string | null {
  if (!password) return t.enterNewPassword;
  const weakness = passwordWeakness(password);
  if (weakness) return t.newPasswordWeak(fieldMessage(t, weakness));
  if (password !== confirmation) return t.passwordsDiffer;
  return null;
}

const newPasswordFields = (t: Texts, error: string | undefined) => html`
<label for="password">${t.newPassword}
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="200" required aria-invalid="${error ? 'true' : 'false'}"${described(error)}>
</label>
<label for="confirmation">${t.newPasswordAgain}
<input id="confirmation" name="confirmation" type="password" autocomplete="new-password" required>
</label>`;

/** The profile page's form for changing the password (posted to POST /realms/{uid}/profile/password). */
export const changePasswordForm = (t: Texts, realm: Realm, csrfToken: string, error?: string): Markup => html`
<h2>${t.changePassword}</h2>
${alert(error)}
<form method="post" action="${pagePath(realm, 'profile/password')}">
<label for="current">${t.currentPassword}
<input id="current" name="current" type="password" autocomplete="current-password" required aria-invalid="${error ? 'true' : 'false'}"${described(error)}>
</label>
${newPasswordFields(t, error)}
<input type="hidden" name="${CSRF_FIELD}" value="${csrfToken}">
<button type="submit">${t.changePassword}</button>
</form>`;

/**
 * The realm pages of a forgotten password (DESIGN.md "Realm pages"): `password` asks for an email or
 * username and mails a one-time link, `password/reset/{token}` takes the new password; and the
 * profile's change-password form.
 */
export function passwordPages(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const secure = () => secureCookies(ctx);

    scope.setErrorHandler(pageErrorHandler);

    function requestPage(request: FastifyRequest, reply: FastifyReply, realm: Realm, status: number, view: { identifier?: string; error?: string; sent?: boolean }) {
      const token = issueCsrfToken(request, reply, realm.uid, secure());
      const t = pageTexts(request, realm);
      const body = view.sent
        ? html`<p class="notice" role="status">${t.resetSent(view.identifier ?? '', t.minutes(RESET_LINK_MINUTES))}</p>
<p><a href="${pagePath(realm, 'login')}">${t.backToSignIn}</a></p>`
        : html`${alert(view.error)}
<p>${t.resetIntro}</p>
<form method="post" action="${pagePath(realm, 'password')}">
<label for="identifier">${t.emailOrUsername}
<input id="identifier" name="identifier" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required
 maxlength="${IDENTIFIER_MAX}" value="${view.identifier ?? ''}" aria-invalid="${view.error ? 'true' : 'false'}"${described(view.error)} autofocus>
</label>
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
<button type="submit">${t.sendLink}</button>
</form>
<p><a href="${pagePath(realm, 'login')}">${t.backToSignIn}</a></p>`;
      return sendPage(reply, status, {
        texts: t, title: view.error ? t.errorTitle(t.forgotPasswordTitle) : t.forgotPasswordTitle, heading: t.resetHeading(realm.name), realm, body,
      });
    }

    function resetPage(request: FastifyRequest, reply: FastifyReply, realm: Realm, token: string, status: number, error?: string) {
      const csrf = issueCsrfToken(request, reply, realm.uid, secure());
      const t = pageTexts(request, realm);
      return sendPage(reply, status, {
        texts: t, title: error ? t.errorTitle(t.chooseNewPasswordTitle) : t.chooseNewPasswordTitle, heading: t.chooseNewPasswordHeading(realm.name), realm,
        body: html`${alert(error)}
<form method="post" action="${pagePath(realm, `password/reset/${encodeURIComponent(token)}`)}">
${newPasswordFields(t, error)}
<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
<button type="submit">${t.setNewPassword}</button>
</form>`,
      });
    }

    const deadLink = (request: FastifyRequest, reply: FastifyReply, realm: Realm, reason: 'unknown' | 'gone') => {
      const t = pageTexts(request, realm);
      return sendPage(reply, reason === 'gone' ? 410 : 404, {
        texts: t, title: t.errorTitle(t.linkNotValidTitle), heading: reason === 'gone' ? t.linkGoneHeading : t.linkUnknownHeading, realm,
        body: html`<p class="alert" role="alert">${reason === 'gone' ? t.resetLinkGone : t.resetLinkUnknown}</p>
<p><a href="${pagePath(realm, 'password')}">${t.askForNewLink}</a></p>`,
      });
    };

    app.get('/realms/:realm_uid/password', { schema: { ...hide, params: Params } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      return requestPage(request, reply, realm, 200, {});
    });

    app.post('/realms/:realm_uid/password', { schema: { ...hide, params: Params, body: RequestForm } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const form = request.body ?? {};
      const t = pageTexts(request, realm);
      if (!csrfMatches(request, form.csrf_token)) {
        return requestPage(request, reply, realm, 403, { identifier: form.identifier, error: t.formExpired });
      }
      const identifier = form.identifier?.trim();
      if (!identifier) return requestPage(request, reply, realm, 422, { error: t.enterIdentifier });
      const result = await requestPasswordReset(ctx, realm, identifier, request.ip, t.locale);
      if (!result.accepted) {
        const minutes = minutesUntil(ctx, result.retryAt);
        return requestPage(request, reply.header('retry-after', String(minutes * 60)), realm, 429, {
          identifier, error: t.resetTooMany(t.minutes(minutes)),
        });
      }
      return requestPage(request, reply, realm, 200, { identifier, sent: true });
    });

    app.get('/realms/:realm_uid/password/reset/:token', { schema: { ...hide, params: LinkParams } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const found = await findLink(ctx, realm, 'password_reset', request.params.token);
      if (!found.ok) return deadLink(request, reply, realm, found.reason);
      return resetPage(request, reply, realm, request.params.token, 200);
    });

    app.post('/realms/:realm_uid/password/reset/:token', { schema: { ...hide, params: LinkParams, body: ResetForm } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const { token } = request.params;
      const form = request.body ?? {};
      const t = pageTexts(request, realm);
      if (!csrfMatches(request, form.csrf_token)) return resetPage(request, reply, realm, token, 403, t.formExpired);
      const problem = newPasswordProblem(t, form.password, form.confirmation);
      if (problem) {
        // A weak password does not use the link up; a dead link is told of before the form's faults.
        const found = await findLink(ctx, realm, 'password_reset', token);
        return found.ok ? resetPage(request, reply, realm, token, 422, problem) : deadLink(request, reply, realm, found.reason);
      }
      const result = await resetPassword(ctx, realm, token, form.password!);
      if (!result.ok) return deadLink(request, reply, realm, result.reason);
      return reply.header('cache-control', 'no-store').redirect(`${pagePath(realm, 'login')}?notice=password_reset`, 303);
    });

    app.post('/realms/:realm_uid/profile/password', { schema: { ...hide, params: Params, body: ChangeForm } }, async (request, reply) => {
      const customer = await profileCustomer(ctx, request, reply, request.params.realm_uid);
      if (!customer) return reply;
      const { realm } = customer;
      const form = request.body ?? {};
      const t = pageTexts(request, realm);
      const again = (status: number, error: string) => sendPage(reply, status, {
        texts: t, title: t.errorTitle(t.changePassword), heading: t.profileHeading(realm.name), realm,
        body: html`${changePasswordForm(t, realm, issueCsrfToken(request, reply, realm.uid, secure()), error)}
<p><a href="${pagePath(realm, 'profile')}">${t.backToProfile}</a></p>`,
      });
      if (!csrfMatches(request, form.csrf_token)) return again(403, t.formExpired);
      if (!form.current) return again(422, t.enterCurrentPassword);
      const problem = newPasswordProblem(t, form.password, form.confirmation);
      if (problem) return again(422, problem);
      const result = await changePassword(ctx, customer, form.current, form.password!);
      if (!result.ok) {
        if (result.reason === 'locked') {
          const minutes = minutesUntil(ctx, result.lockedUntil ?? ctx.clock.now());
          return again(429, t.changeLocked(t.minutes(minutes)));
        }
        return again(401, t.currentPasswordWrong);
      }
      return reply.header('cache-control', 'no-store').redirect(`${pagePath(realm, 'profile')}?notice=password_changed`, 303);
    });
  };
}
