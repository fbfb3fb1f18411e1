import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { acting } from '../../admin-auth/guard.js';
import type { Context } from '../../context.js';
import { Id, ref, useModels } from '../../http/models.js';
import { ListQuery } from '../../http/list-query.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { createCustomField, CUSTOM_FIELD_SORTABLE, deleteCustomField, listCustomFields, MAX_CUSTOM_FIELDS, updateCustomField } from '../custom-fields.js';
import { CustomFieldInput, CustomFieldModel, RealmUidParam } from '../schema.js';

const tags = ['Realm settings'];
const FieldParams = Type.Object({ realm_uid: Type.String(), id: Id() });

export function customFieldRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, CustomFieldModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/customers/:realm_uid/custom_fields', {
      config: { access: 'realms.read', target: 'realm_uid' },
      schema: {
        tags, summary: 'List the custom fields of a realm', description: 'In creation order (the order users\' values follow) unless `sort_by` says otherwise.',
        params: RealmUidParam, querystring: ListQuery({ searched: 'the key or name', sortable: CUSTOM_FIELD_SORTABLE, by: 'id', order: 'asc' }),
        response: { 200: listOf('custom_fields', ref(CustomFieldModel)), ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const realm = request.realm;
      const page = pageOf(request.query);
      const { items, total } = await listCustomFields(acting(ctx, request), realm, page, request.query);
      return { custom_fields: items, meta: metaOf(total, page) };
    });

    app.post('/customers/:realm_uid/custom_fields', {
      config: { access: 'realms.manage', target: 'realm_uid' },
      schema: {
        tags, summary: 'Create a custom field',
        description: `Needs key, name and type; dropdown and choice fields need options. At most ${MAX_CUSTOM_FIELDS} per realm (422 beyond).`,
        params: RealmUidParam, body: CustomFieldInput, response: { 201: ref(CustomFieldModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => {
      const realm = request.realm;
      return reply.code(201).send(await createCustomField(acting(ctx, request), realm, request.body));
    });

    app.put('/customers/:realm_uid/custom_fields/:id', {
      config: { access: 'realms.manage', target: 'realm_uid' },
      schema: {
        tags, summary: 'Change a custom field',
        description: 'Partial. A new key carries the users\' values along; a new type or options must fit the values users hold; '
          + '`unique` can be set only while no two users share a value.',
        params: FieldParams, body: CustomFieldInput, response: { 200: ref(CustomFieldModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateCustomField(acting(ctx, request), request.realm, request.params.id, request.body));

    app.delete('/customers/:realm_uid/custom_fields/:id', {
      config: { access: 'realms.manage', target: 'realm_uid' },
      schema: {
        tags, summary: 'Delete a custom field', description: 'Every user\'s value of the field goes with it.',
        params: FieldParams, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await deleteCustomField(acting(ctx, request), request.realm, request.params.id);
      return reply.code(204).send(null);
    });
  };
}
