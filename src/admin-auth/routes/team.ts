import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { ref, useModels } from '../../http/models.js';
import { ListQuery } from '../../http/list-query.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { acting } from '../guard.js';
import type { RoleTargets } from '../role-targets.js';
import { IdParam, TeamMemberCreate, TeamMemberModel, TeamMemberUpdate } from '../schema.js';
import { createTeamMember, deleteTeamMember, getTeamMember, listTeamMembers, TEAM_SORTABLE, updateTeamMember } from '../team.js';

const tags = ['Team'];

/** `targets` tells whether a realm or space role's target exists. */
export function teamRoutes(ctx: Context, targets: RoleTargets): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, TeamMemberModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/team_members', {
      config: { access: 'team.read' },
      schema: {
        tags, summary: 'List team members',
        querystring: ListQuery({ searched: 'the email, first name or last name', sortable: TEAM_SORTABLE, by: 'updated_at', order: 'desc' }),
        response: { 200: listOf('team_members', ref(TeamMemberModel)), ...failures(401, 403) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listTeamMembers(acting(ctx, request), page, request.query);
      return { team_members: items, meta: metaOf(total, page) };
    });

    app.get('/team_members/:id', {
      config: { access: 'team.read' },
      schema: { tags, summary: 'Show a team member', params: IdParam, response: { 200: ref(TeamMemberModel), ...failures(401, 403, 404) } },
    }, async (request) => getTeamMember(acting(ctx, request), request.params.id));

    app.post('/team_members', {
      config: { access: 'team.manage' },
      schema: {
        tags, summary: 'Create a team member',
        description: 'Needs email and password. Each role assignment names a role key and, for realm and space roles, the target uid.',
        body: TeamMemberCreate, response: { 201: ref(TeamMemberModel), ...failures(401, 403, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createTeamMember(acting(ctx, request), request.body, targets)));

    app.put('/team_members/:id', {
      config: { access: 'team.manage' },
      schema: {
        tags, summary: 'Change a team member',
        description: 'Partial: attributes left out keep their value. Setting `active` to false ends the member\'s sessions and tokens at once.',
        params: IdParam, body: TeamMemberUpdate, response: { 200: ref(TeamMemberModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateTeamMember(acting(ctx, request), request.params.id, request.body, targets));

    app.delete('/team_members/:id', {
      config: { access: 'team.manage' },
      schema: {
        tags, summary: 'Remove a team member', description: 'The last active owner cannot be removed (422).',
        params: IdParam, response: { 204: NoContent, ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => {
      await deleteTeamMember(acting(ctx, request), request.params.id);
      return reply.code(204).send(null);
    });
  };
}
