import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../context.js';
import type { Locale } from '../i18n/locale.js';
import { csrfMatches, issueCsrfToken, CSRF_FIELD } from '../shared/html/csrf.js';
import { html, pageErrorHandler, pageNotFound, sendPage, type Markup } from '../shared/html/layout.js';
import { findActiveRealm, type Realm } from '../realms/realms.js';
import { safeRedirect } from '../realms/redirects.js';
import { realmCookieName } from '../realms/sessions.js';
import { CODE_FORMAT, requestCode, secondsUntil } from './codes.js';
import { IDENTIFIER_MAX } from './schema.js';
import { signInWithCode } from './sign-in.js';
import { pageTexts, type Texts } from '../shared/html/messages.js';
import { pagePath, withRedirect } from '../shared/html/paths.js';
import { secureCookies } from '../realms/session-cookie.js';

/** Carries the identifier from otp_login to otp_code; not a secret, and only as long-lived as a code. */
const IDENTIFIER_COOKIE = 'atrium_otp';

const Params = Type.Object({ realm_uid: Type.String() });
const RedirectQuery = Type.Object({ redirect_uri: Type.Optional(Type.String()) });
const RequestForm = Type.Object({
  identifier: Type.Optional(Type.String({ maxLength: IDENTIFIER_MAX })),
  redirect_uri: Type.Optional(Type.String()),
  csrf_token: Type.Optional(Type.String()),
});
const CodeForm = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 64 })),
  redirect_uri: Type.Optional(Type.String()),
  csrf_token: Type.Optional(Type.String()),
});

const identifierCookie = (realm: Realm, secure: boolean) =>
  ({ path: `/realms/${encodeURIComponent(realm.uid)}`, httpOnly: true, sameSite: 'lax' as const, secure });

/** Hands the otp_code page the identifier a code was sent for. */
function rememberIdentifier(reply: FastifyReply, realm: Realm, identifier: string, validMinutes: number, secure: boolean): void {
  reply.setCookie(IDENTIFIER_COOKIE, identifier, { ...identifierCookie(realm, secure), maxAge: validMinutes * 60 });
}

const hide = { hide: true };

/** A wait of up to a day as a reader counts it: minutes within the hour, hours beyond. */
const duration = (t: Texts, seconds: number) => (seconds > 3600 ? t.hours(Math.ceil(seconds / 3600)) : t.minutes(Math.ceil(seconds / 60)));

interface View {
  redirectUri?: string;
  identifier?: string;
  error?: string;
  notice?: Markup;
  /** The error concerns the field, not the form as a whole. */
  fieldInvalid?: boolean;
}

/** The signup page of an `otp` realm confirms the address by a code (realms/pages/signup.ts, SignUpCode). */
export async function sendSignUpCode(ctx: Context, request: FastifyRequest, reply: FastifyReply, realm: Realm, email: string, locale: Locale): Promise<void> {
  await requestCode(ctx, realm, email, request.ip, locale);
  rememberIdentifier(reply, realm, email, realm.otpCodeValidityMinutes, secureCookies(ctx));
}

/**
 * The realm pages of sign-in by one-time code (DESIGN.md "Realm pages"): otp_login asks for an email
 * or username and sends a code, otp_code takes the code and starts a session.
 */
export function otpPages(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const secure = () => secureCookies(ctx);

    scope.setErrorHandler(pageErrorHandler);

    function requestPage(request: FastifyRequest, reply: FastifyReply, realm: Realm, status: number, view: View) {
      const token = issueCsrfToken(request, reply, realm.uid, secure());
      const t = pageTexts(request, realm);
      const described = view.error ? html` aria-describedby="otp-error"` : '';
      return sendPage(reply, status, {
        texts: t, title: view.error ? t.errorTitle(t.codeSignInTitle) : t.codeSignInTitle, heading: t.signInTo(realm.name), realm,
        body: html`
${view.error ? html`<p class="alert" role="alert" id="otp-error">${view.error}</p>` : ''}
<p>${t.codeIntro}</p>
<form method="post" action="${pagePath(realm, 'otp_login')}">
<label for="identifier">${t.emailOrUsername}
<input id="identifier" name="identifier" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required
 maxlength="${IDENTIFIER_MAX}" value="${view.identifier ?? ''}" aria-invalid="${view.fieldInvalid ? 'true' : 'false'}"${described} autofocus>
</label>
<input type="hidden" name="redirect_uri" value="${view.redirectUri ?? ''}">
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
<button type="submit">${t.sendCode}</button>
</form>
<p><a href="${withRedirect(pagePath(realm, 'login'), view.redirectUri)}">${t.passwordInstead}</a></p>`,
      });
    }

    function codePage(request: FastifyRequest, reply: FastifyReply, realm: Realm, status: number, view: View) {
      const token = issueCsrfToken(request, reply, realm.uid, secure());
      const t = pageTexts(request, realm);
      const described = view.error ? html` aria-describedby="otp-error"` : '';
      return sendPage(reply, status, {
        texts: t, title: view.error ? t.errorTitle(t.enterCodeTitle) : t.enterCodeTitle, heading: t.signInTo(realm.name), realm,
        body: html`
${view.error ? html`<p class="alert" role="alert" id="otp-error">${view.error}</p>` : ''}
${view.notice ?? ''}
<form method="post" action="${pagePath(realm, 'otp_code')}">
<label for="code">${t.codeLabel}
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required
 aria-invalid="${view.fieldInvalid ? 'true' : 'false'}"${described} autofocus>
</label>
<input type="hidden" name="redirect_uri" value="${view.redirectUri ?? ''}">
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
<button type="submit">${t.signIn}</button>
</form>
<p><a href="${withRedirect(pagePath(realm, 'otp_login'), view.redirectUri)}">${t.sendNewCode}</a></p>`,
      });
    }

    const identifierOf = (request: FastifyRequest) => request.cookies[IDENTIFIER_COOKIE]?.trim() || undefined;
    const startAgain = (reply: FastifyReply, realm: Realm, redirectUri: string | undefined) =>
      reply.header('cache-control', 'no-store').redirect(withRedirect(pagePath(realm, 'otp_login'), redirectUri), 303);

    app.get('/realms/:realm_uid/otp_login', { schema: { ...hide, params: Params, querystring: RedirectQuery } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      return requestPage(request, reply, realm, 200, { redirectUri: await safeRedirect(ctx, request.query.redirect_uri) ?? undefined });
    });

    app.post('/realms/:realm_uid/otp_login', { schema: { ...hide, params: Params, body: RequestForm } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const form = request.body ?? {};
      const view: View = { redirectUri: await safeRedirect(ctx, form.redirect_uri) ?? undefined, identifier: form.identifier };
      const t = pageTexts(request, realm);
      if (!csrfMatches(request, form.csrf_token)) {
        return requestPage(request, reply, realm, 403, { ...view, error: t.formExpired });
      }
      const identifier = form.identifier?.trim();
      if (!identifier) return requestPage(request, reply, realm, 422, { ...view, fieldInvalid: true, error: t.enterIdentifier });
      const result = await requestCode(ctx, realm, identifier, request.ip, t.locale);
      if (!result.sent) {
        const seconds = result.retryAfterSeconds;
        const error = result.reason === 'wait' ? t.codeWait(t.seconds(seconds)) : t.codeTooMany(duration(t, seconds));
        return requestPage(request, reply.header('retry-after', String(seconds)), realm, 429, { ...view, error });
      }
      rememberIdentifier(reply, realm, identifier, result.validMinutes, secure());
      return reply.header('cache-control', 'no-store').redirect(withRedirect(pagePath(realm, 'otp_code'), view.redirectUri), 303);
    });

    app.get('/realms/:realm_uid/otp_code', { schema: { ...hide, params: Params, querystring: RedirectQuery } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const redirectUri = await safeRedirect(ctx, request.query.redirect_uri) ?? undefined;
      const identifier = identifierOf(request);
      if (!identifier) return startAgain(reply, realm, redirectUri);
      const t = pageTexts(request, realm);
      return codePage(request, reply, realm, 200, {
        redirectUri, notice: html`<p>${t.codeSent(identifier, t.minutes(realm.otpCodeValidityMinutes))}</p>`,
      });
    });

    app.post('/realms/:realm_uid/otp_code', { schema: { ...hide, params: Params, body: CodeForm } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const form = request.body ?? {};
      const view: View = { redirectUri: await safeRedirect(ctx, form.redirect_uri) ?? undefined };
      const identifier = identifierOf(request);
      if (!identifier) return startAgain(reply, realm, view.redirectUri);
      const t = pageTexts(request, realm);
      if (!csrfMatches(request, form.csrf_token)) {
        return codePage(request, reply, realm, 403, { ...view, error: t.codeFormExpired });
      }
      const code = form.code?.trim() ?? '';
      // A code that is not 6 digits is counted like any wrong one, so that the page and the API agree on what a failure is.
      const result = await signInWithCode(ctx, realm, identifier, code, { userAgent: request.headers['user-agent'] });
      if (!result.ok) {
        if (result.reason === 'locked') {
          if (!result.retryAt) return codePage(request, reply, realm, 429, { ...view, error: t.codeLocked });
          const seconds = secondsUntil(ctx.clock.now(), result.retryAt);
          return codePage(request, reply.header('retry-after', String(seconds)), realm, 429, { ...view, error: t.codeLockedDay(duration(t, seconds)) });
        }
        return CODE_FORMAT.test(code)
          ? codePage(request, reply, realm, 401, { ...view, fieldInvalid: true, error: t.codeWrong })
          : codePage(request, reply, realm, 422, { ...view, fieldInvalid: true, error: t.codeMalformed });
      }
      reply.clearCookie(IDENTIFIER_COOKIE, identifierCookie(realm, secure()));
      reply.setCookie(realmCookieName(realm.uid), result.session.secret, { path: '/', httpOnly: true, sameSite: 'lax', secure: secure() });
      return reply.code(303).header('cache-control', 'no-store').redirect(view.redirectUri ?? pagePath(realm, 'profile'), 303);
    });

  };
}
