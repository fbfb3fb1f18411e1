import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { ref, useModels } from '../../http/models.js';
import { ListQuery } from '../../http/list-query.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures } from '../../http/responses.js';
import { RealmUserParams } from '../../realms/schema.js';
import { assignSubmission, cancelSubmission, extendDeadline } from '../lifecycle.js';
import {
  AssigneeModel, AssignInput, CancelInput, ExtendInput, LIMITS, OriginationParams, QuestionModel, StartInput, SubmissionModel, SubmissionParams,
  SubmissionTaskParams, TaskResponseModel,
} from '../schema.js';
import { getSubmission, listUserSubmissions, startSubmission, SUBMISSION_SORTABLE } from '../submissions.js';
import { completeReviewTask } from '../tasks.js';

const tags = ['Submissions'];
const CLOSED = '409 once the submission is completed or canceled.';

/** Admin catalog: submissions of a realm's users. */
export function submissionAdminRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, QuestionModel, AssigneeModel, TaskResponseModel, SubmissionModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const submission = { 200: ref(SubmissionModel) };

    app.post('/customers/:realm_uid/originations/:id/submissions', {
      config: { access: 'realm.originations.review', target: 'realm_uid' },
      schema: {
        tags, summary: 'Start a submission for a user',
        description: 'By default it starts now: pending, its deadline running (the origination\'s days from now), and the user\'s business '
          + 'event `origination_submission_started_log` recorded. With `start: false` it waits, not_started, until its first task is completed. '
          + '`user_id` must be a user of the realm (422).',
        params: OriginationParams, body: StartInput, response: { 201: ref(SubmissionModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => {
      const realm = request.realm;
      return reply.code(201).send(await startSubmission(acting(ctx, request), realm, request.params.id, request.body));
    });

    app.get('/customers/:realm_uid/users/:id/submissions', {
      config: { access: 'realm.originations.read', target: 'realm_uid' },
      schema: {
        tags, summary: 'List a user\'s submissions', description: 'Newest first unless `sort_by` says otherwise.',
        params: RealmUserParams,
        querystring: ListQuery({ searched: 'the origination\'s name', sortable: SUBMISSION_SORTABLE, by: 'created_at', order: 'desc' }),
        response: { 200: listOf('submissions', ref(SubmissionModel)), ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listUserSubmissions(acting(ctx, request), request.realm, request.params.id, page, request.query);
      return { submissions: items, meta: metaOf(total, page) };
    });

    app.get('/customers/:realm_uid/submissions/:id', {
      config: { access: 'realm.originations.read', target: 'realm_uid' },
      schema: { tags, summary: 'Show a submission', params: SubmissionParams, response: { ...submission, ...failures(401, 403, 404) } },
    }, async (request) => getSubmission(acting(ctx, request), request.realm, request.params.id));

    app.put('/customers/:realm_uid/submissions/:id/assignee', {
      config: { access: 'realm.originations.review', target: 'realm_uid' },
      schema: {
        tags, summary: 'Assign a submission',
        description: '`group_id` alone assigns a reviewer group; `admin_id` alone a team member; both the member picked from that group '
          + '(it must be one of its members); neither unassigns. A member must be active and hold `realm.originations.review` on the realm. '
          + `422 names each problem; ${CLOSED}`,
        params: SubmissionParams, body: AssignInput, response: { ...submission, ...failures(401, 403, 404, 409, 422) },
      },
    }, async (request) => assignSubmission(acting(ctx, request), request.realm, request.params.id, request.body));

    app.post('/customers/:realm_uid/submissions/:id/extend_deadline', {
      config: { access: 'realm.originations.review', target: 'realm_uid' },
      schema: {
        tags, summary: 'Extend a submission\'s deadline',
        description: `Adds \`days\` (1 to ${LIMITS.extensionDays}) to \`due_extension_days\`, at most ${LIMITS.totalExtensionDays} in all; `
          + `a submission whose origination has no deadline has none to extend. 422 otherwise; ${CLOSED}`,
        params: SubmissionParams, body: ExtendInput, response: { ...submission, ...failures(401, 403, 404, 409, 422) },
      },
    }, async (request) => extendDeadline(acting(ctx, request), request.realm, request.params.id, request.body.days));

    app.post('/customers/:realm_uid/submissions/:id/tasks/:task_uid/complete', {
      config: { access: 'realm.originations.review', target: 'realm_uid' },
      schema: {
        tags, summary: 'Complete a review task',
        description: 'A pending_review or validation task, the next one of the submission (409 for one done or not yet reached; 422 for a '
          + 'task the user completes). A submission assigned to an admin is reviewed by that admin and one assigned to a group by its '
          + 'members (403 for others), unless the caller holds `realm.originations.manage`. Completing the last task completes the '
          + `submission and records \`origination_submission_completed_log\`, once. ${CLOSED}`,
        params: SubmissionTaskParams, response: { ...submission, ...failures(401, 403, 404, 409, 422) },
      },
    }, async (request) => completeReviewTask(acting(ctx, request), request.realm, request.params.id, request.params.task_uid));

    app.post('/customers/:realm_uid/submissions/:id/cancel', {
      config: { access: 'realm.originations.review', target: 'realm_uid' },
      schema: {
        tags, summary: 'Cancel a submission',
        description: `The reason (1 to ${LIMITS.reason} characters) is shown to the user as \`cancellation_reason\`. ${CLOSED}`,
        params: SubmissionParams, body: CancelInput, response: { ...submission, ...failures(401, 403, 404, 409, 422) },
      },
    }, async (request) => cancelSubmission(acting(ctx, request), request.realm, request.params.id, request.body.reason));
  };
}
