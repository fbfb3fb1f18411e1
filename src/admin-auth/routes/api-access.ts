import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { Id, ref, useModels } from '../../http/models.js';
import { ListQuery } from '../../http/list-query.js';
import { listOf, metaOf, pageOf, PageQuery } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { acting } from '../guard.js';
import { AccessTokenInput, AccessTokenModel, ApplicationInput, ApplicationModel, IdParam } from '../schema.js';
import {
  APPLICATION_SORTABLE, createAccessToken, createApplication, deleteAccessToken, deleteApplication, getApplication, listAccessTokens,
  listApplications, updateApplication,
} from '../api-access.js';

const tags = ['API access'];

export function apiAccessRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, ApplicationModel, AccessTokenModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/api_access/applications', {
      config: { access: 'api_access.manage' },
      schema: {
        tags, summary: 'List API access applications',
        querystring: ListQuery({ searched: 'the name or Application ID (uid)', sortable: APPLICATION_SORTABLE, by: 'updated_at', order: 'desc' }),
        response: { 200: listOf('applications', ref(ApplicationModel)), ...failures(401, 403) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listApplications(acting(ctx, request), page, request.query);
      return { applications: items, meta: metaOf(total, page) };
    });

    app.get('/api_access/applications/:id', {
      config: { access: 'api_access.manage' },
      schema: { tags, summary: 'Show an application', params: IdParam, response: { 200: ref(ApplicationModel), ...failures(401, 403, 404) } },
    }, async (request) => getApplication(acting(ctx, request), request.params.id));

    app.post('/api_access/applications', {
      config: { access: 'api_access.manage' },
      schema: {
        tags, summary: 'Register an application',
        description: 'Generates the Application ID (`uid`) and the Secret; the secret is shown in this answer only. The callback URL equals the redirect URI.',
        body: ApplicationInput, response: { 201: ref(ApplicationModel), ...failures(401, 403, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createApplication(acting(ctx, request), request.body)));

    app.put('/api_access/applications/:id', {
      config: { access: 'api_access.manage' },
      schema: {
        tags, summary: 'Change an application', params: IdParam, body: ApplicationInput,
        response: { 200: ref(ApplicationModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateApplication(acting(ctx, request), request.params.id, request.body));

    app.delete('/api_access/applications/:id', {
      config: { access: 'api_access.manage' },
      schema: {
        tags, summary: 'Delete an application',
        description: 'Revokes every access token issued for it: 403 when one of them belongs to a member whose tokens you may not '
          + 'revoke (one holding permissions you lack, or an owner when you are not one).',
        params: IdParam, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await deleteApplication(acting(ctx, request), request.params.id);
      return reply.code(204).send(null);
    });

    app.get('/team_members/:id/access_tokens', {
      config: { access: 'team.manage' },
      schema: {
        tags, summary: 'List a team member\'s access tokens', description: 'Token values are never shown again.',
        params: IdParam, querystring: Type.Object(PageQuery),
        response: { 200: listOf('access_tokens', ref(AccessTokenModel)), ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listAccessTokens(acting(ctx, request), request.params.id, page);
      return { access_tokens: items, meta: metaOf(total, page) };
    });

    app.post('/team_members/:id/access_tokens', {
      config: { access: 'team.manage' },
      schema: {
        tags, summary: 'Add an access token',
        description: 'A token for this team member and one application. It acts with the member\'s roles; its value is shown in this answer only.',
        params: IdParam, body: AccessTokenInput, response: { 201: ref(AccessTokenModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createAccessToken(acting(ctx, request), request.params.id, request.body.application_id)));

    app.delete('/team_members/:id/access_tokens/:token_id', {
      config: { access: 'team.manage' },
      schema: {
        tags, summary: 'Revoke an access token',
        params: Type.Object({ id: Id(), token_id: Id() }),
        response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await deleteAccessToken(acting(ctx, request), request.params.id, request.params.token_id);
      return reply.code(204).send(null);
    });
  };
}
