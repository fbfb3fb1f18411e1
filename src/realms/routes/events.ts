import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { acting } from '../../admin-auth/guard.js';
import type { Context } from '../../context.js';
import { PERSONAL_ROUTE_NOTE } from '../../admin-auth/personal-data.js';
import { ref, useModels } from '../../http/models.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures } from '../../http/responses.js';
import { RealmUidParam, RealmUserParams } from '../schema.js';
import { findRealmUser } from '../users.js';
import { recordCustomEvent } from '../../events/custom.js';
import { listRealmEvents } from '../../events/log.js';
import { AdminEventModel, CustomEventInput, EventTypeList, EventTypeModel, EventTypeQuery, RealmEventQuery } from '../../events/schema.js';
import { CUSTOM_TYPES_MAX, eventTypesOf } from '../../events/types.js';

/** The realm's log for the administration, and custom events recorded through it. */
export function realmEventRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, AdminEventModel, EventTypeModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['Realm activity'];

    app.get('/customers/:realm_uid/events', {
      config: { access: 'realm.activity.read', target: 'realm_uid', personal: true },
      schema: {
        tags, summary: 'The business events of a realm',
        description: 'Newest first, with the user (id and email), whether an admin was impersonating the user (and who) and the '
          + 'properties. Filters combine: `type`, `user_id`, and the period [`from`, `to`). A malformed filter answers 422.' + PERSONAL_ROUTE_NOTE,
        params: RealmUidParam, querystring: RealmEventQuery,
        response: { 200: listOf('events', ref(AdminEventModel)), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => {
      const realm = request.realm;
      const page = pageOf(request.query);
      const { items, total } = await listRealmEvents(acting(ctx, request), realm, page, request.query);
      return { events: items, meta: metaOf(total, page) };
    });

    app.get('/customers/:realm_uid/event_types', {
      config: { access: 'segments.read', target: 'realm_uid' },
      schema: {
        tags, summary: 'The event types of a realm',
        description: 'What a segment condition on `events.<type>` can name: every built-in type, then the custom types the realm\'s '
          + `users have events of, by name (at most ${CUSTOM_TYPES_MAX}). Not paginated: a vocabulary, not a log.`,
        params: RealmUidParam, querystring: EventTypeQuery, response: { 200: EventTypeList, ...failures(401, 403, 404, 422) },
      },
    }, async (request) => ({ event_types: await eventTypesOf(acting(ctx, request), request.realm, request.query.locale) }));

    app.post('/customers/:realm_uid/users/:id/events', {
      config: { access: 'realm.activity.write', target: 'realm_uid', personal: true },
      schema: {
        tags, summary: 'Record a custom business event of a user',
        description: 'Appends an event of a custom type to the realm\'s log, at the server\'s now. The user sees it in GET /events '
          + 'of the customers API with an empty title. The names of the built-in types are refused (422).' + PERSONAL_ROUTE_NOTE,
        params: RealmUserParams, body: CustomEventInput,
        response: { 201: ref(AdminEventModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => {
      const realm = request.realm;
      const user = await findRealmUser(ctx.db, realm, request.params.id);
      return reply.code(201).send(await recordCustomEvent(acting(ctx, request), realm, user, request.body));
    });
  };
}

