import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { beginAttempt } from '../../attempts/limit.js';
import type { Context } from '../../context.js';
import type { FieldError } from '../../errors/index.js';
import type { Locale } from '../../i18n/locale.js';
import { ACTIVATION_LINK_HOURS, confirmSignUp } from '../activation.js';
import type { CustomField } from '../custom-fields.js';
import type { FieldValue } from '../field-values.js';
import { findLink } from '../links.js';
import { findActiveRealm, type Realm } from '../realms.js';
import { safeRedirect } from '../redirects.js';
import { startRealmSession } from '../sessions.js';
import { SIGN_UP_PER_ADDRESS, signUp, signUpFields, signUpOpen } from '../sign-up.js';
import { csrfMatches, issueCsrfToken, CSRF_FIELD } from '../../shared/html/csrf.js';
import { html, pageErrorHandler, pageNotFound, sendPage, type Markup } from '../../shared/html/layout.js';
import { fieldMessage, pageTexts, type Texts } from '../../shared/html/messages.js';
import { secureCookies, setSessionCookie } from '../session-cookie.js';
import { pagePath, withRedirect } from '../../shared/html/paths.js';

const Params = Type.Object({ realm_uid: Type.String() });
const TOKEN_MAX = 100;
const SignUpQuery = Type.Object({
  redirect_uri: Type.Optional(Type.String()),
  invitation: Type.Optional(Type.String({ maxLength: TOKEN_MAX })),
});
/** Custom fields come as `field_<key>`; a field sent twice fails the schema and gets the bad-request page. */
const SignUpForm = Type.Object({
  email: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  redirect_uri: Type.Optional(Type.String()),
  invitation: Type.Optional(Type.String({ maxLength: TOKEN_MAX })),
  csrf_token: Type.Optional(Type.String()),
}, { additionalProperties: Type.String() });

const hide = { hide: true };
const fieldName = (field: CustomField) => `field_${field.key}`;

/** Where the login page links to when the realm's sign-up is open; null when it is not. */
export const signUpLink = (realm: Realm, redirectUri: string | undefined) =>
  (signUpOpen(realm) ? withRedirect(pagePath(realm, 'signup'), redirectUri) : null);

interface View {
  redirectUri?: string;
  values: Record<string, string>;
  /** Signing up by an invitation: its token, and the address it fixes. */
  invitation?: { token: string; email: string };
  error?: string;
  errors?: FieldError[];
}

/**
 * A form value as the user writer takes it: empty is unset, a number field's text a number, a checkbox
 * true when sent. An unticked box is unset too (only required boxes are on the form): a box that must be
 * ticked, such as accepting terms, is not accepted by leaving it.
 */
function fieldInput(field: CustomField, raw: string | undefined): { key: string; value: FieldValue } {
  const text = raw?.trim() ?? '';
  if (field.type === 'checkbox') return { key: field.key, value: raw !== undefined ? true : null };
  if (!text) return { key: field.key, value: null };
  if (field.type === 'number' && Number.isFinite(Number(text))) return { key: field.key, value: Number(text) };
  return { key: field.key, value: text };
}

/**
 * How an `otp` realm confirms a sign-up: a code to the address, which the code page then asks for. One-time codes are
 * a feature above realms, so its module declares this (`realmPages.signUpCode`).
 */
export type SignUpCode = (ctx: Context, request: FastifyRequest, reply: FastifyReply, realm: Realm, email: string, locale: Locale) => Promise<void>;

/**
 * The realm's signup page (DESIGN.md "Realm pages"): email, optional username, password and the
 * required custom fields the user may see and change. What a sign-up leads to is the realm's
 * `activation_mode`; an email already taken is answered as a sign-up would be, with nothing written.
 */
export function signUpPage(ctx: Context, sendCode: SignUpCode): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    scope.setErrorHandler(pageErrorHandler);

    function formPage(request: FastifyRequest, reply: FastifyReply, realm: Realm, fields: CustomField[], status: number, view: View) {
      const token = issueCsrfToken(request, reply, realm.uid, secureCookies(ctx));
      const t = pageTexts(request, realm);
      const messages = new Map((view.errors ?? []).map((e) => [e.field, e.messages]));
      const problem = (field: string, id: string, label: string) => {
        const list = messages.get(field);
        return list ? { id: `${id}-error`, text: t.fieldProblem(label, list.map((m) => fieldMessage(t, m)).join(', ')) } : null;
      };
      const control = (field: string, id: string, label: string, input: (attrs: Markup) => Markup) => {
        const error = problem(field, id, label);
        const attrs = html` id="${id}" name="${id}" aria-invalid="${error ? 'true' : 'false'}"${error ? html` aria-describedby="${error.id}"` : ''}`;
        return html`<label for="${id}">${label}
${input(attrs)}
${error ? html`<span class="field-error" id="${error.id}">${error.text}</span>` : ''}
</label>`;
      };
      const value = (name: string) => view.values[name] ?? '';
      const custom = fields.map((field) => control(`custom_fields.${field.key}`, fieldName(field), field.name, (attrs) => {
        const name = fieldName(field);
        switch (field.type) {
          case 'paragraph': return html`<textarea${attrs} required>${value(name)}</textarea>`;
          case 'number': return html`<input${attrs} type="number" step="any" required value="${value(name)}">`;
          case 'date': return html`<input${attrs} type="date" required value="${value(name)}">`;
          case 'checkbox': return html`<input${attrs} type="checkbox" value="true" required${view.values[name] !== undefined ? html` checked` : ''}>`;
          case 'dropdown':
          case 'choice':
            return html`<select${attrs} required><option value="">${t.choose}</option>${field.options.map((option) =>
              html`<option${option === value(name) ? html` selected` : ''}>${option}</option>`)}</select>`;
          default: return html`<input${attrs} type="text" required value="${value(name)}">`;
        }
      }));
      const summary = view.error ?? (view.errors?.length ? t.correctFields : undefined);
      const body = html`
${summary ? html`<p class="alert" role="alert" id="signup-error">${summary}</p>` : ''}
<form method="post" action="${pagePath(realm, 'signup')}">
${view.invitation
    ? html`<p>${t.invitedEmail(view.invitation.email)}</p>
<input type="hidden" name="invitation" value="${view.invitation.token}">`
    : control('email', 'email', t.email, (attrs) => html`<input${attrs} type="email" autocomplete="email" autocapitalize="none" spellcheck="false" required value="${value('email')}"${summary ? '' : html` autofocus`}>`)}
${control('username', 'username', t.usernameOptional, (attrs) => html`<input${attrs} type="text" autocomplete="username" autocapitalize="none" spellcheck="false" value="${value('username')}">`)}
${control('password', 'password', t.password, (attrs) => html`<input${attrs} type="password" autocomplete="new-password" minlength="8" required>`)}
${custom}
<input type="hidden" name="redirect_uri" value="${view.redirectUri ?? ''}">
<input type="hidden" name="${CSRF_FIELD}" value="${token}">
<button type="submit">${t.createAccount}</button>
</form>
<p><a href="${withRedirect(pagePath(realm, 'login'), view.redirectUri)}">${t.haveAccount}</a></p>`;
      return sendPage(reply, status, {
        texts: t, title: summary ? t.errorTitle(t.signUpTitle) : t.signUpTitle, heading: t.signUpHeading(realm.name), realm, body,
      });
    }

    /** The realm when it has a signup page at all, or the 404 page sent. */
    async function signUpRealm(reply: FastifyReply, uid: string): Promise<Realm | null> {
      const realm = await findActiveRealm(ctx, uid);
      if (!realm || realm.activationMode === 'disabled') {
        pageNotFound(reply, realm);
        return null;
      }
      return realm;
    }

    const invitationNeeded = (t: Texts, reply: FastifyReply, realm: Realm) => sendPage(reply, 404, {
      texts: t, title: t.invitationOnlyTitle, realm,
      body: html`<p>${t.invitationOnly}</p>
<p><a href="${pagePath(realm, 'login')}">${t.signInExisting}</a></p>`,
    });

    const deadInvitation = (t: Texts, reply: FastifyReply, realm: Realm, reason: 'unknown' | 'gone') => sendPage(reply, reason === 'gone' ? 410 : 404, {
      texts: t, title: t.errorTitle(t.invitationNotValidTitle), heading: reason === 'gone' ? t.invitationGoneHeading : t.invitationUnknownHeading, realm,
      body: html`<p class="alert" role="alert">${reason === 'gone' ? t.invitationGone : t.invitationUnknown}</p>
<p><a href="${pagePath(realm, 'login')}">${t.signInExisting}</a></p>`,
    });

    /** The address a still-valid invitation fixes, or the page about it sent (404 unknown, 410 used or expired). */
    async function liveInvitation(t: Texts, reply: FastifyReply, realm: Realm, token: string): Promise<{ token: string; email: string } | null> {
      const found = await findLink(ctx, realm, 'invitation', token);
      if (found.ok) return { token, email: found.link.email };
      deadInvitation(t, reply, realm, found.reason);
      return null;
    }

    app.get('/realms/:realm_uid/signup', { schema: { ...hide, params: Params, querystring: SignUpQuery } }, async (request, reply) => {
      const realm = await signUpRealm(reply, request.params.realm_uid);
      if (!realm) return reply;
      const t = pageTexts(request, realm);
      const { invitation: token } = request.query;
      const invitation = token === undefined ? undefined : await liveInvitation(t, reply, realm, token);
      if (invitation === null) return reply;
      if (!invitation && !signUpOpen(realm)) return invitationNeeded(t, reply, realm);
      const redirectUri = await safeRedirect(ctx, request.query.redirect_uri) ?? undefined;
      return formPage(request, reply, realm, await signUpFields(ctx, realm), 200, { redirectUri, invitation, values: {} });
    });

    app.post('/realms/:realm_uid/signup', { schema: { ...hide, params: Params, body: SignUpForm } }, async (request, reply) => {
      const realm = await signUpRealm(reply, request.params.realm_uid);
      if (!realm) return reply;
      const t = pageTexts(request, realm);
      const form: Record<string, string | undefined> = request.body ?? {};
      const token = form.invitation;
      if (token === undefined && !signUpOpen(realm)) return invitationNeeded(t, reply, realm);
      const fields = await signUpFields(ctx, realm);
      const view: View = { redirectUri: await safeRedirect(ctx, form.redirect_uri) ?? undefined, values: { ...form, password: '' } as Record<string, string> };
      if (!csrfMatches(request, form.csrf_token)) {
        const invitation = token === undefined ? undefined : await liveInvitation(t, reply, realm, token);
        if (invitation === null) return reply;
        return formPage(request, reply, realm, fields, 403, { ...view, invitation, error: t.formExpired });
      }
      // Counted before anything costly (the password's hash), whatever the outcome.
      const attempt = await beginAttempt(ctx, SIGN_UP_PER_ADDRESS, `${realm.id}:${request.ip}`);
      if (!attempt.allowed) {
        const minutes = Math.max(1, Math.ceil(((attempt.lockedUntil?.getTime() ?? 0) - ctx.clock.now().getTime()) / 60_000));
        return sendPage(reply.header('retry-after', String(minutes * 60)), 429, {
          texts: t, title: t.errorTitle(t.signUpTooManyTitle), realm,
          body: html`<p class="alert" role="alert">${t.signUpTooMany(t.minutes(minutes))}</p>`,
        });
      }
      const invitation = token === undefined ? undefined : await liveInvitation(t, reply, realm, token);
      if (invitation === null) return reply;
      const email = invitation?.email ?? form.email?.trim() ?? '';
      if (!form.password) {
        return formPage(request, reply, realm, fields, 422, { ...view, invitation, errors: [{ field: 'password', messages: ["can't be blank"] }] });
      }
      const result = await signUp(ctx, realm, {
        email, username: form.username?.trim() || null, password: form.password,
        customFields: fields.map((field) => fieldInput(field, form[fieldName(field)])), locale: t.locale,
      }, fields, invitation?.token);
      if (result.outcome === 'invitation_dead') return deadInvitation(t, reply, realm, result.reason);
      if (result.outcome === 'invalid') {
        // The invited address is not on the form: its problem (an account made with it meanwhile) is said above the form.
        const taken = invitation && result.errors.some((e) => e.field === 'email');
        return formPage(request, reply, realm, fields, 422, {
          ...view, invitation, errors: result.errors,
          error: taken ? t.invitedEmailTaken : undefined,
        });
      }

      const done = (heading: string, text: Markup) => sendPage(reply, 200, { texts: t, title: heading, realm, body: text });
      const signedIn = async (userId: number) => {
        const session = await startRealmSession(ctx, realm, userId, { userAgent: request.headers['user-agent'], authMethods: ['pwd'] });
        setSessionCookie(ctx, reply, realm.uid, session.secret);
        return reply.code(303).header('cache-control', 'no-store').redirect(view.redirectUri ?? pagePath(realm, 'profile'), 303);
      };
      if (invitation && result.outcome === 'created') return signedIn(result.user.id);
      switch (realm.activationMode) {
        case 'otp': {
          // Signing in with the code sent to the address is the confirmation; an address already taken gets a code for its own account.
          // Whether a code went out (the hourly limits may keep it back) is not told: otp_code links to otp_login, which says.
          await sendCode(ctx, request, reply, realm, email, t.locale);
          return reply.header('cache-control', 'no-store').redirect(withRedirect(pagePath(realm, 'otp_code'), view.redirectUri), 303);
        }
        case 'activation_email':
          // The same answer for a new address and a taken one; what is mailed, if anything, is decided after it.
          await confirmSignUp(ctx, realm, email, view.redirectUri ?? null, t.locale);
          return done(t.checkEmailTitle, html`<p class="notice" role="status">${t.activationSent(email, t.hours(ACTIVATION_LINK_HOURS))}</p>
<p>${t.activationNoMail(withRedirect(pagePath(realm, 'activation'), view.redirectUri))}</p>`);
        case 'moderated':
          return done(t.signUpThanks, html`<p class="notice">${t.signUpModerated}</p>`);
        default:
          if (result.outcome === 'created') return signedIn(result.user.id);
          // The address has an account: no session, and nothing says whether the account is new.
          return done(t.checkEmailTitle, html`<p class="notice">${t.signUpEmailTaken}</p>
<p><a href="${withRedirect(pagePath(realm, 'login'), view.redirectUri)}">${t.signIn}</a></p>`);
      }
    });
  };
}
