import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { userEventPage } from '../../events/log.js';
import { UserEventModel, UserEventQuery } from '../../events/schema.js';
import { ref, useModels } from '../../http/models.js';
import { listOf, pageOf } from '../../http/pagination.js';
import { preferredLocale } from '../../i18n/locale.js';
import { RealmUidParam } from '../../realms/schema.js';
import { customerOf } from '../credential.js';
import { credentialFailures } from '../schema.js';

/** GET /events of the customers API (spec 4.3 rules 2-3, 2.8). */
export function userEventRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, UserEventModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/realms/:realm_uid/events', {
      schema: {
        tags: ['Events'], summary: 'The signed-in user\'s business events',
        description: 'Only the user\'s own events, newest first by default. `title` is the event type\'s name in the language '
          + '`Accept-Language` prefers among English (the default) and Spanish (weights honoured, `es-MX` counts as Spanish), '
          + 'and empty for events of custom types; `description` names the realm. `per_page` is at most 100.',
        params: RealmUidParam, querystring: UserEventQuery,
        response: { 200: listOf('events', ref(UserEventModel)), ...credentialFailures() },
      },
    }, async (request, reply) => {
      const page = pageOf(request.query);
      const body = await userEventPage(ctx, customerOf(request), page, request.query, preferredLocale(request.headers['accept-language']));
      return reply.header('vary', 'Accept-Language').type('application/json; charset=utf-8').send(body);
    });
  };
}
