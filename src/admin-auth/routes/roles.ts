import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { useModels, ref } from '../../http/models.js';
import { ListQuery } from '../../http/list-query.js';
import { keptAnswers } from '../../http/kept-answers.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { acting } from '../guard.js';
import { IdParam, RoleInput, RoleModel, RolePermissionsModel } from '../schema.js';
import { CONTEXT_PERMISSIONS, PERMISSIONS, ROLE_CONTEXTS } from '../permissions.js';
import { createRole, deleteRole, getRole, listRoles, restoreRole, ROLE_SORTABLE, updateRole } from '../roles.js';

const tags = ['Roles'];

/** A page of the role list as answered, once per page listRoles keeps. */
const roleList = keptAnswers((kept: Awaited<ReturnType<typeof listRoles>>, page: number, perPage: number, offset: number) =>
  ({ roles: kept.items, meta: metaOf(kept.total, { page, perPage, offset }) }));

export function roleRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, RoleModel, RolePermissionsModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/roles', {
      config: { access: 'roles.read' },
      schema: {
        tags, summary: 'List roles',
        description: 'The fifteen built-in roles and the custom ones, in creation order unless `sort_by` says otherwise.',
        querystring: ListQuery({ searched: 'the key or name', sortable: ROLE_SORTABLE, by: 'id', order: 'asc' }),
        response: { 200: listOf('roles', ref(RoleModel)), ...failures(401, 403) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      return roleList(await listRoles(acting(ctx, request), page, request.query), page.page, page.perPage, page.offset);
    });

    app.get('/roles/permissions', {
      config: { access: 'roles.read' },
      schema: {
        tags, summary: 'The permissions a role may carry, by context',
        description: 'An account role may carry every permission; a realm, space or site role reaches one target and carries only '
          + 'those that make sense there. POST and PUT /roles answer 422 for any other.',
        response: { 200: ref(RolePermissionsModel), ...failures(401, 403) },
      },
    }, async () => ({
      contexts: ROLE_CONTEXTS.map((context) => ({
        context, permissions: CONTEXT_PERMISSIONS[context].map((key) => ({ key, description: PERMISSIONS[key] })),
      })),
    }));

    app.get('/roles/:id', {
      config: { access: 'roles.read' },
      schema: { tags, summary: 'Show a role', params: IdParam, response: { 200: ref(RoleModel), ...failures(401, 403, 404) } },
    }, async (request) => getRole(acting(ctx, request), request.params.id));

    app.post('/roles', {
      config: { access: 'roles.manage' },
      schema: {
        tags, summary: 'Create a custom role', body: RoleInput,
        response: { 201: ref(RoleModel), ...failures(401, 403, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createRole(acting(ctx, request), request.body)));

    app.put('/roles/:id', {
      config: { access: 'roles.manage' },
      schema: {
        tags, summary: 'Change a role', description: 'Name and permissions; the owner role cannot be edited.',
        params: IdParam, body: RoleInput, response: { 200: ref(RoleModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateRole(acting(ctx, request), request.params.id, request.body));

    app.delete('/roles/:id', {
      config: { access: 'roles.manage' },
      schema: {
        tags, summary: 'Delete a custom role', description: 'Built-in roles cannot be deleted (422); their assignments go with a custom role.',
        params: IdParam, response: { 204: NoContent, ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => {
      await deleteRole(acting(ctx, request), request.params.id);
      return reply.code(204).send(null);
    });

    app.post('/roles/:id/restore', {
      config: { access: 'roles.manage' },
      schema: {
        tags, summary: 'Restore a built-in role', description: 'Puts back the built-in name and permissions.',
        params: IdParam, response: { 200: ref(RoleModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => restoreRole(acting(ctx, request), request.params.id));
  };
}
