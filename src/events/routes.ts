import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../context.js';
import { PERSONAL_ROUTE_NOTE } from '../admin-auth/personal-data.js';
import { customerOf } from '../customers/credential.js';
import { credentialFailures } from '../customers/schema.js';
import { ref, useModels } from '../http/models.js';
import { listOf, metaOf, pageOf } from '../http/pagination.js';
import { failures } from '../http/responses.js';
import { requireRealm } from '../realms/realms.js';
import { RealmUidParam, RealmUserParams } from '../realms/schema.js';
import { recordCustomEvent } from './custom.js';
import { preferredLocale } from '../i18n/locale.js';
import { listRealmEvents, listUserEvents } from './log.js';
import { AdminEventModel, CustomEventInput, EventTypeList, EventTypeModel, RealmEventQuery, UserEventModel, UserEventQuery } from './schema.js';
import { CUSTOM_TYPES_MAX, eventTypesOf } from './types.js';

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
      const { items, total } = await listUserEvents(ctx, customerOf(request), page, request.query, preferredLocale(request.headers['accept-language']));
      reply.header('vary', 'Accept-Language');
      return { events: items, meta: metaOf(total, page) };
    });
  };
}

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
      const realm = await requireRealm(ctx, request.params.realm_uid);
      const page = pageOf(request.query);
      const { items, total } = await listRealmEvents(ctx, realm, page, request.query);
      return { events: items, meta: metaOf(total, page) };
    });

    app.get('/customers/:realm_uid/event_types', {
      config: { access: 'segments.read', target: 'realm_uid' },
      schema: {
        tags, summary: 'The event types of a realm',
        description: 'What a segment condition on `events.<type>` can name: every built-in type, then the custom types the realm\'s '
          + `users have events of, by name (at most ${CUSTOM_TYPES_MAX}). Not paginated: a vocabulary, not a log.`,
        params: RealmUidParam, response: { 200: EventTypeList, ...failures(401, 403, 404) },
      },
    }, async (request) => ({ event_types: await eventTypesOf(ctx, await requireRealm(ctx, request.params.realm_uid)) }));

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
      const realm = await requireRealm(ctx, request.params.realm_uid);
      return reply.code(201).send(await recordCustomEvent(ctx, realm, request.params.id, request.body));
    });
  };
}

