import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import type { FieldError } from '../../http/errors.js';
import { requestCode } from '../../otp/codes.js';
import { rememberIdentifier } from '../../otp/pages.js';
import type { CustomField } from '../custom-fields.js';
import type { FieldValue } from '../field-values.js';
import { findActiveRealm, type Realm } from '../realms.js';
import { safeRedirect } from '../redirects.js';
import { startRealmSession } from '../sessions.js';
import { signUp, signUpFields, signUpOpen } from '../sign-up.js';
import { csrfMatches, issueCsrfToken, CSRF_FIELD } from './csrf.js';
import { html, pageErrorHandler, pageNotFound, sendPage, type Markup } from './html.js';
import { fieldMessage, pageTexts } from './messages.js';
import { secureCookies, setSessionCookie } from './session-cookie.js';
import { pagePath, withRedirect } from './paths.js';

const Params = Type.Object({ realm_uid: Type.String() });
const RedirectQuery = Type.Object({ redirect_uri: Type.Optional(Type.String()) });
/** Custom fields come as `field_<key>`; a field sent twice fails the schema and gets the bad-request page. */
const SignUpForm = Type.Object({
  email: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  password: Type.Optional(Type.String()),
  redirect_uri: Type.Optional(Type.String()),
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
  error?: string;
  errors?: FieldError[];
}

/** A form value as the user writer takes it: empty is unset, a number field's text a number, a checkbox true when sent. */
function fieldInput(field: CustomField, raw: string | undefined): { key: string; value: FieldValue } {
  const text = raw?.trim() ?? '';
  if (field.type === 'checkbox') return { key: field.key, value: raw !== undefined };
  if (!text) return { key: field.key, value: null };
  if (field.type === 'number' && Number.isFinite(Number(text))) return { key: field.key, value: Number(text) };
  return { key: field.key, value: text };
}

/**
 * The realm's signup page (DESIGN.md "Realm pages"): email, optional username, password and the
 * required custom fields the user may see and change. What a sign-up leads to is the realm's
 * `activation_mode`; an email already taken is answered as a sign-up would be, with nothing written.
 */
export function signUpPage(ctx: Context): FastifyPluginAsync {
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
          case 'checkbox': return html`<input${attrs} type="checkbox" value="true"${view.values[name] !== undefined ? html` checked` : ''}>`;
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
${control('email', 'email', t.email, (attrs) => html`<input${attrs} type="email" autocomplete="email" autocapitalize="none" spellcheck="false" required value="${value('email')}"${summary ? '' : html` autofocus`}>`)}
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

    /** The realm when its sign-up page works, or the 404 page sent. */
    async function openRealm(request: FastifyRequest, reply: FastifyReply, uid: string): Promise<Realm | null> {
      const realm = await findActiveRealm(ctx, uid);
      if (!realm || realm.activationMode === 'disabled') {
        pageNotFound(reply, realm);
        return null;
      }
      if (!signUpOpen(realm)) {
        // activation_email and invitation_only need the one-time link, not built yet.
        const t = pageTexts(request, realm);
        sendPage(reply, 404, {
          texts: t, title: t.signUpUnavailableTitle, realm,
          body: html`<p>${t.signUpUnavailable}</p>
<p><a href="${pagePath(realm, 'login')}">${t.signInExisting}</a></p>`,
        });
        return null;
      }
      return realm;
    }

    app.get('/realms/:realm_uid/signup', { schema: { ...hide, params: Params, querystring: RedirectQuery } }, async (request, reply) => {
      const realm = await openRealm(request, reply, request.params.realm_uid);
      if (!realm) return reply;
      const redirectUri = await safeRedirect(ctx, request.query.redirect_uri) ?? undefined;
      return formPage(request, reply, realm, await signUpFields(ctx, realm), 200, { redirectUri, values: {} });
    });

    app.post('/realms/:realm_uid/signup', { schema: { ...hide, params: Params, body: SignUpForm } }, async (request, reply) => {
      const realm = await openRealm(request, reply, request.params.realm_uid);
      if (!realm) return reply;
      const form: Record<string, string | undefined> = request.body ?? {};
      const fields = await signUpFields(ctx, realm);
      const view: View = { redirectUri: await safeRedirect(ctx, form.redirect_uri) ?? undefined, values: { ...form, password: '' } as Record<string, string> };
      const t = pageTexts(request, realm);
      if (!csrfMatches(request, form.csrf_token)) {
        return formPage(request, reply, realm, fields, 403, { ...view, error: t.formExpired });
      }
      const email = form.email?.trim() ?? '';
      if (!form.password) {
        return formPage(request, reply, realm, fields, 422, { ...view, errors: [{ field: 'password', messages: ["can't be blank"] }] });
      }
      const result = await signUp(ctx, realm, {
        email, username: form.username?.trim() || null, password: form.password,
        customFields: fields.map((field) => fieldInput(field, form[fieldName(field)])),
      }, fields);
      if (result.outcome === 'invalid') return formPage(request, reply, realm, fields, 422, { ...view, errors: result.errors });

      const done = (heading: string, text: Markup) => sendPage(reply, 200, { texts: t, title: heading, realm, body: text });
      switch (realm.activationMode) {
        case 'otp': {
          // Signing in with the code sent to the address is the confirmation; an address already taken gets a code for its own account.
          await requestCode(ctx, realm, email, t.locale);
          rememberIdentifier(reply, realm, email, realm.otpCodeValidityMinutes, secureCookies(ctx));
          return reply.header('cache-control', 'no-store').redirect(withRedirect(pagePath(realm, 'otp_code'), view.redirectUri), 303);
        }
        case 'moderated':
          return done(t.signUpThanks, html`<p class="notice">${t.signUpModerated}</p>`);
        default:
          if (result.outcome === 'created') {
            const session = await startRealmSession(ctx, realm, result.user.id);
            setSessionCookie(ctx, reply, realm.uid, session.secret);
            return reply.code(303).header('cache-control', 'no-store').redirect(view.redirectUri ?? pagePath(realm, 'profile'), 303);
          }
          // The address has an account: no session, and nothing says whether the account is new.
          return done(t.checkEmailTitle, html`<p class="notice">${t.signUpEmailTaken}</p>
<p><a href="${withRedirect(pagePath(realm, 'login'), view.redirectUri)}">${t.signIn}</a></p>`);
      }
    });
  };
}
