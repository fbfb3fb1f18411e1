import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { forbidden, noSessionToEnd, unsupportedMediaType } from '../../errors/index.js';
import { ref, useModels } from '../../http/models.js';
import { failures, NoContent } from '../../http/responses.js';
import { ADMIN_SESSION_COOKIE, adminOf } from '../guard.js';
import { EffectivePermissionsModel, PasskeyRequestOptionsModel, SecondFactorInput, SessionInput, SessionModel, SignInRefusedModel, TeamMemberModel } from '../schema.js';
import { CHALLENGE_MINUTES, completeSignIn, sessionDetails, signIn, signOut, type SignedIn } from '../sessions.js';
import { teamMemberById } from '../team.js';

const tags = ['Session'];

/**
 * Login CSRF: a page of another site must not sign the visitor's browser in to an account of the attacker's
 * (whatever the console then saved would be theirs). A form post needs no preflight, so only JSON is taken;
 * a browser's fetch from another site says so in Sec-Fetch-Site. Clients that send no such header (curl, SDKs) pass.
 */
async function refuseCrossSiteSignIn(request: FastifyRequest): Promise<void> {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') throw forbidden('Sign-in is accepted only from this site');
  const type = request.headers['content-type']?.split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') throw unsupportedMediaType('Sign in with a JSON body (Content-Type: application/json)');
}

export function sessionRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, TeamMemberModel, EffectivePermissionsModel, SessionModel, PasskeyRequestOptionsModel, SignInRefusedModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const secure = ctx.config.baseUrl.startsWith('https:');
    const refused = { ...ref(SignInRefusedModel), description: 'A wrong email, password or code; or a right password of a member with a second factor (`ATR_SECOND_FACTOR_REQUIRED`, with the `challenge`)' };

    /** Sets the session cookie and answers the session, as both steps of a sign-in end. */
    const signedIn = (reply: FastifyReply, session: SignedIn) => {
      reply.setCookie(ADMIN_SESSION_COOKIE, session.sessionId, {
        path: '/', httpOnly: true, sameSite: 'lax', secure, expires: session.expiresAt,
      });
      return {
        admin: session.admin, csrf_token: session.csrfToken, credential: 'session' as const,
        expires_at: session.expiresAt.toISOString(), permissions: session.permissions,
        ...(session.enrolmentOnly ? { second_factor_enrolment_required: true } : {}),
      };
    };

    app.post('/session', {
      config: { access: 'public', audit: 'own' },
      schema: {
        tags, summary: 'Sign in', security: [],
        description: 'Signs a team member in with email and password and sets the admin session cookie (HttpOnly, SameSite=Lax). '
          + 'Unsafe requests made with the cookie must carry the returned `csrf_token` in the X-CSRF-Token header. '
          + 'Ten failed sign-ins lock the member for 15 minutes (429, with `Retry-After` in seconds). JSON only (415 for a form post), and 403 when the browser says '
          + 'the request comes from another site (`Sec-Fetch-Site`), so that no other site can sign a browser in to its own account. '
          + `A member with a second factor gets a 401 \`ATR_SECOND_FACTOR_REQUIRED\` with a \`challenge\` (valid ${CHALLENGE_MINUTES} minutes) instead, `
          + 'for `POST /session/second_factor`, with `webauthn_options` when the member has a passkey. When the account requires a second factor and the member has none, the session can only set one up '
          + '(`second_factor_enrolment_required`; every other operation answers 403 `ATR_SECOND_FACTOR_ENROLMENT`).',
        body: SessionInput,
        response: { 200: ref(SessionModel), 401: refused, ...failures(403, 415, 422, 429) },
      },
      preValidation: refuseCrossSiteSignIn,
    }, async (request, reply) => signedIn(reply, await signIn(ctx, request.body.email, request.body.password, request.ip)));

    app.post('/session/second_factor', {
      config: { access: 'public', audit: 'own' },
      schema: {
        tags, summary: 'Finish signing in with a second factor', security: [],
        description: 'The second step of `POST /session` for a member with a second factor: the `challenge` and either `totp` (the code the '
          + 'authenticator app shows now; each code works once), `webauthn` (a passkey\'s answer to the `webauthn_options` of the challenge) or `recovery_code` (each works once). Sets the session cookie and answers as `POST /session`. '
          + 'A wrong code is 401 and can be retried with the same challenge; ten wrong codes lock the member for 15 minutes (429, with `Retry-After`). '
          + 'An unknown, used or expired challenge is 401 `ATR_SIGN_IN_CHALLENGE_EXPIRED`: sign in with the password again. Bearer tokens never need this step.',
        body: SecondFactorInput,
        response: { 200: ref(SessionModel), 401: refused, ...failures(403, 415, 422, 429) },
      },
      preValidation: refuseCrossSiteSignIn,
    }, async (request, reply) => signedIn(reply, await completeSignIn(ctx, request.body, request.ip)));

    app.get('/session', {
      config: { access: 'signed-in', enrolment: true },
      schema: {
        tags, summary: 'Current team member',
        description: 'The team member behind the credential of this request (session cookie or access token), what it may do '
          + '(`permissions`), and for a session its `csrf_token` (the same as at sign-in, so a reloaded page gets it back) and `expires_at`.',
        response: { 200: ref(SessionModel), ...failures(401) },
      },
    }, async (request) => {
      const principal = adminOf(request);
      const session = await sessionDetails(ctx, principal, request.cookies[ADMIN_SESSION_COOKIE] ?? '');
      return {
        admin: await teamMemberById(ctx, principal.adminId),
        ...(session ? { csrf_token: session.csrfToken } : {}),
        credential: session ? 'session' as const : 'access_token' as const,
        expires_at: session ? session.expiresAt.toISOString() : null,
        permissions: principal.effectivePermissions(),
        ...(session?.enrolmentOnly ? { second_factor_enrolment_required: true } : {}),
      };
    });

    app.delete('/session', {
      config: { access: 'signed-in', audit: 'own', enrolment: true },
      schema: {
        tags, summary: 'Sign out',
        description: 'Ends the admin session and clears its cookie, then sends a GET to the logout URL of every API access '
          + 'application (spec 5.1), without waiting for them. A request made with an access token has no session to end: '
          + 'it is answered 409 and no application is called.',
        response: { 204: NoContent, ...failures(401, 403, 409) },
      },
    }, async (request, reply) => {
      const principal = adminOf(request);
      if (principal.sessionId === null) throw noSessionToEnd();
      await signOut(ctx, principal, request.ip);
      reply.clearCookie(ADMIN_SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
      return reply.code(204).send(null);
    });
  };
}
