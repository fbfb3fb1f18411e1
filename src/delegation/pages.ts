import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../context.js';
import { findActiveRealm, hostOf, type Realm } from '../realms/realms.js';
import { safeRedirect } from '../realms/redirects.js';
import type { FieldError } from '../errors/index.js';
import { fieldsOf, type CustomField } from '../realms/custom-fields.js';
import { html, pageErrorHandler, pageNotFound, sendPage, type Markup } from '../shared/html/layout.js';
import { fieldMessage, pageTexts, type Texts } from '../shared/html/messages.js';
import { pagePath, withRedirect } from '../shared/html/paths.js';
import { secureCookies, setSessionCookie } from '../realms/session-cookie.js';
import { signInDelegated } from './accounts.js';
import { exchange, FLOW_COOKIE, FLOW_MINUTES, openFlow, sealFlow, startFlow, stateMatches } from './flow.js';
import { reasonOf } from './provider.js';
import { callbackPath, findIdentityProvider } from './settings.js';

const Params = Type.Object({ realm_uid: Type.String() });
const StartQuery = Type.Object({ redirect_uri: Type.Optional(Type.String()) });
/** The provider's answer: `code`, `state` and `iss`, or `error`; read whole by openid-client. */
const CallbackQuery = Type.Object({
  state: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
}, { additionalProperties: Type.String() });

const hide = { hide: true };

/** The login page's button, when the realm has a provider: a form, so that it works without script. */
export async function delegationButton(ctx: Context, t: Texts, realm: Realm, redirectUri: string | undefined): Promise<Markup | ''> {
  const provider = await findIdentityProvider(ctx, realm.id);
  if (!provider) return '';
  return html`<form method="get" action="${pagePath(realm, 'delegated_login')}">
${redirectUri ? html`<input type="hidden" name="redirect_uri" value="${redirectUri}">` : ''}
<button type="submit">${t.signInWith(provider.buttonLabel)}</button>
</form>`;
}

/** Why a delegated sign-up could not create the user, one line per field, worded as the signup page words it. */
function fieldProblems(t: Texts, fields: CustomField[], details: FieldError[]): string[] {
  const labels: Record<string, string> = {
    email: t.email, username: t.username, first_name: t.firstName, last_name: t.lastName, second_last_name: t.secondLastName,
    ...Object.fromEntries(fields.map((field) => [`custom_fields.${field.key}`, field.name])),
  };
  return details.map((d) => t.fieldProblem(labels[d.field] ?? d.field, d.messages.map((m) => fieldMessage(t, m)).join(', ')));
}

/**
 * The redirect URI sent to the provider: the callback page on the host the visitor uses, the base
 * address or the realm's custom domain (both, when used, are registered at the provider).
 */
function callbackUrl(ctx: Context, realm: Realm, request: FastifyRequest): string {
  const base = new URL(ctx.config.baseUrl);
  const origin = realm.customDomain && hostOf(request) === realm.customDomain ? `${base.protocol}//${realm.customDomain}` : base.origin;
  return `${origin}${callbackPath(realm)}`;
}

const flowCookieOptions = (ctx: Context, realm: Realm) => ({
  path: pagePath(realm, 'delegated_login'), httpOnly: true, sameSite: 'lax' as const, secure: secureCookies(ctx),
});

/**
 * The delegated sign-in pages: `GET /realms/{uid}/delegated_login` starts the authorization code flow
 * with the realm's provider; the provider sends the browser back to `GET .../delegated_login/callback`.
 */
export function delegatedLoginPages(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    scope.setErrorHandler(pageErrorHandler);

    /** A page that ends the flow without signing in, with the way back to the login page. */
    function problem(reply: FastifyReply, t: Texts, realm: Realm, status: number, message: string, redirectUri?: string | null, details: string[] = []) {
      return sendPage(reply, status, {
        texts: t, title: t.errorTitle(t.delegationFailedTitle), realm,
        body: html`<p class="alert" role="alert">${message}</p>
${details.length ? html`<ul>${details.map((d) => html`<li>${d}</li>`)}</ul>` : ''}
<p><a href="${withRedirect(pagePath(realm, 'login'), redirectUri ?? undefined)}">${t.backToSignIn}</a></p>`,
      });
    }

    app.get('/realms/:realm_uid/delegated_login', { schema: { ...hide, params: Params, querystring: StartQuery } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      const provider = realm && await findIdentityProvider(ctx, realm.id);
      if (!realm || !provider) return pageNotFound(reply, realm);
      const redirectUri = await safeRedirect(ctx, request.query.redirect_uri);
      let started;
      try {
        started = await startFlow(ctx, provider, callbackUrl(ctx, realm, request), redirectUri);
      } catch (err) {
        request.log.warn({ realm: realm.uid, reason: reasonOf(err) }, 'identity provider discovery failed');
        const t = pageTexts(request, realm);
        return problem(reply, t, realm, 502, t.delegationUnavailable(provider.buttonLabel), redirectUri);
      }
      reply.setCookie(FLOW_COOKIE, sealFlow(ctx, realm, started.flow), { ...flowCookieOptions(ctx, realm), maxAge: FLOW_MINUTES * 60 });
      return reply.header('cache-control', 'no-store').redirect(started.location, 303);
    });

    app.get('/realms/:realm_uid/delegated_login/callback', { schema: { ...hide, params: Params, querystring: CallbackQuery } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const t = pageTexts(request, realm);
      const flow = openFlow(ctx, realm, request.cookies[FLOW_COOKIE]);
      if (!flow) return problem(reply, t, realm, 400, t.delegationExpired);
      // Not this browser's flow (a forged or crossed answer): the flow itself is left for its own answer.
      if (!stateMatches(flow, request.query.state)) return problem(reply, t, realm, 400, t.delegationNotThisBrowser, flow.redirectUri);
      const ended = () => reply.clearCookie(FLOW_COOKIE, flowCookieOptions(ctx, realm));
      const provider = await findIdentityProvider(ctx, realm.id);
      if (!provider || provider.issuer !== flow.issuer) {
        ended();
        return problem(reply, t, realm, 409, t.delegationProviderChanged, flow.redirectUri);
      }
      const label = provider.buttonLabel;
      const error = request.query.error;
      if (error !== undefined) {
        ended();
        return error === 'access_denied'
          ? problem(reply, t, realm, 403, t.delegationDenied(label), flow.redirectUri)
          : problem(reply, t, realm, 400, t.delegationProviderError(label, error.slice(0, 100)), flow.redirectUri);
      }
      const query = new URL(request.url, 'http://callback').search;
      const result = await exchange(ctx, provider, flow, query);
      ended();
      if (!result.ok) {
        request.log.warn({ realm: realm.uid, reason: result.reason }, 'a delegated sign-in was refused');
        return problem(reply, t, realm, 400, t.delegationUnverified(label), flow.redirectUri);
      }
      const outcome = await signInDelegated(ctx, realm, provider, flow, result.claims, result.tokens, { userAgent: request.headers['user-agent'] });
      if (outcome.kind === 'signed_in') {
        setSessionCookie(ctx, reply, realm.uid, outcome.session.secret);
        return reply.header('cache-control', 'no-store').redirect(flow.redirectUri ?? pagePath(realm, 'profile'), 303);
      }
      if (outcome.kind === 'pending') {
        return sendPage(reply, 200, {
          texts: t, title: t.delegationAccountCreatedTitle, realm,
          body: html`<p class="notice" role="status">${t.delegationPending(label)}</p>`,
        });
      }
      const details = outcome.details ? fieldProblems(t, await fieldsOf(ctx, realm.id), outcome.details) : [];
      return problem(reply, t, realm, outcome.status, t.delegationRefusals[outcome.reason](label), flow.redirectUri, details);
    });
  };
}
