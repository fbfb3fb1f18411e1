import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../context.js';
import { findActiveRealm, hostOf, type Realm } from '../realms/realms.js';
import { safeRedirect } from '../realms/redirects.js';
import { html, pageErrorHandler, pageNotFound, sendPage, type Markup } from '../realms/pages/html.js';
import { pagePath, withRedirect } from '../realms/pages/paths.js';
import { secureCookies, setSessionCookie } from '../realms/pages/session-cookie.js';
import { signInDelegated, type DelegatedOutcome } from './accounts.js';
import { exchange, FLOW_COOKIE, FLOW_MINUTES, openFlow, sealFlow, startFlow, stateMatches } from './flow.js';
import type { IdentityProvider } from './provider.js';
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
export function delegationButton(realm: Realm, provider: IdentityProvider | undefined, redirectUri: string | undefined): Markup | '' {
  if (!provider) return '';
  return html`<form method="get" action="${pagePath(realm, 'delegated_login')}">
${redirectUri ? html`<input type="hidden" name="redirect_uri" value="${redirectUri}">` : ''}
<button type="submit">Sign in with ${provider.buttonLabel}</button>
</form>`;
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
    function problem(reply: FastifyReply, realm: Realm, status: number, message: string, redirectUri?: string | null, details: string[] = []) {
      return sendPage(reply, status, {
        title: 'Sign-in not completed', realmName: realm.name,
        body: html`<p class="alert" role="alert">${message}</p>
${details.length ? html`<ul>${details.map((d) => html`<li>${d}</li>`)}</ul>` : ''}
<p><a href="${withRedirect(pagePath(realm, 'login'), redirectUri ?? undefined)}">Back to sign-in</a></p>`,
      });
    }

    const unavailable = (reply: FastifyReply, realm: Realm, provider: IdentityProvider, redirectUri?: string | null) =>
      problem(reply, realm, 502, `${provider.buttonLabel} is not answering at the moment. Try again later, or sign in with your password.`, redirectUri);

    app.get('/realms/:realm_uid/delegated_login', { schema: { ...hide, params: Params, querystring: StartQuery } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      const provider = realm && await findIdentityProvider(ctx, realm.id);
      if (!realm || !provider) return pageNotFound(reply);
      const redirectUri = await safeRedirect(ctx, request.query.redirect_uri);
      let started;
      try {
        started = await startFlow(ctx, provider, callbackUrl(ctx, realm, request), redirectUri);
      } catch (err) {
        request.log.warn({ realm: realm.uid, reason: reasonOf(err) }, 'identity provider discovery failed');
        return unavailable(reply, realm, provider, redirectUri);
      }
      reply.setCookie(FLOW_COOKIE, sealFlow(ctx, realm, started.flow), { ...flowCookieOptions(ctx, realm), maxAge: FLOW_MINUTES * 60 });
      return reply.header('cache-control', 'no-store').redirect(started.location, 303);
    });

    app.get('/realms/:realm_uid/delegated_login/callback', { schema: { ...hide, params: Params, querystring: CallbackQuery } }, async (request, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return pageNotFound(reply);
      const flow = openFlow(ctx, realm, request.cookies[FLOW_COOKIE]);
      if (!flow) {
        return problem(reply, realm, 400, 'This sign-in has expired or was started in another browser. Start again from the sign-in page.');
      }
      // Not this browser's flow (a forged or crossed answer): the flow itself is left for its own answer.
      if (!stateMatches(flow, request.query.state)) {
        return problem(reply, realm, 400, 'This sign-in answer does not belong to the sign-in started in this browser. Start again from the sign-in page.', flow.redirectUri);
      }
      const ended = () => reply.clearCookie(FLOW_COOKIE, flowCookieOptions(ctx, realm));
      const provider = await findIdentityProvider(ctx, realm.id);
      if (!provider || provider.issuer !== flow.issuer) {
        ended();
        return problem(reply, realm, 409, 'The sign-in service of this realm changed while you were signing in. Start again from the sign-in page.', flow.redirectUri);
      }
      const error = request.query.error;
      if (error !== undefined) {
        ended();
        return error === 'access_denied'
          ? problem(reply, realm, 403, `You are not signed in: ${provider.buttonLabel} did not allow the sign-in, or it was cancelled.`, flow.redirectUri)
          : problem(reply, realm, 400, `${provider.buttonLabel} could not sign you in (${error.slice(0, 100)}).`, flow.redirectUri);
      }
      const query = new URL(request.url, 'http://callback').search;
      const result = await exchange(ctx, provider, flow, query);
      ended();
      if (!result.ok) {
        request.log.warn({ realm: realm.uid, reason: result.reason }, 'a delegated sign-in was refused');
        return problem(reply, realm, 400, `The answer of ${provider.buttonLabel} could not be verified, so you are not signed in. Start again from the sign-in page.`, flow.redirectUri);
      }
      const outcome = await signInDelegated(ctx, realm, provider, flow, result.claims, result.tokens);
      if (outcome.kind === 'signed_in') {
        setSessionCookie(ctx, reply, realm.uid, outcome.session.secret);
        return reply.header('cache-control', 'no-store').redirect(flow.redirectUri ?? pagePath(realm, 'profile'), 303);
      }
      if (outcome.kind === 'pending') {
        return sendPage(reply, 200, {
          title: 'Account created', realmName: realm.name,
          body: html`<p class="notice" role="status">Your account was created. An administrator will activate it; then sign in with ${provider.buttonLabel} again.</p>`,
        });
      }
      return problem(reply, realm, outcome.status, refusalText(outcome, provider), flow.redirectUri, outcome.messages);
    });
  };
}

function refusalText(outcome: Extract<DelegatedOutcome, { kind: 'refused' }>, provider: IdentityProvider): string {
  switch (outcome.reason) {
    case 'replayed': return 'This sign-in was already used. Start again from the sign-in page.';
    case 'inactive': return 'Your account is not active. If you just signed up, an administrator has yet to activate it.';
    case 'sign_up_closed': return `No account of this realm is linked to your ${provider.buttonLabel} account, and this realm does not take new accounts here.`;
    case 'no_verified_email': return `Your ${provider.buttonLabel} account did not give a verified email address, which this realm needs to find or create your account.`;
    case 'linked_elsewhere': return `The account with this email address is already linked to another ${provider.buttonLabel} account.`;
    case 'invalid': return 'Your account could not be created:';
  }
}
