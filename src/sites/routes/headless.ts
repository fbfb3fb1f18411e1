import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { notFound } from '../../errors/index.js';
import { useModels, Nullable } from '../../http/models.js';
import { failures } from '../../http/responses.js';
import { compiledVersion, servedSite } from '../serving.js';

const MenuItemView = Type.Recursive((self) => Type.Object({
  label: Type.String(),
  url: Nullable(Type.String(), 'A page\'s address on the site, or the item\'s URL; null for a content entry'),
  page_id: Nullable(Type.Integer()),
  entry: Type.Union([Type.Object({ space_uid: Type.String(), type_uid: Type.String(), uuid: Type.String() }), Type.Null()]),
  children: Type.Array(self),
}), { $id: 'PublishedMenuItem' });

const PublishedMenu = Type.Object({
  uid: Type.String(), name: Type.String(), locale: Type.String(), items: Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'PublishedMenuItem#' })),
}, { $id: 'PublishedMenu', description: 'A menu of the published version, in one locale' });

/** The published menus of a site for headless front ends (content catalog; public, like the published site). */
export function headlessMenuRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, MenuItemView, PublishedMenu);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/sites/:site_uid/menus/:menu_uid', {
      schema: {
        tags: ['Sites'], summary: 'Show a published menu',
        description: 'As the published version has it, labels in `locale` (default: the site\'s default locale; a missing label falls back to it). '
          + 'Items whose page is gone are left out. Page addresses are under `/sites/{site_uid}`.',
        params: Type.Object({ site_uid: Type.String({ maxLength: 100 }), menu_uid: Type.String({ maxLength: 100 }) }),
        querystring: Type.Object({ locale: Type.Optional(Type.String({ maxLength: 100 })) }),
        response: { 200: Type.Unsafe({ $ref: 'PublishedMenu#' }), ...failures(404, 422) },
      },
    }, async (request) => {
      const site = await servedSite(ctx, request.params.site_uid);
      const version = site && await compiledVersion(ctx, site);
      if (!site || !version) throw notFound('Site');
      const locale = request.query.locale && site.locales.includes(request.query.locale) ? request.query.locale : site.defaultLocale;
      const menus = version.menus(locale, `/sites/${site.uid}`);
      if (!Object.hasOwn(menus, request.params.menu_uid)) throw notFound('Menu');
      return { ...menus[request.params.menu_uid], locale };
    });
  };
}
