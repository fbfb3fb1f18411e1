import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { ref, useModels } from '../../http/models.js';
import { lockOverrideOf, OVERRIDE_DESCRIPTION } from '../../locks/override.js';
import { failures, NoContent } from '../../http/responses.js';
import { createFile, deleteFile, fileBody, listFiles, requireFile, updateFile } from '../files.js';
import { FileInput, FileModel, SiteItemParams, SiteParam, TemplateInput, TemplateModel } from '../schema.js';
import { createTemplate, deleteTemplate, listTemplates, requireTemplate, templateBody, updateTemplate, type TemplateKind } from '../templates.js';
import { named } from '../../http/plugin-name.js';

const tags = ['Sites'];
const DRAFT = ' A change is a draft: it is served once the site is published.';
const LOCKED = ` ${OVERRIDE_DESCRIPTION}`;
const LIQUID = ' Liquid that does not parse is a 422 naming its line and column. Output of `{{ }}` is HTML-escaped; `| raw` writes a value as it is.';

/** Layouts and snippets share their routes; `path` is `layouts` or `snippets`. */
function templateRoutes(ctx: Context, kind: TemplateKind, path: string, noun: string): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const item = `/sites/:site_uid/${path}/:id`;
    app.get(`/sites/:site_uid/${path}`, {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: `List the ${path} of a site`, params: SiteParam, response: { 200: Type.Object({ [path]: Type.Array(ref(TemplateModel)) }), ...failures(401, 403, 404) } },
    }, async (request) => ({ [path]: await listTemplates(acting(ctx, request), request.params.site_uid, kind) }));
    app.get(item, {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: `Show a ${noun}`, params: SiteItemParams, response: { 200: ref(TemplateModel), ...failures(401, 403, 404) } },
    }, async (request) => templateBody((await requireTemplate(acting(ctx, request), request.params.site_uid, kind, request.params.id, 'site.read')).template));
    app.post(`/sites/:site_uid/${path}`, {
      config: { access: 'site.write', target: 'site_uid' },
      schema: { tags, summary: `Create a ${noun}`, description: `Needs \`name\` and \`source\`.${LIQUID}${DRAFT}`, params: SiteParam, body: TemplateInput, response: { 201: ref(TemplateModel), ...failures(401, 403, 404, 422) } },
    }, async (request, reply) => reply.code(201).send(await createTemplate(acting(ctx, request), request.params.site_uid, kind, request.body)));
    app.put(item, {
      config: { access: 'site.write', target: 'site_uid' },
      schema: { tags, summary: `Change a ${noun}`, description: `Partial.${LIQUID}${DRAFT}${LOCKED}`, params: SiteItemParams, body: TemplateInput, response: { 200: ref(TemplateModel), ...failures(401, 403, 404, 409, 422) } },
    }, async (request) => updateTemplate(acting(ctx, request), request.params.site_uid, kind, request.params.id, request.body, lockOverrideOf(request)));
    app.delete(item, {
      config: { access: 'site.write', target: 'site_uid' },
      schema: { tags, summary: `Delete a ${noun}`, description: `${DRAFT.trim()}${LOCKED}`, params: SiteItemParams, response: { 204: NoContent, ...failures(401, 403, 404, 409) } },
    }, async (request, reply) => {
      await deleteTemplate(acting(ctx, request), request.params.site_uid, kind, request.params.id, lockOverrideOf(request));
      return reply.code(204).send(null);
    });
  };
}

function fileRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/sites/:site_uid/files', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: 'List the CSS and JavaScript files of a site', params: SiteParam, response: { 200: Type.Object({ files: Type.Array(ref(FileModel)) }), ...failures(401, 403, 404) } },
    }, async (request) => ({ files: await listFiles(acting(ctx, request), request.params.site_uid) }));
    app.get('/sites/:site_uid/files/:id', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: 'Show a file', params: SiteItemParams, response: { 200: ref(FileModel), ...failures(401, 403, 404) } },
    }, async (request) => fileBody((await requireFile(acting(ctx, request), request.params.site_uid, request.params.id, 'site.read')).file));
    app.post('/sites/:site_uid/files', {
      config: { access: 'site.write', target: 'site_uid' },
      schema: {
        tags, summary: 'Create a file', description: `Needs \`name\` (ending in .css or .js) and \`body\` (at most 512 KiB). Served with its hash in the name and an immutable cache; layouts link it with \`{{ 'main.css' | asset_url }}\`.${DRAFT}`,
        params: SiteParam, body: FileInput, response: { 201: ref(FileModel), ...failures(401, 403, 404, 413, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createFile(acting(ctx, request), request.params.site_uid, request.body)));
    app.put('/sites/:site_uid/files/:id', {
      config: { access: 'site.write', target: 'site_uid' },
      schema: { tags, summary: 'Change a file', description: `Partial.${DRAFT}${LOCKED}`, params: SiteItemParams, body: FileInput, response: { 200: ref(FileModel), ...failures(401, 403, 404, 409, 413, 422) } },
    }, async (request) => updateFile(acting(ctx, request), request.params.site_uid, request.params.id, request.body, lockOverrideOf(request)));
    app.delete('/sites/:site_uid/files/:id', {
      config: { access: 'site.write', target: 'site_uid' },
      schema: { tags, summary: 'Delete a file', description: `${DRAFT.trim()}${LOCKED}`, params: SiteItemParams, response: { 204: NoContent, ...failures(401, 403, 404, 409) } },
    }, async (request, reply) => {
      await deleteFile(acting(ctx, request), request.params.site_uid, request.params.id, lockOverrideOf(request));
      return reply.code(204).send(null);
    });
  };
}

export function designRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, TemplateModel, FileModel);
    await scope.register(named('site layouts', templateRoutes(ctx, 'layout', 'layouts', 'layout')));
    await scope.register(named('site snippets', templateRoutes(ctx, 'snippet', 'snippets', 'snippet')));
    await scope.register(named('site files', fileRoutes(ctx)));
  };
}
