import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { moment, timestamps } from '../db/columns.js';
import { oauthClients } from './oauth.js';
import { realms } from './realms.js';

/**
 * A site: pages built from Liquid layouts, served under `/sites/{uid}` and on its custom domain. Its
 * layouts, snippets, files, pages and menus as stored are the drafts; what is served is the snapshot of
 * the published version. `draft_revision` counts draft changes (a review request approves one revision).
 */
export const sites = pgTable('sites', {
  id: serial('id').primaryKey(),
  uid: text('uid').notNull(),
  name: text('name').notNull(),
  defaultLocale: text('default_locale').notNull(),
  /** Every locale the site is served in, the default one included. */
  locales: text('locales').array().notNull(),
  realmId: integer('realm_id').references(() => realms.id, { onDelete: 'set null' }),
  /** The content spaces (uids) its pages read and its roles' content permissions reach. */
  spaceUids: text('space_uids').array().notNull(),
  customDomain: text('custom_domain'),
  requireReview: boolean('require_review').notNull().default(false),
  active: boolean('active').notNull().default(true),
  draftRevision: integer('draft_revision').notNull().default(0),
  publishedVersionId: integer('published_version_id'),
  /** On its own domain the site signs its realm's users in as this OAuth client (public, PKCE). */
  oauthClientId: integer('oauth_client_id').references(() => oauthClients.id, { onDelete: 'set null' }),
  ...timestamps,
}, (t) => [uniqueIndex('sites_uid_key').on(t.uid), uniqueIndex('sites_custom_domain_key').on(t.customDomain)]);

/** A layout or snippet of a site: Liquid source, by name. */
export const siteTemplates = pgTable('site_templates', {
  id: serial('id').primaryKey(),
  siteId: integer('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  kind: text('kind').$type<'layout' | 'snippet'>().notNull(),
  name: text('name').notNull(),
  source: text('source').notNull(),
  ...timestamps,
}, (t) => [uniqueIndex('site_templates_name_key').on(t.siteId, t.kind, t.name)]);

/** A CSS or JavaScript file of a site, served with its hash in the name. */
export const siteFiles = pgTable('site_files', {
  id: serial('id').primaryKey(),
  siteId: integer('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  body: text('body').notNull(),
  ...timestamps,
}, (t) => [uniqueIndex('site_files_name_key').on(t.siteId, t.name)]);

export interface PageLocale {
  title: string;
  description: string;
  slug: string;
}

/** One block of a page, in a named zone of its layout. */
export type PageBlock = { zone: string } & Record<string, unknown>;

/** A page of a site's tree: its place (parent, position), its layout, its blocks and its words per locale. */
export const sitePages = pgTable('site_pages', {
  id: serial('id').primaryKey(),
  siteId: integer('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  parentId: integer('parent_id'),
  position: integer('position').notNull().default(0),
  layout: text('layout').notNull(),
  visibility: text('visibility').$type<'public' | 'realm_users'>().notNull().default('public'),
  locales: jsonb('locales').$type<Record<string, PageLocale>>().notNull(),
  blocks: jsonb('blocks').$type<PageBlock[]>().notNull(),
  ...timestamps,
}, (t) => [index('site_pages_site_idx').on(t.siteId, t.parentId, t.position)]);

export interface MenuItem {
  labels: Record<string, string>;
  target: { page_id: number } | { url: string } | { space_uid: string; type_uid: string; entry_uuid: string };
  children: MenuItem[];
}

/** A navigation menu of a site: nested items, each with a label per locale. */
export const siteMenus = pgTable('site_menus', {
  id: serial('id').primaryKey(),
  siteId: integer('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  uid: text('uid').notNull(),
  name: text('name').notNull(),
  items: jsonb('items').$type<MenuItem[]>().notNull(),
  ...timestamps,
}, (t) => [uniqueIndex('site_menus_uid_key').on(t.siteId, t.uid)]);

/** A published state of a site, never changed: what the drafts were, what changed since the one before, who published it. */
export const siteVersions = pgTable('site_versions', {
  id: serial('id').primaryKey(),
  siteId: integer('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  number: integer('number').notNull(),
  snapshot: jsonb('snapshot').$type<unknown>().notNull(),
  changes: jsonb('changes').$type<unknown[]>().notNull(),
  note: text('note').notNull().default(''),
  publishedBy: integer('published_by'),
  publishedByName: text('published_by_name').notNull(),
  reviewRequestId: integer('review_request_id'),
  restoredFrom: integer('restored_from'),
  createdAt: moment('created_at').notNull(),
}, (t) => [uniqueIndex('site_versions_number_key').on(t.siteId, t.number)]);

/** A request to publish the drafts as they were at `draft_revision`. */
export const siteReviewRequests = pgTable('site_review_requests', {
  id: serial('id').primaryKey(),
  siteId: integer('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  status: text('status').$type<'open' | 'approved' | 'rejected' | 'published' | 'withdrawn'>().notNull(),
  note: text('note').notNull().default(''),
  draftRevision: integer('draft_revision').notNull(),
  requestedBy: integer('requested_by'),
  requestedByName: text('requested_by_name').notNull(),
  decidedBy: integer('decided_by'),
  decidedByName: text('decided_by_name'),
  decidedAt: moment('decided_at'),
  comment: text('comment'),
  ...timestamps,
}, (t) => [index('site_review_requests_site_idx').on(t.siteId, t.status)]);

/** A publish asked for later, done by the `site-publish` task queue. */
export const siteScheduledPublishes = pgTable('site_scheduled_publishes', {
  id: serial('id').primaryKey(),
  siteId: integer('site_id').notNull().references(() => sites.id, { onDelete: 'cascade' }),
  at: moment('at').notNull(),
  note: text('note').notNull().default(''),
  reviewRequestId: integer('review_request_id'),
  requestedBy: integer('requested_by'),
  requestedByName: text('requested_by_name').notNull(),
  ...timestamps,
}, (t) => [index('site_scheduled_publishes_site_idx').on(t.siteId)]);
