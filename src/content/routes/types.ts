import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { ref, useModels } from '../../http/models.js';
import { onlyOf, trimmed } from '../../http/only.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { ContentListQuery, FieldModel, LIMITS, SpaceUidParam, TypeInput, TypeListItem, TypeModel, TypeParams, TypeUpdate } from '../schema.js';
import { createType, deleteType, listTypes, showType, updateType } from '../types/types.js';
import { queryPlan } from '../delivery/plan.js';
import { contentFailures, EntriesQuery, QueryErrorModel, QueryPlanModel } from '../delivery/schema.js';

const tags = ['Content'];
const FIELDS = `\`fields\`: at most ${LIMITS.fields}, with distinct identifier names (\`price\`, \`cover_image\`), each of type text, rich_text `
  + '(Markdown), integer, decimal, boolean, date, dropdown, checkbox, location, asset, entry or entries; `required`, `localized`, `sortable` and '
  + '`filterable` default to false; only text, integer, decimal, boolean, date and dropdown fields can be sortable, and those and asset '
  + 'and entry fields filterable (an index of the field is built in the background: `GET …/query_plan` tells when it is ready); `options` (1 to '
  + `${LIMITS.options} distinct choices) only for dropdown and checkbox fields.`;

/** Admin catalog: the content types of a space. */
export function typeRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, FieldModel, TypeModel, TypeListItem, QueryErrorModel, QueryPlanModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/content/spaces/:space_uid/types', {
      config: { access: 'content.read', target: 'space_uid' },
      schema: {
        tags, summary: 'List the content types of a space', description: '`only` trims each item to the attributes named.',
        params: SpaceUidParam, querystring: ContentListQuery,
        response: { 200: listOf('types', ref(TypeListItem)), ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const { space } = request;
      const page = pageOf(request.query);
      const only = onlyOf(request.query);
      const { items, total } = await listTypes(acting(ctx, request), space, page, request.query);
      return { types: items.map((item) => trimmed(item, only)), meta: metaOf(total, page) };
    });

    app.get('/content/spaces/:space_uid/types/:type_uid', {
      config: { access: 'content.read', target: 'space_uid' },
      schema: { tags, summary: 'Show a content type', params: TypeParams, response: { 200: ref(TypeModel), ...failures(401, 403, 404) } },
    }, async (request) => {
      const { space } = request;
      return showType(acting(ctx, request), space, request.params.type_uid);
    });

    app.post('/content/spaces/:space_uid/types', {
      config: { access: 'content.manage', target: 'space_uid' },
      schema: {
        tags, summary: 'Create a content type', description: `Needs \`uid\` (unique in the space) and \`name\`. ${FIELDS}`,
        params: SpaceUidParam, body: TypeInput, response: { 201: ref(TypeModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => {
      const { space } = request;
      return reply.code(201).send(await createType(acting(ctx, request), space, request.body));
    });

    app.put('/content/spaces/:space_uid/types/:type_uid', {
      config: { access: 'content.manage', target: 'space_uid' },
      schema: {
        tags, summary: 'Change a content type',
        description: `Partial: attributes left out keep their value; \`fields\` replaces the list (fields are matched by name). ${FIELDS} `
          + 'While the type has entries: a removed field\'s values are dropped from every entry; a new field cannot be required; a field '
          + 'cannot change its type or `localized`, become required, or lose a choice (422).',
        params: TypeParams, body: TypeUpdate, response: { 200: ref(TypeModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => {
      const { space } = request;
      return updateType(acting(ctx, request), space, request.params.type_uid, request.body);
    });

    app.delete('/content/spaces/:space_uid/types/:type_uid', {
      config: { access: 'content.manage', target: 'space_uid' },
      schema: {
        tags, summary: 'Delete a content type', description: 'Deletes the type with all its entries.',
        params: TypeParams, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      const { space } = request;
      await deleteType(acting(ctx, request), space, request.params.type_uid);
      return reply.code(204).send(null);
    });

    app.get('/content/spaces/:space_uid/types/:type_uid/query_plan', {
      config: { access: 'content.read', target: 'space_uid' },
      schema: {
        tags, summary: 'How a delivery list of the type would be read',
        description: 'Takes the query of `GET /api/content/spaces/{space_uid}/types/{type_uid}/entries` (its filters, order and page) and '
          + 'answers the database\'s plan for the page and for its count, as an anonymous reader\'s, without running them; `indexes` '
          + 'tells whether each filterable field\'s index is built yet.',
        params: TypeParams, querystring: EntriesQuery,
        response: { 200: ref(QueryPlanModel), 400: contentFailures[400], ...failures(401, 403, 404) },
      },
    }, async (request) => queryPlan(acting(ctx, request), request.space, request.params.type_uid, request.query));
  };
}
