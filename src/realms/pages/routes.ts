import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { resolveSession } from '../credential.js';
import { findActiveRealm, type Realm } from '../realms.js';
import { safeRedirect } from '../redirects.js';
import { realmCookieName } from '../sessions.js';
import { signInWithPassword, signOut } from '../sign-in.js';
import { userName } from '../users.js';
import { csrfMatches, issueCsrfToken, CSRF_FIELD } from '../../shared/html/csrf.js';
import { html, pageErrorHandler, pageNotFound, sendPage, type Markup } from '../../shared/html/layout.js';
import { changePasswordForm } from './password.js';
import { profileCustomer, secureCookies, setSessionCookie } from '../session-cookie.js';
import { signUpLink } from './signup.js';
import { pageTexts, type Texts } from '../../shared/html/messages.js';
import { pagePath, withRedirect } from '../../shared/html/paths.js';
import type { LiveSession } from '../sessions.js';

const Params = Type.Object({ realm_uid: Type.String() });
const RedirectQuery = Type.Object({ redirect_uri: Type.Optional(Type.String()) });
/** `notice` names a message a page shows after another page sent the browser there. */
const NoticeQuery = Type.Object({ redirect_uri: Type.Optional(Type.String()), notice: Type.Optional(Type.String()) });
const NOTICES = { password_reset: 'noticePasswordReset', password_changed: 'noticePasswordChanged' } as const satisfies Record<string, keyof Texts>;
const noticeOf = (t: Texts, notice: string | undefined) =>
  (notice && Object.hasOwn(NOTICES, notice) ? html`<p class="notice" role="status">${t[NOTICES[notice as keyof typeof NOTICES]]}</p>` : '');
const LoginForm = Type.Object({
  username: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  redirect_uri: Type.Optional(Type.String()),
  csrf_token: Type.Optional(Type.String()),
});
const LogoutForm = Type.Object({ redirect_uri: Type.Optional(Type.String()), csrf_token: Type.Optional(Type.String()) });

const hide = { hide: true };

interface LoginView {
  redirectUri?: string;
  username?: string;
  error?: string;
  /** The error concerns the fields (wrong credentials), not the form as a whole. */
  fieldsInvalid?: boolean;
  notice?: string;
}

/** What features above realms add to its pages: their modules declare them (`realmPages`), so that realms imports none of those features. */
export interface RealmPageParts {
  /** Other ways to sign in, under the login form (delegation: the identity provider's button). */
  signInOptions(ctx: Context, t: Texts, realm: Realm, redirectUri: string | undefined): Promise<Markup | ''>;
  /** A notice on top of the profile page (impersonation: who acts as the user). */
  sessionNotice(ctx: Context, t: Texts, session: Pick<LiveSession, 'impersonatorId'>): Promise<Markup | ''>;
}

/**
 * The realm pages a browser sees (DESIGN.md "Realm pages"): sign-in, sign-out and a minimal profile.
 * Server-rendered HTML, no script; every form is protected by a double-submit CSRF token.
 */
export function realmPages(ctx: Context, parts: RealmPageParts): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const secure = () => secureCookies(ctx);

    scope.setErrorHandler(pageErrorHandler);

    async function loginPage(request: FastifyRequest, reply: FastifyReply, realm: Realm, status: number, view: LoginView) {
      const t = pageTexts(request, realm);
      const otherWays = await parts.signInOptions(ctx, t, realm, view.redirectUri);
      const token = issueCsrfToken(request, reply, realm.uid, secure());
      const invalid = view.fieldsInvalid ? 'true' : 'false';
      const described = view.error ? html` aria-describedby="login-error"` : '';
      // Focus goes where the user types next: the identifier, or the password once one was given.
      const focusPassword = Boolean(view.error && view.username?.trim());
      const signUp = signUpLink(realm, view.redirectUri);
      const body: Markup = html`
${view.error ? html`<p class="alert" role="alert" id="login-error">${view.error}</p>` : noticeOf(t, view.notice)}
<form method="post" action="${pagePath(realm, 'login')}">
<label for="username">${t.emailOrUsername}
<input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required
 value="${view.username ?? ''}" aria-invalid="${invalid}"${described}${focusPassword ? '' : html` autofocus`}>
</label>
<label for="password">${t.password}
<input id="password" name="password" type="password" autocomplete="current-password" required aria-invalid="${invalid}"${described}${focusPassword ? html` autofocus` : ''}>
</label>
<input type="hidden" name="redirect_uri" value="${view.redirectUri ?? ''}">
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
<button type="submit">${t.signIn}</button>
</form>
${otherWays}
<p><a href="${pagePath(realm, 'password')}">${t.forgotPasswordLink}</a></p>
<p><a href="${withRedirect(pagePath(realm, 'otp_login'), view.redirectUri)}">${t.codeSignInLink}</a></p>
${signUp ? html`<p><a href="${signUp}">${t.createAccountLink}</a></p>` : ''}`;
      // The title tells of the error too: it is the first thing a screen reader reads of the new page.
      return sendPage(reply, status, { texts: t, title: view.error ? t.errorTitle(t.signIn) : t.signIn, heading: t.signInTo(realm.name), realm, body });
    }

    app.get('/realms/:realm_uid/login', { schema: { ...hide, params: Params, querystring: NoticeQuery } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      return loginPage(request, reply, realm, 200, { redirectUri: await safeRedirect(ctx, request.query.redirect_uri) ?? undefined, notice: request.query.notice });
    });

    app.post('/realms/:realm_uid/login', { schema: { ...hide, params: Params, body: LoginForm } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const form = request.body ?? {};
      const view: LoginView = { redirectUri: await safeRedirect(ctx, form.redirect_uri) ?? undefined, username: form.username };
      const t = pageTexts(request, realm);
      if (!csrfMatches(request, form.csrf_token)) {
        return loginPage(request, reply, realm, 403, { ...view, error: t.signInFormExpired });
      }
      if (!form.username?.trim() || !form.password) {
        return loginPage(request, reply, realm, 422, { ...view, fieldsInvalid: true, error: t.signInBlank });
      }
      const result = await signInWithPassword(ctx, realm, form.username, form.password, { userAgent: request.headers['user-agent'] });
      if (!result.ok) {
        if (result.reason === 'locked') {
          const minutes = Math.max(1, Math.ceil(((result.lockedUntil?.getTime() ?? 0) - ctx.clock.now().getTime()) / 60_000));
          return loginPage(request, reply, realm, 429, { ...view, error: t.signInLocked(t.minutes(minutes)) });
        }
        return loginPage(request, reply, realm, 401, { ...view, fieldsInvalid: true, error: t.signInWrong });
      }
      setSessionCookie(ctx, reply, realm.uid, result.session.secret);
      return reply.code(303).header('cache-control', 'no-store').redirect(view.redirectUri ?? pagePath(realm, 'profile'), 303);
    });

    app.get('/realms/:realm_uid/logout', { schema: { ...hide, params: Params, querystring: RedirectQuery } }, async (request, reply) => {
      const found = await resolveSession(ctx, request.params.realm_uid, request.cookies[realmCookieName(request.params.realm_uid)]);
      if (!found) return pageNotFound(reply);
      const { realm, resolution } = found;
      const token = issueCsrfToken(request, reply, realm.uid, secure());
      const redirectUri = await safeRedirect(ctx, request.query.redirect_uri) ?? '';
      const t = pageTexts(request, realm);
      const who = typeof resolution === 'object'
        ? html`<p>${t.signedInAs(userName(resolution.user) || resolution.user.email)}</p>`
        : html`<p class="notice">${t.notSignedIn}</p>`;
      return sendPage(reply, 200, {
        texts: t, title: t.signOut, heading: t.signOutOf(realm.name), realm,
        body: html`${who}
<form method="post" action="${pagePath(realm, 'logout')}">
<input type="hidden" name="redirect_uri" value="${redirectUri}">
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
<button type="submit">${t.signOut}</button>
</form>`,
      });
    });

    app.post('/realms/:realm_uid/logout', { schema: { ...hide, params: Params, body: LogoutForm } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const form = request.body ?? {};
      if (!csrfMatches(request, form.csrf_token)) {
        const token = issueCsrfToken(request, reply, realm.uid, secure());
        const t = pageTexts(request, realm);
        return sendPage(reply, 403, {
          texts: t, title: t.signOut, heading: t.signOutOf(realm.name), realm,
          body: html`<p class="alert" role="alert">${t.formExpired}</p>
<form method="post" action="${pagePath(realm, 'logout')}">
<input type="hidden" name="redirect_uri" value="${await safeRedirect(ctx, form.redirect_uri) ?? ''}">
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
<button type="submit">${t.signOut}</button>
</form>`,
        });
      }
      const cookieName = realmCookieName(realm.uid);
      await signOut(ctx, realm, request.cookies[cookieName]);
      reply.clearCookie(cookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure: secure() });
      const target = await safeRedirect(ctx, form.redirect_uri) ?? pagePath(realm, 'login');
      return reply.header('cache-control', 'no-store').redirect(target, 303);
    });

    app.get('/realms/:realm_uid/profile', { schema: { ...hide, params: Params, querystring: NoticeQuery } }, async (request, reply) => {
      const resolution = await profileCustomer(ctx, request, reply, request.params.realm_uid);
      if (!resolution) return reply;
      const { realm, user } = resolution;
      const t = pageTexts(request, realm);
      return sendPage(reply, 200, {
        texts: t, title: t.profileTitle, heading: t.profileHeading(realm.name), realm,
        body: html`${await parts.sessionNotice(ctx, t, resolution.session)}
${noticeOf(t, request.query.notice)}
<p>${t.profileSignedInAs(userName(user) || user.email)}</p>
<dl>
<dt>${t.email}</dt><dd>${user.email}</dd>
${user.username ? html`<dt>${t.username}</dt><dd>${user.username}</dd>` : ''}
</dl>
${changePasswordForm(t, realm, issueCsrfToken(request, reply, realm.uid, secure()))}
<p><a href="${pagePath(realm, 'logout')}">${t.signOut}</a></p>`,
      });
    });
  };
}
