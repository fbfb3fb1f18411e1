import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { acting } from '../../admin-auth/guard.js';
import type { Context } from '../../context.js';
import { ref, useModels } from '../../http/models.js';
import { ListQuery } from '../../http/list-query.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { RealmUidParam } from '../../realms/schema.js';
import { createOrigination, deleteOrigination, getOrigination, listOriginations, ORIGINATION_SORTABLE, updateOrigination } from '../definitions.js';
import { createGroup, deleteGroup, getGroup, GROUP_SORTABLE, listGroups, updateGroup } from '../groups.js';
import {
  GroupChanges, GroupInput, GroupModel, GroupParams, LIMITS, OriginationChanges, OriginationInput, OriginationModel, OriginationParams, QuestionModel,
} from '../schema.js';

const tags = ['Originations'];

const STRUCTURE = `Steps hold ordered tasks of type input (a form: questions of type text, number, date, choice or file), pending_review, `
  + `validation or confirmation; an input task asks at least one question, other tasks none. At most ${LIMITS.steps} steps, `
  + `${LIMITS.tasksPerStep} tasks per step, ${LIMITS.questionsPerTask} questions per task; deadline_days 1 to ${LIMITS.deadlineDays} or null.`;

/** Admin catalog: a realm's originations and reviewer groups. */
export function originationRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, QuestionModel, OriginationModel, GroupModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/customers/:realm_uid/originations', {
      config: { access: 'realm.originations.read', target: 'realm_uid' },
      schema: {
        tags, summary: 'List the originations of a realm',
        params: RealmUidParam,
        querystring: ListQuery({ searched: 'the name', sortable: ORIGINATION_SORTABLE, by: 'updated_at', order: 'desc' }),
        response: { 200: listOf('originations', ref(OriginationModel)), ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listOriginations(acting(ctx, request), request.realm, page, request.query);
      return { originations: items, meta: metaOf(total, page) };
    });

    app.post('/customers/:realm_uid/originations', {
      config: { access: 'realm.originations.manage', target: 'realm_uid' },
      schema: {
        tags, summary: 'Create an origination', description: `${STRUCTURE} Tasks get a \`uid\`, questions an integer \`id\` (the \`question_id\` of uploads).`,
        params: RealmUidParam, body: OriginationInput, response: { 201: ref(OriginationModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => {
      const realm = request.realm;
      return reply.code(201).send(await createOrigination(acting(ctx, request), realm, request.body));
    });

    app.get('/customers/:realm_uid/originations/:id', {
      config: { access: 'realm.originations.read', target: 'realm_uid' },
      schema: { tags, summary: 'Show an origination', params: OriginationParams, response: { 200: ref(OriginationModel), ...failures(401, 403, 404) } },
    }, async (request) => getOrigination(acting(ctx, request), request.realm, request.params.id));

    app.put('/customers/:realm_uid/originations/:id', {
      config: { access: 'realm.originations.manage', target: 'realm_uid' },
      schema: {
        tags, summary: 'Change an origination',
        description: `Partial. \`steps\`, when given, is the whole new structure: a task named by its \`uid\` and a question by its \`id\` `
          + `are kept (answers and uploads stay with them), others are added, and those left out removed (their responses are no longer `
          + `shown in submissions). A new deadline applies to submissions started afterwards. ${STRUCTURE}`,
        params: OriginationParams, body: OriginationChanges, response: { 200: ref(OriginationModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateOrigination(acting(ctx, request), request.realm, request.params.id, request.body));

    app.delete('/customers/:realm_uid/originations/:id', {
      config: { access: 'realm.originations.manage', target: 'realm_uid' },
      schema: {
        tags, summary: 'Delete an origination', description: 'Only one without submissions (409 otherwise): cancel them instead.',
        params: OriginationParams, response: { 204: NoContent, ...failures(401, 403, 404, 409) },
      },
    }, async (request, reply) => {
      await deleteOrigination(acting(ctx, request), request.realm, request.params.id);
      return reply.code(204).send(null);
    });

    app.get('/customers/:realm_uid/groups', {
      config: { access: 'realm.originations.read', target: 'realm_uid' },
      schema: {
        tags, summary: 'List the reviewer groups of a realm', description: 'By name unless `sort_by` says otherwise.',
        params: RealmUidParam, querystring: ListQuery({ searched: 'the name', sortable: GROUP_SORTABLE, by: 'name', order: 'asc' }), response: { 200: listOf('groups', ref(GroupModel)), ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listGroups(acting(ctx, request), request.realm, page, request.query);
      return { groups: items, meta: metaOf(total, page) };
    });

    const MEMBERS = 'Members are active team members who may review this realm\'s submissions (`realm.originations.review` on it); 422 otherwise.';

    app.post('/customers/:realm_uid/groups', {
      config: { access: 'realm.originations.manage', target: 'realm_uid' },
      schema: {
        tags, summary: 'Create a reviewer group', description: `Its name is unique in the realm regardless of case. ${MEMBERS}`,
        params: RealmUidParam, body: GroupInput, response: { 201: ref(GroupModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => {
      const realm = request.realm;
      return reply.code(201).send(await createGroup(acting(ctx, request), realm, request.body));
    });

    app.get('/customers/:realm_uid/groups/:id', {
      config: { access: 'realm.originations.read', target: 'realm_uid' },
      schema: { tags, summary: 'Show a reviewer group', params: GroupParams, response: { 200: ref(GroupModel), ...failures(401, 403, 404) } },
    }, async (request) => getGroup(acting(ctx, request), request.realm, request.params.id));

    app.put('/customers/:realm_uid/groups/:id', {
      config: { access: 'realm.originations.manage', target: 'realm_uid' },
      schema: {
        tags, summary: 'Change a reviewer group', description: `Partial; \`member_ids\`, when given, replaces the members. ${MEMBERS}`,
        params: GroupParams, body: GroupChanges, response: { 200: ref(GroupModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateGroup(acting(ctx, request), request.realm, request.params.id, request.body));

    app.delete('/customers/:realm_uid/groups/:id', {
      config: { access: 'realm.originations.manage', target: 'realm_uid' },
      schema: {
        tags, summary: 'Delete a reviewer group',
        description: 'Submissions assigned to the group become unassigned; those assigned to an admin picked from it stay with that admin.',
        params: GroupParams, response: { 204: NoContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      await deleteGroup(acting(ctx, request), request.realm, request.params.id);
      return reply.code(204).send(null);
    });
  };
}
