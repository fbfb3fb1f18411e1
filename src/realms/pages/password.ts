import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { passwordWeakness } from '../../security/passwords.js';
import { findLink } from '../links.js';
import { changePassword, requestPasswordReset, resetPassword, RESET_LINK_MINUTES } from '../passwords.js';
import { findActiveRealm, type Realm } from '../realms.js';
import { csrfMatches, issueCsrfToken, CSRF_FIELD } from './csrf.js';
import { html, pageErrorHandler, pageNotFound, sendPage, type Markup } from './html.js';
import { profileCustomer, secureCookies } from './session-cookie.js';
import { pagePath } from './paths.js';

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
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const alert = (error: string | undefined) => (error ? html`<p class="alert" role="alert" id="password-error">${error}</p>` : '');
const described = (error: string | undefined) => (error ? html` aria-describedby="password-error"` : '');

/** What is wrong with a new password and its confirmation, or null. */
function newPasswordProblem(password: string | undefined, confirmation: string | undefined): string | null {
  if (!password) return 'Enter a new password.';
  const weakness = passwordWeakness(password);
  if (weakness) return `The new password ${weakness}.`;
  if (password !== confirmation) return 'The two new passwords are not the same.';
  return null;
}

const newPasswordFields = (error: string | undefined) => html`
<label for="password">New password
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="200" required aria-invalid="${error ? 'true' : 'false'}"${described(error)}>
</label>
<label for="confirmation">New password again
<input id="confirmation" name="confirmation" type="password" autocomplete="new-password" required>
</label>`;

/** The profile page's form for changing the password (posted to POST /realms/{uid}/profile/password). */
export const changePasswordForm = (realm: Realm, csrfToken: string, error?: string): Markup => html`
<h2>Change password</h2>
${alert(error)}
<form method="post" action="${pagePath(realm, 'profile/password')}">
<label for="current">Current password
<input id="current" name="current" type="password" autocomplete="current-password" required aria-invalid="${error ? 'true' : 'false'}"${described(error)}>
</label>
${newPasswordFields(error)}
<input type="hidden" name="${CSRF_FIELD}" value="${csrfToken}">
<button type="submit">Change password</button>
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
      const body = view.sent
        ? html`<p class="notice" role="status">If an account exists for <strong>${view.identifier ?? ''}</strong>, we sent a link to its email address.
It is valid for ${RESET_LINK_MINUTES} minutes and works once.</p>
<p><a href="${pagePath(realm, 'login')}">Back to sign in</a></p>`
        : html`${alert(view.error)}
<p>We will send a link for choosing a new password to your email address.</p>
<form method="post" action="${pagePath(realm, 'password')}">
<label for="identifier">Email or username
<input id="identifier" name="identifier" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required
 maxlength="${IDENTIFIER_MAX}" value="${view.identifier ?? ''}" aria-invalid="${view.error ? 'true' : 'false'}"${described(view.error)} autofocus>
</label>
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
<button type="submit">Send me a link</button>
</form>
<p><a href="${pagePath(realm, 'login')}">Back to sign in</a></p>`;
      return sendPage(reply, status, {
        title: view.error ? 'Error: Forgot your password' : 'Forgot your password', heading: `Reset your ${realm.name} password`, realmName: realm.name, body,
      });
    }

    function resetPage(request: FastifyRequest, reply: FastifyReply, realm: Realm, token: string, status: number, error?: string) {
      const csrf = issueCsrfToken(request, reply, realm.uid, secure());
      return sendPage(reply, status, {
        title: error ? 'Error: Choose a new password' : 'Choose a new password', heading: `Choose a new ${realm.name} password`, realmName: realm.name,
        body: html`${alert(error)}
<form method="post" action="${pagePath(realm, `password/reset/${encodeURIComponent(token)}`)}">
${newPasswordFields(error)}
<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
<button type="submit">Set the new password</button>
</form>`,
      });
    }

    const deadLink = (reply: FastifyReply, realm: Realm, reason: 'unknown' | 'gone') => sendPage(reply, reason === 'gone' ? 410 : 404, {
      title: 'Error: Link not valid', heading: reason === 'gone' ? 'This link has expired' : 'This link is not valid', realmName: realm.name,
      body: html`<p class="alert" role="alert">${reason === 'gone'
        ? 'This password reset link was already used, was replaced by a newer one, or has expired. Nothing was changed.'
        : 'There is no password reset link at this address. Check the link you followed. Nothing was changed.'}</p>
<p><a href="${pagePath(realm, 'password')}">Ask for a new link</a></p>`,
    });

    app.get('/realms/:realm_uid/password', { schema: { ...hide, params: Params } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      return requestPage(request, reply, realm, 200, {});
    });

    app.post('/realms/:realm_uid/password', { schema: { ...hide, params: Params, body: RequestForm } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const form = request.body ?? {};
      if (!csrfMatches(request, form.csrf_token)) {
        return requestPage(request, reply, realm, 403, { identifier: form.identifier, error: 'This form has expired. Please try again.' });
      }
      const identifier = form.identifier?.trim();
      if (!identifier) return requestPage(request, reply, realm, 422, { error: 'Enter your email or username.' });
      const result = await requestPasswordReset(ctx, realm, identifier, request.ip);
      if (!result.accepted) {
        const minutes = minutesUntil(ctx, result.retryAt);
        return requestPage(request, reply.header('retry-after', String(minutes * 60)), realm, 429, {
          identifier, error: `Too many password reset requests. Try again in ${plural(minutes, 'minute')}.`,
        });
      }
      return requestPage(request, reply, realm, 200, { identifier, sent: true });
    });

    app.get('/realms/:realm_uid/password/reset/:token', { schema: { ...hide, params: LinkParams } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const found = await findLink(ctx, realm, 'password_reset', request.params.token);
      if (!found.ok) return deadLink(reply, realm, found.reason);
      return resetPage(request, reply, realm, request.params.token, 200);
    });

    app.post('/realms/:realm_uid/password/reset/:token', { schema: { ...hide, params: LinkParams, body: ResetForm } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const { token } = request.params;
      const form = request.body ?? {};
      if (!csrfMatches(request, form.csrf_token)) return resetPage(request, reply, realm, token, 403, 'This form has expired. Please try again.');
      const problem = newPasswordProblem(form.password, form.confirmation);
      if (problem) {
        // A weak password does not use the link up; a dead link is told of before the form's faults.
        const found = await findLink(ctx, realm, 'password_reset', token);
        return found.ok ? resetPage(request, reply, realm, token, 422, problem) : deadLink(reply, realm, found.reason);
      }
      const result = await resetPassword(ctx, realm, token, form.password!);
      if (!result.ok) return deadLink(reply, realm, result.reason);
      return reply.header('cache-control', 'no-store').redirect(`${pagePath(realm, 'login')}?notice=password_reset`, 303);
    });

    app.post('/realms/:realm_uid/profile/password', { schema: { ...hide, params: Params, body: ChangeForm } }, async (request, reply) => {
      const customer = await profileCustomer(ctx, request, reply, request.params.realm_uid);
      if (!customer) return reply;
      const { realm } = customer;
      const form = request.body ?? {};
      const again = (status: number, error: string) => sendPage(reply, status, {
        title: 'Error: Change password', heading: `Your ${realm.name} profile`, realmName: realm.name,
        body: html`${changePasswordForm(realm, issueCsrfToken(request, reply, realm.uid, secure()), error)}
<p><a href="${pagePath(realm, 'profile')}">Back to your profile</a></p>`,
      });
      if (!csrfMatches(request, form.csrf_token)) return again(403, 'This form has expired. Please try again.');
      if (!form.current) return again(422, 'Enter your current password.');
      const problem = newPasswordProblem(form.password, form.confirmation);
      if (problem) return again(422, problem);
      const result = await changePassword(ctx, customer, form.current, form.password!);
      if (!result.ok) {
        if (result.reason === 'locked') {
          const minutes = minutesUntil(ctx, result.lockedUntil ?? ctx.clock.now());
          return again(429, `Too many wrong passwords: this account is locked. Try again in ${plural(minutes, 'minute')}.`);
        }
        return again(401, 'The current password is not correct.');
      }
      return reply.header('cache-control', 'no-store').redirect(`${pagePath(realm, 'profile')}?notice=password_changed`, 303);
    });
  };
}
