import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.js';
import { acting } from '../../admin-auth/guard.js';
import { ref, useModels } from '../../http/models.js';
import { lockOverrideOf, OVERRIDE_DESCRIPTION } from '../../locks/override.js';
import { listOf, metaOf, pageOf } from '../../http/pagination.js';
import { failures, NoContent } from '../../http/responses.js';
import { createPage, deletePage, listPages, showPage, updatePage } from '../layout-pages.js';
import { createMenu, deleteMenu, listMenus, showMenu, updateMenu } from '../menus.js';
import { BlockModel, MenuInput, MenuItemModel, MenuModel, MenuParams, PageInput, PageListQuery, PageModel, SiteItemParams, SiteParam, SITE_LIMITS } from '../schema.js';

const tags = ['Sites'];
const DRAFT = ' A change is a draft: it is served once the site is published.';
const LOCKED = ` ${OVERRIDE_DESCRIPTION}`;
const PAGE_RULES = ` A page's path in a locale is its ancestors' slugs joined, under \`/{locale}/\` for a locale other than the default; `
  + 'a page without words in a locale uses the default locale\'s. Two pages with one path in one locale: 409 `ATR_PATH_TAKEN`. '
  + `Slugs may not be a locale or \`sitemap.xml\`, \`robots.txt\`, \`_assets\`, \`_auth\`, \`_preview\`, \`logout\`; only a top-level page (the home page) may have an empty slug. `
  + `At most ${SITE_LIMITS.pages} pages, ${SITE_LIMITS.depth} levels, ${SITE_LIMITS.children} children per page, ${SITE_LIMITS.blocks} blocks per page. `
  + 'Blocks: `rich_text` (Markdown per locale, sanitized), `content_list` (a type of one of the site\'s spaces, with delivery API `filters`, `sort`, `limit`), '
  + '`content_entry`, `menu`, `liquid`; each in a `zone` the layout writes with `{% zone "main" %}`.';

export function layoutPageRoutes(ctx: Context): FastifyPluginAsync {
  return async (scope) => {
    useModels(scope, BlockModel, PageModel, MenuItemModel, MenuModel);
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/sites/:site_uid/layout_pages', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: {
        tags, summary: 'List the pages of a site', description: 'In tree order: each parent before its children, siblings by `position`.',
        params: SiteParam, querystring: PageListQuery, response: { 200: listOf('layout_pages', ref(PageModel)), ...failures(401, 403, 404) },
      },
    }, async (request) => {
      const page = pageOf(request.query);
      const raw = request.query.parent_id;
      const parent = raw === undefined ? undefined : raw === 'root' ? null : /^\d{1,9}$/.test(raw) ? Number(raw) : -1;
      const { items, total } = await listPages(acting(ctx, request), request.params.site_uid, page, parent);
      return { layout_pages: items, meta: metaOf(total, page) };
    });
    app.get('/sites/:site_uid/layout_pages/:id', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: 'Show a page', params: SiteItemParams, response: { 200: ref(PageModel), ...failures(401, 403, 404) } },
    }, async (request) => showPage(acting(ctx, request), request.params.site_uid, request.params.id));
    app.post('/sites/:site_uid/layout_pages', {
      config: { access: 'site.write', target: 'site_uid' },
      schema: {
        tags, summary: 'Create a page', description: `Needs \`layout\` and the default locale's \`title\` (and \`slug\`).${PAGE_RULES}${DRAFT}`,
        params: SiteParam, body: PageInput, response: { 201: ref(PageModel), ...failures(401, 403, 404, 409, 422) },
      },
    }, async (request, reply) => reply.code(201).send(await createPage(acting(ctx, request), request.params.site_uid, request.body)));
    app.put('/sites/:site_uid/layout_pages/:id', {
      config: { access: 'site.write', target: 'site_uid' },
      schema: {
        tags, summary: 'Change or move a page', description: `Partial; \`parent_id\` and \`position\` move it with its subtree.${PAGE_RULES}${DRAFT}${LOCKED}`,
        params: SiteItemParams, body: PageInput, response: { 200: ref(PageModel), ...failures(401, 403, 404, 409, 422) },
      },
    }, async (request) => updatePage(acting(ctx, request), request.params.site_uid, request.params.id, request.body, lockOverrideOf(request)));
    app.delete('/sites/:site_uid/layout_pages/:id', {
      config: { access: 'site.write', target: 'site_uid' },
      schema: { tags, summary: 'Delete a page', description: `A page with children: 409 \`ATR_PAGE_HAS_CHILDREN\`.${DRAFT}${LOCKED}`, params: SiteItemParams, response: { 204: NoContent, ...failures(401, 403, 404, 409) } },
    }, async (request, reply) => {
      await deletePage(acting(ctx, request), request.params.site_uid, request.params.id, lockOverrideOf(request));
      return reply.code(204).send(null);
    });

    const MENU_RULES = ` Items nest (\`children\`) at most ${SITE_LIMITS.menuDepth} levels and ${SITE_LIMITS.menuItems} in all; each has \`labels\` per locale `
      + '(the default locale\'s stands in for a missing one) and one target: `page_id`, `url` (http(s) or a path), or a content entry. '
      + 'An item whose page was deleted is answered with `broken: true` and renders nothing.';
    app.get('/sites/:site_uid/menus', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: 'List the menus of a site', params: SiteParam, response: { 200: Type.Object({ menus: Type.Array(ref(MenuModel)) }), ...failures(401, 403, 404) } },
    }, async (request) => ({ menus: await listMenus(acting(ctx, request), request.params.site_uid) }));
    app.get('/sites/:site_uid/menus/:menu_uid', {
      config: { access: 'site.read', target: 'site_uid' },
      schema: { tags, summary: 'Show a menu', params: MenuParams, response: { 200: ref(MenuModel), ...failures(401, 403, 404) } },
    }, async (request) => showMenu(acting(ctx, request), request.params.site_uid, request.params.menu_uid));
    app.post('/sites/:site_uid/menus', {
      config: { access: 'site.write', target: 'site_uid' },
      schema: { tags, summary: 'Create a menu', description: `Needs \`uid\` and \`name\`.${MENU_RULES}${DRAFT}`, params: SiteParam, body: MenuInput, response: { 201: ref(MenuModel), ...failures(401, 403, 404, 422) } },
    }, async (request, reply) => reply.code(201).send(await createMenu(acting(ctx, request), request.params.site_uid, request.body)));
    app.put('/sites/:site_uid/menus/:menu_uid', {
      config: { access: 'site.write', target: 'site_uid' },
      schema: { tags, summary: 'Change a menu', description: `Partial; \`items\` replaces every item.${MENU_RULES}${DRAFT}${LOCKED}`, params: MenuParams, body: MenuInput, response: { 200: ref(MenuModel), ...failures(401, 403, 404, 409, 422) } },
    }, async (request) => updateMenu(acting(ctx, request), request.params.site_uid, request.params.menu_uid, request.body, lockOverrideOf(request)));
    app.delete('/sites/:site_uid/menus/:menu_uid', {
      config: { access: 'site.write', target: 'site_uid' },
      schema: { tags, summary: 'Delete a menu', description: `${DRAFT.trim()}${LOCKED}`, params: MenuParams, response: { 204: NoContent, ...failures(401, 403, 404, 409) } },
    }, async (request, reply) => {
      await deleteMenu(acting(ctx, request), request.params.site_uid, request.params.menu_uid, lockOverrideOf(request));
      return reply.code(204).send(null);
    });
  };
}
