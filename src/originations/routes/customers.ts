import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../context.js';
import { customerOf } from '../../customers/credential.js';
import { credentialFailures, RealmNotFound } from '../../customers/schema.js';
import { ref, useModels } from '../../http/models.js';
import { listOf, metaOf, pageOf, PageQuery } from '../../http/pagination.js';
import { failures } from '../../http/responses.js';
import { RealmUidParam } from '../../realms/schema.js';
import { AnswerInput, AssigneeModel, CustomerSubmissionParams, CustomerTaskParams, QuestionModel, SubmissionModel, TaskResponseModel } from '../schema.js';
import { getCustomerSubmission, listCustomerSubmissions } from '../submissions.js';
import { answerTask } from '../tasks.js';

const tags = ['Submissions'];

const SHAPE = 'Status, progress (share of completed tasks), the deadline texts (`due`, `due_label`, `due_status_label`: on track, due soon '
  + 'within 2 days, overdue), the assignee by `type`, and the tasks of the origination in order with their status; input tasks carry '
  + 'their questions and the answers (`fields`), pending review tasks their `content`.';

/** Customers catalog: the signed-in user's origination submissions. */
export function submissionCustomerRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, QuestionModel, AssigneeModel, TaskResponseModel, SubmissionModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const unknown = { 404: { ...ref(RealmNotFound), description: 'Unknown or inactive realm, or no submission of the signed-in user has this uuid' } };

    app.get('/realms/:realm_uid/submissions', {
      schema: {
        tags, summary: 'The signed-in user\'s submissions', description: `Newest first. ${SHAPE}`,
        params: RealmUidParam, querystring: Type.Object(PageQuery), response: { 200: listOf('submissions', ref(SubmissionModel)), ...credentialFailures() },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listCustomerSubmissions(ctx, customerOf(request), page);
      return { submissions: items, meta: metaOf(total, page) };
    });

    app.get('/realms/:realm_uid/submissions/:uuid', {
      schema: {
        tags, summary: 'A submission of the signed-in user (spec 2.9)', description: SHAPE,
        params: CustomerSubmissionParams, response: { 200: ref(SubmissionModel), ...credentialFailures(), ...unknown },
      },
    }, async (request) => getCustomerSubmission(ctx, customerOf(request), request.params.uuid));

    app.put('/realms/:realm_uid/submissions/:uuid/tasks/:task_uid', {
      schema: {
        tags, summary: 'Answer a task of one\'s submission',
        description: 'An input task: `fields` holds one answer per question, keyed by question id (text and choice a string, number a '
          + 'number, date `YYYY-MM-DD`, file the `id` of an attachment the user uploaded with POST /private_upload/answer). A confirmation '
          + 'task: `fields` is `{}`. The task must be the next one of the submission (409 for one done or not yet reached); the submission '
          + 'must be open (409 once completed or canceled); 422 names each wrong answer, or a task a reviewer completes. The first answer '
          + 'starts a submission not yet started; the last task completes it. Answers the submission.',
        params: CustomerTaskParams, body: AnswerInput,
        response: { 200: ref(SubmissionModel), ...credentialFailures(), ...unknown, ...failures(409, 422) },
      },
    }, async (request) => answerTask(ctx, customerOf(request), request.params.uuid, request.params.task_uid, request.body.fields));
  };
}
