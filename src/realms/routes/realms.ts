import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { ref, useModels } from '../../http/models.js';
import { ListQuery } from '../../http/list-query.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { RealmBrandingModel, RealmInput, RealmModel, RealmSettingsModel, RealmUidParam } from '../schema.js';
import { createRealm, deleteRealm, listRealms, REALM_SORTABLE, realmBody, updateRealm } from '../realms.js';

const tags = ['Realms'];

export function realmRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, RealmBrandingModel, RealmSettingsModel, RealmModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/realms', {
      config: { access: 'realms.read' },
      schema: {
        tags, summary: 'List realms',
        description: 'The realms the credential\'s roles reach: all of them for account roles, the targeted ones for realm roles.',
        querystring: ListQuery({ searched: 'the uid or name', sortable: REALM_SORTABLE, by: 'updated_at', order: 'desc' }),
        response: { 200: listOf('realms', ref(RealmModel)), ...failures(401, 403) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listRealms(acting(ctx, request), page, request.query);
      return { realms: items, meta: metaOf(total, page) };
    });

    app.get('/realms/:realm_uid', {
      config: { access: 'realms.read', target: 'realm_uid' },
      schema: { tags, summary: 'Show a realm', params: RealmUidParam, response: { 200: ref(RealmModel), ...failures(401, 403, 404) } },
    }, async (request) => realmBody(request.realm));

    app.post('/realms', {
      config: { access: 'realms.manage' },
      schema: {
        tags, summary: 'Create a realm',
        description: 'Needs `uid` and `name`. Settings left out take their defaults. Creating a realm needs `realms.manage` '
          + 'from an account role: a realm role reaches only its own realm.',
        body: RealmInput, response: { 201: ref(RealmModel), ...failures(401, 403, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createRealm(acting(ctx, request), request.body)));

    app.put('/realms/:realm_uid', {
      config: { access: 'realms.manage', target: 'realm_uid' },
      schema: {
        tags, summary: 'Change a realm',
        description: 'Partial: attributes and settings left out keep their value. A new uid is followed by the role assignments that named the old one. '
          + 'Setting `custom_domain` needs `realms.manage` from an account role (every realm\'s pages trust it as a redirect target).',
        params: RealmUidParam, body: RealmInput, response: { 200: ref(RealmModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateRealm(acting(ctx, request), request.realm, request.body));

    app.delete('/realms/:realm_uid', {
      config: { access: 'realms.manage', target: 'realm_uid' },
      schema: {
        tags, summary: 'Delete a realm',
        description: 'Deletes the realm with its users, sessions, custom fields, OAuth clients and events, and the role assignments that named it.',
        params: RealmUidParam, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await deleteRealm(acting(ctx, request), request.realm);
      return reply.code(204).send(null);
    });
  };
}
