import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { PERSONAL_ROUTE_NOTE } from '../../admin-auth/personal-data.js';
import { ref, useModels } from '../../http/models.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures } from '../../http/responses.js';
import { variablesNote } from '../kinds.js';
import { testSend } from '../queue.js';
import {
  KindModel, KindParam, kindList, PreviewInput, RealmKindParams, RenderedModel, TemplateInput, TemplateModel, TemplateVersionModel, TestSendModel, VersionsQuery,
} from '../schema.js';
import { ACCOUNT_SCOPE, listVersions, previewTemplate, realmScope, resetTemplate, saveTemplate, showTemplate, type TemplateScope } from '../templates.js';
import { named } from '../../http/plugin-name.js';

const tags = ['Email templates'];

const VARIABLES = `\n\nThe variables of each kind (\`GET /email_templates\` lists them with examples):\n${variablesNote()}`;
const CHECKED = ' Checked at save: a Liquid parse error or a variable the kind does not have is 422 naming the field (`locales.es.html`), line and column;'
  + ' every language (en, es) is required; MJML must compile. Each save is kept as a version.';

interface Where {
  /** The path before `/email_templates`. */
  prefix: string;
  params: typeof KindParam | typeof RealmKindParams;
  /** The realm parameter the permission targets, for realm overrides. */
  target?: 'realm_uid';
  what: string;
  scopeOf(request: FastifyRequest): TemplateScope;
  failures: number[];
}

/** The routes of one scope: the account's defaults or a realm's overrides. */
function scopeRoutes(ctx: Context, where: Where): FastifyPluginAsync {
  const base = `${where.prefix}/email_templates/:kind`;
  const config = (access: 'templates.read' | 'templates.manage') => ({ access, ...(where.target ? { target: where.target } : {}) });
  const params = where.params;
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get(base, {
      config: config('templates.read'),
      schema: {
        tags, summary: `Show ${where.what}`, description: `The template in force and where it comes from (\`source\`).${VARIABLES}`,
        params, response: { 200: ref(TemplateModel), ...failures(401, 403, ...where.failures, 422) },
      },
    }, async (request) => showTemplate(acting(ctx, request), where.scopeOf(request), request.params.kind));

    app.put(base, {
      config: config('templates.manage'),
      schema: {
        tags, summary: `Save ${where.what}`, description: `Replaces the content in every language.${CHECKED}${VARIABLES}`,
        params, body: TemplateInput, response: { 200: ref(TemplateModel), ...failures(401, 403, ...where.failures, 413, 422) },
      },
    }, async (request) => saveTemplate(acting(ctx, request), where.scopeOf(request), request.params.kind, request.body));

    app.delete(base, {
      config: config('templates.manage'),
      schema: {
        tags, summary: `Reset ${where.what}`, description: 'Removes the saved template (kept in the versions): the next one applies. Answers the template now in force.',
        params, response: { 200: ref(TemplateModel), ...failures(401, 403, ...where.failures, 422) },
      },
    }, async (request) => resetTemplate(acting(ctx, request), where.scopeOf(request), request.params.kind));

    app.get(`${base}/versions`, {
      config: config('templates.read'),
      schema: {
        tags, summary: `List the versions of ${where.what}`, description: 'Every save (with its content) and reset, newest first.',
        params, querystring: VersionsQuery, response: { 200: listOf('versions', ref(TemplateVersionModel)), ...failures(401, 403, ...where.failures, 422) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listVersions(acting(ctx, request), where.scopeOf(request), request.params.kind, page);
      return { versions: items, meta: metaOf(total, page) };
    });

    app.post(`${base}/preview`, {
      config: config('templates.read'),
      schema: {
        tags, summary: `Preview ${where.what}`,
        description: 'The mail exactly as it would be sent (Liquid rendered, MJML compiled, CSS inlined), from the saved template or a `draft`, with the '
          + 'kind\'s example values' + (where.target ? ' and the realm, or with `user_id` a user\'s own data.' + PERSONAL_ROUTE_NOTE : '.') + VARIABLES,
        params, body: PreviewInput, response: { 200: ref(RenderedModel), ...failures(401, 403, 404, 413, 422) },
      },
    }, async (request) => previewTemplate(acting(ctx, request), where.scopeOf(request), request.params.kind, request.body ?? {}));

    app.post(`${base}/test_send`, {
      config: config('templates.manage'),
      schema: {
        tags, summary: `Send a test of ${where.what}`,
        description: 'Renders as the preview does and mails it, through the mail queue, to the acting member\'s own address only.'
          + (where.target ? ` With \`user_id\`:${PERSONAL_ROUTE_NOTE}` : ''),
        params, body: PreviewInput, response: { 202: TestSendModel, ...failures(401, 403, 404, 413, 422) },
      },
    }, async (request, reply) => reply.code(202).send(await testSend(acting(ctx, request), where.scopeOf(request), request.params.kind, request.body ?? {})));
  };
}

export function templateRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, TemplateModel, TemplateVersionModel, RenderedModel, KindModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/email_templates', {
      config: { access: 'templates.read' },
      schema: {
        tags, summary: 'List the kinds of mail', description: 'Every mail Atrium writes from a template, with the variables its templates read and their example values.',
        response: { 200: Type.Object({ kinds: Type.Array(ref(KindModel)) }), ...failures(401, 403) },
      },
    }, async () => ({ kinds: kindList() }));
    await scope.register(named('account templates', scopeRoutes(ctx, {
      prefix: '', params: KindParam, what: 'the account\'s default template', failures: [404],
      scopeOf: () => ACCOUNT_SCOPE,
    })));
    await scope.register(named('realm templates', scopeRoutes(ctx, {
      prefix: '/customers/:realm_uid', params: RealmKindParams, target: 'realm_uid', what: 'a realm\'s template', failures: [404],
      scopeOf: (request) => realmScope(request.realm),
    })));
  };
}
