import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { notFound } from '../../errors/index.js';
import { handleError } from '../../http/errors.js';
import { findActiveRealm, findRealmByDomain, hostOf, onCustomDomain, type Realm } from '../../realms/realms.js';
import { realmCookieName } from '../../realms/sessions.js';
import { authorize, type AuthorizeQuery } from '../authorize.js';
import { presentedClient, type Form } from '../client-auth.js';
import { InvalidRequest } from '../errors.js';
import { metadataOf, openidConfigurationOf } from '../metadata.js';
import { currentSigningKey, publishedKeys } from '../signing-keys.js';
import { userInfo } from '../userinfo.js';
import { introspect } from '../introspect.js';
import { endSession } from '../end-session.js';
import { sendAuthorizeError, sendUnknownRealm } from '../page.js';
import { revokeToken } from '../revoke.js';
import { tokenRequest } from '../token.js';

const hide = { schema: { hide: true } };

type RealmRequest = FastifyRequest<{ Params: { realm_uid: string } }>;

/** The form of a token or revocation request: RFC 6749 says application/x-www-form-urlencoded. */
function formOf(request: FastifyRequest): Form {
  if (!request.headers['content-type']?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    throw new InvalidRequest('the request body must be application/x-www-form-urlencoded');
  }
  return (request.body ?? {}) as Form;
}

/** The OAuth 2.0 server of each realm (spec 4.4, 5.2): outside the catalogs, one of the oauth module's pages. */
export function oauthServerRoutes(ctx: Context): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler((error, request, reply) => {
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return handleError(error, request, reply);
    });

    async function runAuthorize(realm: Realm, request: FastifyRequest, reply: FastifyReply) {
      const outcome = await authorize(ctx, realm, request.query as AuthorizeQuery, request.cookies[realmCookieName(realm.uid)], request.url);
      if (outcome.kind === 'page') return sendAuthorizeError(reply, realm, outcome.problem);
      return reply.code(302).header('cache-control', 'no-store').redirect(outcome.location);
    }

    app.get('/realms/:realm_uid/oauth/authorize', hide, async (request: RealmRequest, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return sendUnknownRealm(reply);
      // Spec 4.4: a realm with its own domain authorizes there only.
      if (realm.customDomain && hostOf(request) !== realm.customDomain.toLowerCase()) {
        const q = request.url.indexOf('?');
        const search = q < 0 ? '' : request.url.slice(q);
        const protocol = new URL(ctx.config.baseUrl).protocol;
        return reply.code(302).redirect(`${protocol}//${realm.customDomain}/realms/oauth/authorize${search}`);
      }
      return runAuthorize(realm, request, reply);
    });

    app.get('/realms/oauth/authorize', hide, async (request, reply) => {
      const realm = await findRealmByDomain(ctx, hostOf(request));
      if (!realm) return sendUnknownRealm(reply);
      return runAuthorize(realm, request, reply);
    });

    app.post('/realms/:realm_uid/oauth/token', hide, async (request: RealmRequest, reply) => {
      if (await onCustomDomain(ctx, request)) throw notFound('Route');
      const form = formOf(request);
      const realm = form.grant_type === 'refresh_token' || form.grant_type === 'client_credentials' ? await findActiveRealm(ctx, request.params.realm_uid) : undefined;
      const answer = await tokenRequest(ctx, realm, request.params.realm_uid, form, () => presentedClient(request.headers.authorization, form));
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(answer);
    });

    app.post('/realms/:realm_uid/oauth/revoke', hide, async (request: RealmRequest, reply) => {
      if (await onCustomDomain(ctx, request)) throw notFound('Route');
      const form = formOf(request);
      await revokeToken(ctx, request.params.realm_uid, form, () => presentedClient(request.headers.authorization, form));
      return reply.header('cache-control', 'no-store').send({});
    });

    app.get('/.well-known/oauth-authorization-server/realms/:realm_uid', hide, async (request: RealmRequest, reply) => {
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) return handleError(notFound('Realm'), request, reply);
      return metadataOf(ctx, realm);
    });

    /** A realm with OpenID Connect enabled: its discovery document, keys and userinfo; 404 for any other. */
    async function openidRealm(request: RealmRequest): Promise<Realm> {
      if (await onCustomDomain(ctx, request)) throw notFound('Route');
      const realm = await findActiveRealm(ctx, request.params.realm_uid);
      if (!realm) throw notFound('Realm');
      if (!realm.openidConnectEnabled) throw notFound('Route');
      return realm;
    }

    app.get('/realms/:realm_uid/.well-known/openid-configuration', hide, async (request: RealmRequest) => {
      return openidConfigurationOf(ctx, await openidRealm(request));
    });

    app.get('/realms/:realm_uid/oauth/jwks', hide, async (request: RealmRequest, reply) => {
      const realm = await openidRealm(request);
      // Clients cache the keys; a rotation publishes the new key at once and keeps the old one an hour.
      await currentSigningKey(ctx, realm.id);
      return reply.header('cache-control', 'public, max-age=300').send(await publishedKeys(ctx, realm.id));
    });

    const userinfo = async (request: RealmRequest, reply: FastifyReply) => {
      const realm = await openidRealm(request);
      const header = request.headers.authorization;
      const bearer = header?.match(/^Bearer ([^\s]+)$/i)?.[1];
      return reply.header('cache-control', 'no-store').send(await userInfo(ctx, realm, bearer));
    };
    app.get('/realms/:realm_uid/oauth/userinfo', hide, userinfo);

    const logout = async (request: RealmRequest, reply: FastifyReply) => {
      const realm = await openidRealm(request);
      const outcome = await endSession(ctx, realm, { ...(request.query as object), ...(request.method === 'POST' ? request.body as object : {}) });
      if (outcome.kind === 'page') return sendAuthorizeError(reply, realm, outcome.problem);
      return reply.code(303).header('cache-control', 'no-store').redirect(outcome.location, 303);
    };
    app.get('/realms/:realm_uid/oauth/logout', hide, logout);
    app.post('/realms/:realm_uid/oauth/logout', hide, logout);

    app.post('/realms/:realm_uid/oauth/introspect', hide, async (request: RealmRequest, reply) => {
      await openidRealm(request);
      const form = formOf(request);
      const answer = await introspect(ctx, request.params.realm_uid, form, () => presentedClient(request.headers.authorization, form));
      return reply.header('cache-control', 'no-store').send(answer);
    });
    app.post('/realms/:realm_uid/oauth/userinfo', hide, userinfo);
  };
}
