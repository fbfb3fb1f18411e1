import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { ref, useModels } from '../../http/models.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { SiteInput, SiteListQuery, SiteModel, SiteParam } from '../schema.js';
import { createSite, deleteSite, listSites, requireSite, siteBody, updateSite } from '../sites.js';

const tags = ['Sites'];

export function siteRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, SiteModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/sites', {
      config: { access: 'site.read' },
      schema: { tags, summary: 'List sites', description: 'The sites the credential\'s roles reach.', querystring: SiteListQuery, response: { 200: listOf('sites', ref(SiteModel)), ...failures(401, 403) } },
    }, async (request) => {
      const page = pageOf(request.query);
      const { items, total } = await listSites(acting(ctx, request), page, request.query);
      return { sites: items, meta: metaOf(total, page) };
    });

    app.get('/sites/:site_uid', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: 'Show a site', params: SiteParam, response: { 200: ref(SiteModel), ...failures(401, 403, 404) } },
    }, async (request) => siteBody(await requireSite(acting(ctx, request), request.params.site_uid, 'site.read')));

    app.post('/sites', {
      config: { access: 'site.write' },
      schema: {
        tags, summary: 'Create a site',
        description: 'Needs `uid`, `name` and `default_locale`, and `site.write` from an account role. `custom_domain` follows the realm\'s rules '
          + '(a public host name, not the base address\'s host) and is unique across sites and realms. `realm_uid`: whose users sign in to the site\'s '
          + 'private pages. `space_uids`: the content spaces its pages read, which its site roles\' content permissions reach.',
        body: SiteInput, response: { 201: ref(SiteModel), ...failures(401, 403, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createSite(acting(ctx, request), request.body)));

    app.put('/sites/:site_uid', {
      config: { access: 'site.write', target: 'site_uid' },
      schema: {
        tags, summary: 'Change a site',
        description: 'Partial. `custom_domain` and `space_uids` need an account role; `require_review` needs `site.publish`.',
        params: SiteParam, body: SiteInput, response: { 200: ref(SiteModel), ...failures(401, 403, 404, 422) },
      },
    }, async (request) => updateSite(acting(ctx, request), request.params.site_uid, request.body));

    app.delete('/sites/:site_uid', {
      config: { access: 'site.write', target: 'site_uid' },
      schema: { tags, summary: 'Delete a site', description: 'With its drafts, versions and the role assignments that name it. Needs an account role.', params: SiteParam, response: { 204: NoContent, ...failures(401, 403, 404) } },
    }, async (request, reply) => {
      await deleteSite(acting(ctx, request), request.params.site_uid);
      return reply.code(204).send(null);
    });
  };
}
