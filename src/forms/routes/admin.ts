import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { ref, useModels } from '../../http/models.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { exportFormResponses } from '../export.js';
import { createForm, deleteForm, listForms, requireForm, shownForm, updateForm } from '../forms.js';
import { sendStoredObject } from '../../http/stored-object.js';
import { FileContent } from '../../uploads/schema.js';
import { deleteResponse, eraseResponses, listResponses, markResponse, responseFile, showResponse } from '../responses.js';
import {
  ErasureInput, ErasureResult, FieldModel, FormInput, FormListQuery, FormModel, FormParam, ResponseFileParams, ResponseListQuery, ResponseModel, ResponseParams, ResponseStatusInput,
} from '../schema.js';

const tags = ['Forms'];
const CSV_CONTENT = { description: 'The responses as CSV', content: { 'text/csv': { schema: { type: 'string' } } } } as never;
const PERSONAL = ' For a realm\'s form it needs `realm.users.read` on that realm too (403 without): responses hold respondents\' data.';

export function formAdminRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, FieldModel, FormModel, ResponseModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/forms', {
      config: { access: 'forms.read' },
      schema: { tags, summary: 'List forms', description: 'The forms the credential\'s roles reach (account roles: all), oldest first; `realm_uid` narrows to one realm.', querystring: FormListQuery, response: { 200: listOf('forms', ref(FormModel)), ...failures(401, 403) } },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listForms(acting(ctx, request), page, request.query.realm_uid);
      return { forms: items, meta: metaOf(total, page) };
    });

    app.post('/forms', {
      config: { access: 'forms.manage' },
      schema: {
        tags, summary: 'Create a form',
        description: 'Needs `uid`, `name` and `fields`. A form with `realm_uid` belongs to that realm (its roles with `forms.manage` manage it); '
          + '`realm_users` forms are answered by the realm\'s signed-in users only. See docs/features/forms.md for field types and rules.',
        body: FormInput, response: { 201: ref(FormModel), ...failures(401, 403, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createForm(acting(ctx, request), request.body)));

    app.get('/forms/:form_uid', {
      config: { access: 'forms.read' },
      schema: { tags, summary: 'Show a form', params: FormParam, response: { 200: ref(FormModel), ...failures(401, 403, 404) } },
    }, async (request) => shownForm(ctx, await requireForm(acting(ctx, request), request.params.form_uid, 'forms.read')));

    app.put('/forms/:form_uid', {
      config: { access: 'forms.manage' },
      schema: { tags, summary: 'Change a form', description: 'Partial; `uid` and `realm_uid` are fixed. Sending `fields` without `steps` makes one step.', params: FormParam, body: FormInput, response: { 200: ref(FormModel), ...failures(401, 403, 404, 422) } },
    }, async (request) => updateForm(acting(ctx, request), request.params.form_uid, request.body));

    app.delete('/forms/:form_uid', {
      config: { access: 'forms.manage' },
      schema: { tags, summary: 'Delete a form', description: 'With its responses.', params: FormParam, response: { 204: NoContent, ...failures(401, 403, 404) } },
    }, async (request, reply) => {
      await deleteForm(acting(ctx, request), request.params.form_uid);
      return reply.code(204).send(null);
    });

    app.get('/forms/:form_uid/responses', {
      config: { access: 'forms.read' },
      schema: {
        tags, summary: 'List a form\'s responses',
        description: `Newest first; filters: \`status\`, \`from\`/\`to\` (submission time), \`field\` with \`value\` (an answer equal to, or a multiple choice including, the value).${PERSONAL}`,
        params: FormParam, querystring: ResponseListQuery, response: { 200: listOf('responses', ref(ResponseModel)), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listResponses(acting(ctx, request), request.params.form_uid, page, request.query);
      return { responses: items, meta: metaOf(total, page) };
    });

    app.get('/forms/:form_uid/responses.csv', {
      config: { access: 'forms.read' },
      schema: {
        tags, summary: 'Export a form\'s responses as CSV',
        description: 'Every response matching the list\'s filters (no paging), oldest first: UTF-8 with a BOM, CRLF line ends, a header row, '
          + 'the columns id, submitted_at, status, spam_reason, email, user_id, locale and one per field (by name). A cell starting with '
          + `\`=\`, \`+\`, \`-\` or \`@\` gets a leading \`'\`. Streamed: it is read from the database while it is sent.${PERSONAL}`,
        params: FormParam, querystring: Type.Omit(ResponseListQuery, ['page', 'per_page']),
        response: { 200: CSV_CONTENT, ...failures(401, 403, 404, 422) },
      },
    }, async (request, reply) => {
      const { formUid, csv } = await exportFormResponses(acting(ctx, request), request.params.form_uid, request.query);
      return reply.header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${formUid}-responses.csv"`)
        .send(csv);
    });

    app.get('/forms/:form_uid/responses/:id', {
      config: { access: 'forms.read' },
      schema: { tags, summary: 'Show a response', description: PERSONAL.trim(), params: ResponseParams, response: { 200: ref(ResponseModel), ...failures(401, 403, 404) } },
    }, async (request) => {
      return showResponse(acting(ctx, request), request.params.form_uid, request.params.id);
    });

    app.get('/forms/:form_uid/responses/:id/files/:field', {
      config: { access: 'forms.read' },
      schema: {
        tags, summary: 'Download a response\'s file',
        description: 'The file answered to a file field, by the field\'s name (404 `File` when the response has none). Served with '
          + '`Content-Disposition: attachment`, `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy, as the media '
          + `type its content was checked to be, and never kept by a cache.${PERSONAL}`,
        params: ResponseFileParams, response: { 200: FileContent, ...failures(401, 403, 404) },
      },
    }, async (request, reply) => {
      const { file, object } = await responseFile(acting(ctx, request), request.params.form_uid, request.params.id, request.params.field);
      return sendStoredObject(reply, object, { contentType: file.content_type, cacheControl: 'private, no-store', download: { fileName: file.name, inline: false } });
    });

    app.put('/forms/:form_uid/responses/:id', {
      config: { access: 'forms.manage' },
      schema: {
        tags, summary: 'Mark a response as spam or not',
        description: `\`status\`: \`spam\` or \`received\`. A caught response marked \`received\` counts toward the maximum and is announced then (notification mails, the webhook event).${PERSONAL}`,
        params: ResponseParams, body: ResponseStatusInput, response: { 200: ref(ResponseModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => {
      return markResponse(acting(ctx, request), request.params.form_uid, request.params.id, request.body.status);
    });

    app.delete('/forms/:form_uid/responses/:id', {
      config: { access: 'forms.manage' },
      schema: { tags, summary: 'Delete a response', description: `With its file.${PERSONAL}`, params: ResponseParams, response: { 204: NoContent, ...failures(401, 403, 404) } },
    }, async (request, reply) => {
      await deleteResponse(acting(ctx, request), request.params.form_uid, request.params.id);
      return reply.code(204).send(null);
    });

    app.post('/forms/erasures', {
      config: { access: 'forms.manage' },
      schema: {
        tags, summary: 'Erase every response of one person',
        description: 'By `email` (the respondent\'s address) or `user_id` (a realm user): every response, with its files, of the forms the member '
          + 'manages and, for a realm\'s forms, may see the users of (`realm.users.read`). Answers how many went.',
        body: ErasureInput, response: { 200: ErasureResult, ...failures(401, 403, 422) },
      },
    }, async (request) => ({ erased: await eraseResponses(acting(ctx, request), request.body) }));
  };
}
