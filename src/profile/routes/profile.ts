import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { ref, useModels } from '../../http/models.js';
import { metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { customerOf } from '../../customers/credential.js';
import { getMe, updateMe } from '../../customers/me.js';
import { credentialFailures, DelegatedTokenModel, MeInput, MeModel } from '../../customers/schema.js';
import { AvatarModel } from '../../realms/schema.js';
import { SessionListModel, SessionModel } from '../../realms/schema.js';
import { RealmQuery, SessionNotFound, SessionParams, SessionsQuery } from '../schema.js';
import { endUserSession, listUserSessions } from '../../realms/user-sessions.js';

const tags = ['Profile'];
const Query = Type.Object(RealmQuery);
const CREDENTIAL = 'A bearer token names its realm; with the realm session cookie instead, `realm_uid` names the realm (it may be '
  + 'left out when the browser holds the session cookie of one realm only). The credential failures are the customers API\'s.';

export function profileRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, AvatarModel, DelegatedTokenModel, MeModel, SessionModel, SessionListModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/me', {
      schema: {
        tags, summary: 'The signed-in user',
        description: `The same answer as the customers API's GET /realms/{realm_uid}/me. ${CREDENTIAL}`,
        querystring: Query, response: { 200: ref(MeModel), ...credentialFailures() },
      },
    }, (request) => getMe(ctx, customerOf(request)));

    app.put('/me', {
      schema: {
        tags, summary: 'Change the signed-in user\'s profile',
        description: 'The same operation as the customers API\'s PUT /realms/{realm_uid}/me (spec 4.3 rule 1): names, username, email '
          + 'and custom field values; custom fields not both visible and editable by users are dropped silently; invalid values of the '
          + 'other attributes answer 422 naming each; read-only attributes of GET /me may be sent back and are ignored. The email change is '
          + `pending until the link mailed to the new address is used (see the customers API's PUT /me). ${CREDENTIAL}`,
        querystring: Query, body: MeInput, response: { 200: ref(MeModel), ...credentialFailures(), ...failures(422, 429) },
      },
    }, async (request) => updateMe(ctx, customerOf(request), request.body));

    app.get('/sessions', {
      schema: {
        tags, summary: 'The signed-in user\'s active sessions',
        description: 'Every realm session of the user that is neither ended nor expired: the browsers signed in, with when each '
          + 'started and was last used (to the minute) and its user agent. OAuth access tokens are not listed: each lives as long '
          + 'as the session that authorized it, and ending that session ends them. `current` marks the session making the '
          + `request when its cookie is the credential. ${CREDENTIAL}`,
        querystring: SessionsQuery, response: { 200: ref(SessionListModel), ...credentialFailures() },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listUserSessions(ctx, customerOf(request).user.id, page, request.cookieSessionId);
      return { sessions: items, meta: metaOf(total, page) };
    });

    app.delete('/sessions/:id', {
      schema: {
        tags, summary: 'End one of the signed-in user\'s sessions',
        description: 'Signs that browser out: its cookie, and every OAuth access token it authorized, then answer 401 '
          + '`grant_expired`. Ending the current session signs this browser out. Only the user\'s own active sessions can be '
          + 'ended: another user\'s, an unknown id, or one already ended or expired answers 404 (so of simultaneous requests '
          + `for one session, one answers 204 and the others 404). ${CREDENTIAL}`,
        querystring: Query, params: SessionParams,
        response: { 204: NoContent, ...credentialFailures(), ...SessionNotFound, ...failures(422) },
      },
    }, async (request, reply) => {
      await endUserSession(ctx, customerOf(request).user.id, request.params.id);
      return reply.code(204).send(null);
    });
  };
}
