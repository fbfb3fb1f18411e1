import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { customerOf } from '../../customers/credential.js';
import { credentialFailures } from '../../customers/schema.js';
import { formNotFound, notFound } from '../../errors/index.js';
import { ref, useModels } from '../../http/models.js';
import { failures } from '../../http/responses.js';
import { jsonSubmission, publicForm, respondent, respondentLocale } from '../doors.js';
import { answeredForm } from '../forms.js';
import { assertOpen, submitResponse } from '../respond.js';
import { Accepted, AnswerInput, FieldModel, FormParam, PublicFormModel, RealmFormParams } from '../schema.js';

const tags = ['Forms'];
const SPAM = 'A response caught as spam (the honeypot field filled, a missing, foreign or replayed token, sent sooner than the form\'s minimum fill time) '
  + 'is stored as spam and answered exactly like a real one. Every submission, caught ones too, counts toward the per-address limit (429 past it). '
  + 'Missing or malformed answers: 422 with one error per field name, in the response\'s language. A closed or full form: 410.';

/** The content catalog's doors of public forms: the definition with a form token, and the JSON response. */
export function publicFormRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, FieldModel, PublicFormModel, Accepted);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const publicRow = async (uid: string) => {
      const row = await answeredForm(ctx, uid);
      if (!row || row.form.access !== 'public') throw notFound('Form');
      return row;
    };

    app.get('/forms/:form_uid', {
      schema: {
        tags, summary: 'Show a public form',
        description: 'Its fields, steps and labels (every locale), with a single-use form token to send back with the response. A closed or full form: 410.',
        params: FormParam, response: { 200: ref(PublicFormModel), ...failures(404, 410) },
      },
    }, async (request, reply) => {
      const row = await publicRow(request.params.form_uid);
      const locale = respondentLocale(row.form, request);
      await assertOpen(ctx, row, locale);
      reply.header('cache-control', 'no-store');
      return publicForm(ctx, row, locale, null);
    });

    app.post('/forms/:form_uid/responses', {
      schema: {
        tags, summary: 'Answer a public form',
        description: `JSON: \`answers\` by field name, \`token\` from the definition, the honeypot field (named in the definition) empty or absent. File fields are answered on the hosted page only. ${SPAM}`,
        params: FormParam, body: AnswerInput, response: { 201: ref(Accepted), ...failures(404, 410, 422, 429) },
      },
    }, async (request, reply) => {
      const row = await publicRow(request.params.form_uid);
      const locale = respondentLocale(row.form, request, request.body.locale);
      return reply.code(201).send(await submitResponse(ctx, row, jsonSubmission(request, request.body, locale, null)));
    });
  };
}

/** The customers API's door of a realm's `realm_users` forms: answered by the signed-in user. */
export function customerFormRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, FieldModel, PublicFormModel, Accepted);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const realmRow = async (realmId: number, uid: string) => {
      const row = await answeredForm(ctx, uid);
      if (!row || row.form.access !== 'realm_users' || row.form.realmId !== realmId) throw formNotFound();
      return row;
    };

    app.get('/realms/:realm_uid/forms/:form_uid', {
      schema: {
        tags, summary: 'Show a form of the realm\'s users',
        description: 'As the content catalog shows a public form, with a token issued to the signed-in user. A closed or full form: 410.',
        params: RealmFormParams, response: { 200: ref(PublicFormModel), ...credentialFailures(), ...failures(410) },
      },
    }, async (request, reply) => {
      const customer = customerOf(request);
      const row = await realmRow(customer.realm.id, request.params.form_uid);
      const locale = respondentLocale(row.form, request);
      await assertOpen(ctx, row, locale);
      reply.header('cache-control', 'no-store');
      return publicForm(ctx, row, locale, customer.user.id);
    });

    app.post('/realms/:realm_uid/forms/:form_uid/responses', {
      schema: {
        tags, summary: 'Answer a form of the realm\'s users',
        description: `As the public JSON door, for a form with access \`realm_users\`: the response carries the user and records the business event \`form_response_created_log\`. ${SPAM}`,
        params: RealmFormParams, body: AnswerInput, response: { 201: ref(Accepted), ...credentialFailures(), ...failures(410, 422, 429) },
      },
    }, async (request, reply) => {
      const customer = customerOf(request);
      const row = await realmRow(customer.realm.id, request.params.form_uid);
      const locale = respondentLocale(row.form, request, request.body.locale);
      return reply.code(201).send(await submitResponse(ctx, row, jsonSubmission(request, request.body, locale, respondent(customer))));
    });
  };
}
