import { Type } from '@sinclair/typebox';
import { DateTime, Id, Int32, Nullable } from '../http/models.js';
import { ListQuery } from '../http/list-query.js';
import { PageQuery } from '../http/pagination.js';

/** The documented sizes a site's parts may reach. */
export const SITE_LIMITS = {
  name: 255, locales: 20, spaces: 20, source: 200_000, file: 512 * 1024, templates: 200, files: 100,
  pages: 5_000, depth: 10, children: 500, blocks: 50, menus: 50, menuItems: 300, menuDepth: 5, label: 255, url: 2048,
  title: 255, description: 1000, markdown: 100_000, listLimit: 100, note: 2000,
} as const;

const text = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });

export const SiteParam = Type.Object({ site_uid: Type.String({ maxLength: 100, description: 'The site\'s uid' }) });
export const SiteItemParams = Type.Object({ site_uid: Type.String({ maxLength: 100, description: 'The site\'s uid' }), id: Id() });
export const MenuParams = Type.Object({ site_uid: Type.String({ maxLength: 100 }), menu_uid: Type.String({ maxLength: 100 }) });
export const VersionParams = Type.Object({ site_uid: Type.String({ maxLength: 100 }), number: Id({ description: 'The version\'s number within its site' }) });

export const SiteModel = Type.Object({
  uid: Type.String(),
  name: Type.String(),
  default_locale: Type.String(),
  locales: Type.Array(Type.String(), { description: 'Every locale the site is served in; the default first' }),
  realm_uid: Nullable(Type.String(), 'The realm whose users sign in to the site'),
  space_uids: Type.Array(Type.String(), { description: 'The content spaces its pages read; its roles\' content permissions reach them' }),
  custom_domain: Nullable(Type.String()),
  require_review: Type.Boolean({ description: 'Whether only an approved review request can be published' }),
  active: Type.Boolean(),
  draft_revision: Type.Integer({ description: 'Counts the changes of drafts; a review request approves one revision' }),
  published_version: Nullable(Type.Integer(), 'The number of the version served'),
  url: Type.String({ description: 'Where the published site is served under the base address' }),
  created_at: DateTime,
  updated_at: DateTime,
}, { $id: 'Site', description: 'A site: Liquid layouts, pages and menus, published as versions' });

export const SiteInput = Type.Object({
  uid: Type.Optional(text(1000, 'Lower-case letters, digits, "-" and "_" (at most 100)')),
  name: Type.Optional(text(1000)),
  default_locale: Type.Optional(text(100)),
  locales: Type.Optional(Type.Array(text(100), { maxItems: 100 })),
  realm_uid: Type.Optional(Nullable(text(100))),
  space_uids: Type.Optional(Type.Array(text(100), { maxItems: 100 })),
  custom_domain: Type.Optional(Nullable(text(300, 'A host name such as www.example.com; null or "" for none'))),
  require_review: Type.Optional(Type.Boolean()),
  active: Type.Optional(Type.Boolean()),
});

export const SiteListQuery = ListQuery({ searched: 'the uid or name', sortable: ['uid', 'name', 'created_at', 'updated_at'], by: 'updated_at', order: 'desc' });

export const TemplateModel = Type.Object({
  id: Type.Integer(), kind: Type.Union([Type.Literal('layout'), Type.Literal('snippet')]), name: Type.String(), source: Type.String(),
  created_at: DateTime, updated_at: DateTime,
}, { $id: 'SiteTemplate', description: 'A layout or snippet: Liquid; `{{ }}` output is HTML-escaped unless `| raw`' });
export const TemplateInput = Type.Object({ name: Type.Optional(text(1000)), source: Type.Optional(Type.String({ maxLength: SITE_LIMITS.source })) });

export const FileModel = Type.Object({
  id: Type.Integer(), name: Type.String({ description: 'Ends in .css or .js' }), body: Type.String(), hash: Type.String(),
  created_at: DateTime, updated_at: DateTime,
}, { $id: 'SiteFile', description: 'A CSS or JavaScript file, served at `/_assets/{name without extension}.{hash}.{extension}` once published' });
export const FileInput = Type.Object({ name: Type.Optional(text(1000)), body: Type.Optional(Type.String({ maxLength: SITE_LIMITS.file })) });

const PageLocaleModel = Type.Object({ title: Type.String(), description: Type.String(), slug: Type.String() });
const PageLocaleInput = Type.Object({
  title: Type.Optional(text(1000)), description: Type.Optional(text(5000)), slug: Type.Optional(text(1000)),
});
const BLOCK_TYPES = ['rich_text', 'content_list', 'content_entry', 'menu', 'liquid', 'form'] as const;
export const BlockModel = Type.Object({
  zone: Type.String({ maxLength: 64, description: 'The zone of the layout (`{% zone "main" %}`)' }),
  type: Type.Union(BLOCK_TYPES.map((t) => Type.Literal(t))),
  markdown: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: SITE_LIMITS.markdown }), { description: 'rich_text: Markdown per locale' })),
  space_uid: Type.Optional(text(100, 'content_list, content_entry: one of the site\'s spaces')),
  type_uid: Type.Optional(text(100)),
  entry_uuid: Type.Optional(text(100, 'content_entry')),
  filters: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 1000 }), {
    description: 'content_list: query parameters of the content delivery API (`fields.category`: `news`, `tags`, ...)',
  })),
  sort: Type.Optional(text(200, 'content_list: the delivery API\'s `sort`')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SITE_LIMITS.listLimit })),
  menu_uid: Type.Optional(text(100, 'menu')),
  form_uid: Type.Optional(text(100, 'form: a public form, shown as on its hosted page and posted there (the page is then rendered for each request, never cached)')),
  snippet: Type.Optional(text(100, 'content_list, content_entry, menu: the snippet rendered for it (default markup without)')),
  source: Type.Optional(Type.String({ maxLength: SITE_LIMITS.source, description: 'liquid: Liquid source' })),
}, { $id: 'SiteBlock', additionalProperties: false });

export const PageModel = Type.Object({
  id: Type.Integer(), parent_id: Nullable(Type.Integer()), position: Type.Integer(), layout: Type.String(),
  visibility: Type.Union([Type.Literal('public'), Type.Literal('realm_users')]),
  locales: Type.Record(Type.String(), PageLocaleModel),
  paths: Type.Record(Type.String(), Type.String(), { description: 'The page\'s path per locale (drafts)' }),
  blocks: Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'SiteBlock#' })),
  created_at: DateTime, updated_at: DateTime,
}, { $id: 'LayoutPage', description: 'A page of the site\'s tree' });
export const PageInput = Type.Object({
  parent_id: Type.Optional(Nullable(Id())),
  position: Type.Optional(Int32({ minimum: 0, maximum: 100_000 })),
  layout: Type.Optional(text(100)),
  visibility: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('realm_users')])),
  locales: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), PageLocaleInput)),
  blocks: Type.Optional(Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'SiteBlock#' }), { maxItems: 1000 })),
});
export const PageListQuery = Type.Object({ ...PageQuery, parent_id: Type.Optional(Type.String({ description: 'Only the children of this page (`root`: top-level pages)' })) });

const MenuItemModel = Type.Recursive((self) => Type.Object({
  labels: Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 1000 }), { description: 'The label per locale; the default locale\'s stands in for a missing one' }),
  page_id: Type.Optional(Id({ description: 'Target: a page of the site' })),
  url: Type.Optional(text(SITE_LIMITS.url, 'Target: an http(s) address or a path')),
  space_uid: Type.Optional(text(100)), type_uid: Type.Optional(text(100)), entry_uuid: Type.Optional(text(100, 'Target: a content entry (space_uid, type_uid, entry_uuid)')),
  broken: Type.Optional(Type.Boolean({ description: 'In answers: the target page no longer exists; the item renders nothing' })),
  children: Type.Optional(Type.Array(self, { maxItems: SITE_LIMITS.menuItems })),
}, { additionalProperties: false }), { $id: 'SiteMenuItem' });
export const MenuModel = Type.Object({
  uid: Type.String(), name: Type.String(), items: Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'SiteMenuItem#' })), created_at: DateTime, updated_at: DateTime,
}, { $id: 'SiteMenu', description: 'A navigation menu: nested items, a label per locale' });
export const MenuInput = Type.Object({
  uid: Type.Optional(text(1000)), name: Type.Optional(text(1000)), items: Type.Optional(Type.Array(Type.Unsafe<Record<string, unknown>>({ $ref: 'SiteMenuItem#' }), { maxItems: SITE_LIMITS.menuItems })),
});
export { MenuItemModel };

const Change = Type.Object({
  kind: Type.Union(['layout', 'snippet', 'file', 'page', 'menu'].map((k) => Type.Literal(k))),
  key: Type.String({ description: 'The name, page id or menu uid' }),
  change: Type.Union([Type.Literal('added'), Type.Literal('changed'), Type.Literal('removed')]),
});
export const VersionModel = Type.Object({
  number: Type.Integer(), note: Type.String(), changes: Type.Array(Change),
  published_by: Type.Object({ id: Nullable(Type.Integer()), name: Type.String() }),
  review_request_id: Nullable(Type.Integer()), restored_from: Nullable(Type.Integer()),
  current: Type.Boolean(), created_at: DateTime,
}, { $id: 'SiteVersion', description: 'A published state of the site, never changed' });
export const DiffQuery = Type.Object({ from: Id(), to: Id() });
export const DiffModel = Type.Object({
  from: Type.Integer(), to: Type.Integer(),
  changes: Type.Array(Type.Object({ ...Change.properties, before: Type.Unknown(), after: Type.Unknown() })),
}, { $id: 'SiteVersionDiff' });
export const PublishInput = Type.Object({
  note: Type.Optional(text(SITE_LIMITS.note)),
  review_request_id: Type.Optional(Id({ description: 'With require_review: the approved request whose drafts are published' })),
  at: Type.Optional(Type.String({ format: 'date-time', description: 'A later moment: the publish is scheduled (202)' })),
});
export const ScheduledModel = Type.Object({
  id: Type.Integer(), at: DateTime, note: Type.String(), review_request_id: Nullable(Type.Integer()),
  requested_by: Type.Object({ id: Nullable(Type.Integer()), name: Type.String() }), created_at: DateTime,
}, { $id: 'SiteScheduledPublish' });
export const ReviewModel = Type.Object({
  id: Type.Integer(), status: Type.Union(['open', 'approved', 'rejected', 'published', 'withdrawn'].map((s) => Type.Literal(s))),
  note: Type.String(), draft_revision: Type.Integer(), current: Type.Boolean({ description: 'Whether the drafts are still as they were asked to be reviewed' }),
  requested_by: Type.Object({ id: Nullable(Type.Integer()), name: Type.String() }),
  decided_by: Type.Union([Type.Object({ id: Nullable(Type.Integer()), name: Type.String() }), Type.Null()]),
  decided_at: Nullable(DateTime), comment: Nullable(Type.String()),
  created_at: DateTime, updated_at: DateTime,
}, { $id: 'SiteReviewRequest' });
export const ReviewInput = Type.Object({ note: Type.Optional(text(SITE_LIMITS.note)) });
export const DecisionInput = Type.Object({ comment: Type.Optional(text(SITE_LIMITS.note)) });
export const ReviewListQuery = Type.Object({ ...PageQuery, status: Type.Optional(Type.String()) });
export const PreviewInput = Type.Object({ page_id: Id(), locale: Type.Optional(text(100)) });
export const PreviewModel = Type.Object({ url: Type.String(), expires_at: DateTime }, { $id: 'SitePreviewLink' });
