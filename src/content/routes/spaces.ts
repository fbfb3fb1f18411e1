import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { ref, useModels } from '../../http/models.js';
import { onlyOf, trimmed } from '../../http/only.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { ContentListQuery, SpaceInput, SpaceListItem, SpaceModel, SpaceUidParam, SpaceUpdate } from '../schema.js';
import { createSpace, deleteSpace, listSpaces, spaceBody, updateSpace } from '../spaces.js';

const tags = ['Content'];
const LOCALES = '`locales` are language tags (`en`, `es`, `pt-BR`), stored in their usual case; the default locale is always among them, first.';

/** Admin catalog: content spaces. */
export function spaceRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, SpaceModel, SpaceListItem);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/content/spaces', {
      config: { access: 'content.read' },
      schema: {
        tags, summary: 'List content spaces',
        description: 'The spaces the credential\'s roles reach: all of them for account roles, the targeted ones for space roles. '
          + '`only` trims each item to the attributes named.',
        querystring: ContentListQuery, response: { 200: listOf('spaces', ref(SpaceListItem)), ...failures(401, 403) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const only = onlyOf(request.query);
      const { items, total } = await listSpaces(acting(ctx, request), page, request.query);
      return { spaces: items.map((item) => trimmed(item, only)), meta: metaOf(total, page) };
    });

    app.get('/content/spaces/:space_uid', {
      config: { access: 'content.read', target: 'space_uid' },
      schema: { tags, summary: 'Show a content space', params: SpaceUidParam, response: { 200: ref(SpaceModel), ...failures(401, 403, 404) } },
    }, async (request) => spaceBody(request.space));

    app.post('/content/spaces', {
      config: { access: 'content.manage' },
      schema: {
        tags, summary: 'Create a content space',
        description: `Needs \`uid\`, \`name\` and \`default_locale\`. ${LOCALES} Creating a space needs \`content.manage\` from an `
          + 'account role: a space role reaches only its own space.',
        body: SpaceInput, response: { 201: ref(SpaceModel), ...failures(401, 403, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createSpace(acting(ctx, request), request.body)));

    app.put('/content/spaces/:space_uid', {
      config: { access: 'content.manage', target: 'space_uid' },
      schema: {
        tags, summary: 'Change a content space',
        description: `Partial: attributes left out keep their value; \`locales\` replaces the list. ${LOCALES} A locale some entry is `
          + 'written in cannot be removed (422). A new uid is followed by the role assignments that named the old one.',
        params: SpaceUidParam, body: SpaceUpdate, response: { 200: ref(SpaceModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateSpace(acting(ctx, request), request.space, request.body));

    app.delete('/content/spaces/:space_uid', {
      config: { access: 'content.manage', target: 'space_uid' },
      schema: {
        tags, summary: 'Delete a content space',
        description: 'Deletes the space with its types, entries and assets (and their files), and the role assignments that named it.',
        params: SpaceUidParam, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await deleteSpace(acting(ctx, request), request.space);
      return reply.code(204).send(null);
    });
  };
}
