import { and, desc, eq, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Context } from '../context.js';
import type { Page } from '../db/paging.js';
import { invalidField, notFound, nothingToPublish, reviewRequired } from '../errors/index.js';
import { emitWebhookEvent } from '../webhooks/outbox.js';
import { memberName } from '../admin-auth/member-name.js';
import { siteFiles, siteMenus, sitePages, siteReviewRequests, siteTemplates, siteVersions, sites } from '../tables/sites.js';
import type { DiffModel, VersionModel } from './schema.js';
import { lockSiteRow, requireSite, sitesChanged, type Site } from './sites.js';
import { changesBetween, draftSnapshot, EMPTY_SNAPSHOT, type Snapshot } from './snapshot.js';

type Version = typeof siteVersions.$inferSelect;
export type VersionBody = Static<typeof VersionModel>;

/** Who acts, as versions and review requests name them. */
export interface Author {
  id: number | null;
  name: string;
}

export async function authorOf(ctx: Context, adminId: number): Promise<Author> {
  const name = await memberName(ctx, adminId);
  return name === null ? { id: null, name: 'Atrium' } : { id: adminId, name };
}

const versionBody = (v: Version, currentId: number | null): VersionBody => ({
  number: v.number, note: v.note, changes: (v.changes as VersionBody['changes']),
  published_by: { id: v.publishedBy, name: v.publishedByName }, review_request_id: v.reviewRequestId, restored_from: v.restoredFrom,
  current: v.id === currentId, created_at: v.createdAt.toISOString(),
});

async function publishedSnapshot(ctx: Context, site: Site): Promise<Snapshot> {
  if (site.publishedVersionId === null) return EMPTY_SNAPSHOT;
  const [row] = await ctx.db.select({ snapshot: siteVersions.snapshot }).from(siteVersions).where(eq(siteVersions.id, site.publishedVersionId));
  return (row?.snapshot as Snapshot | undefined) ?? EMPTY_SNAPSHOT;
}

export interface PublishRequest {
  note?: string;
  reviewRequestId?: number | null;
  restoredFrom?: number | null;
}

/**
 * Makes the site's drafts a new, immutable version and serves it: in one transaction, the site's row
 * taken first so that two publishes number their versions in turn. With `require_review`, only the
 * approved review request of the drafts as they are now can be published. Every instance drops what it
 * served of the site (the cache-notice channel) and the `site.published` webhook event is written.
 */
export async function publishDrafts(ctx: Context, siteId: number, author: Author, request: PublishRequest): Promise<VersionBody> {
  const [site] = await ctx.db.select().from(sites).where(eq(sites.id, siteId)).for('update');
  if (!site) throw notFound('Site');
  if (site.requireReview && !request.restoredFrom) await assertApproved(ctx, site, request.reviewRequestId ?? null);
  const previous = await publishedSnapshot(ctx, site);
  const snapshot = await draftSnapshot(ctx, site.id, site, previous);
  const changes = changesBetween(previous, snapshot);
  if (!changes.length && site.publishedVersionId !== null) throw nothingToPublish();
  const [{ next }] = await ctx.db.select({ next: sql<number>`coalesce(max(${siteVersions.number}), 0)::integer + 1` }).from(siteVersions)
    .where(eq(siteVersions.siteId, site.id));
  const [version] = await ctx.db.insert(siteVersions).values({
    siteId: site.id, number: next, snapshot, changes: changes.map(({ kind, key, change }) => ({ kind, key, change })), note: request.note ?? '',
    publishedBy: author.id, publishedByName: author.name, reviewRequestId: request.reviewRequestId ?? null, restoredFrom: request.restoredFrom ?? null,
    createdAt: ctx.clock.now(),
  }).returning();
  await ctx.db.update(sites).set({ publishedVersionId: version.id }).where(eq(sites.id, site.id));
  if (request.reviewRequestId) {
    await ctx.db.update(siteReviewRequests).set({ status: 'published', updatedAt: ctx.clock.now() }).where(eq(siteReviewRequests.id, request.reviewRequestId));
  }
  await emitWebhookEvent(ctx, ctx.db, {
    type: 'site.published', realmUid: null,
    data: { site_uid: site.uid, version: version.number, changes: version.changes, published_by: { id: author.id, name: author.name } },
  });
  sitesChanged(ctx, site.id);
  return versionBody(version, version.id);
}

async function assertApproved(ctx: Context, site: Site, reviewRequestId: number | null): Promise<void> {
  if (reviewRequestId === null) throw reviewRequired('This site requires review: send review_request_id of an approved review request');
  const [review] = await ctx.db.select().from(siteReviewRequests).where(and(eq(siteReviewRequests.id, reviewRequestId), eq(siteReviewRequests.siteId, site.id)));
  if (!review) throw invalidField('review_request_id', 'is not a review request of this site');
  if (review.status !== 'approved') throw reviewRequired(`The review request is ${review.status}, not approved`);
  if (review.draftRevision !== site.draftRevision) throw reviewRequired('The drafts changed after the review request was approved: ask for a new review');
}

export async function publish(ctx: ActingContext, siteUid: string, request: PublishRequest): Promise<VersionBody> {
  const { site } = await requireSite(ctx, siteUid, 'site.publish');
  return publishDrafts(ctx, site.id, await authorOf(ctx, ctx.actor.adminId), request);
}

export async function listVersions(ctx: ActingContext, siteUid: string, page: Page) {
  const { site } = await requireSite(ctx, siteUid, 'site.read');
  const rows = await ctx.db.select().from(siteVersions).where(eq(siteVersions.siteId, site.id)).orderBy(desc(siteVersions.number))
    .limit(page.perPage).offset(page.offset);
  const total = await ctx.db.$count(siteVersions, eq(siteVersions.siteId, site.id));
  return { items: rows.map((v) => versionBody(v, site.publishedVersionId)), total };
}

async function requireVersion(ctx: Context, site: Site, number: number): Promise<Version> {
  const [version] = await ctx.db.select().from(siteVersions).where(and(eq(siteVersions.siteId, site.id), eq(siteVersions.number, number)));
  if (!version) throw notFound('Version');
  return version;
}

export async function showVersion(ctx: ActingContext, siteUid: string, number: number): Promise<VersionBody> {
  const { site } = await requireSite(ctx, siteUid, 'site.read');
  return versionBody(await requireVersion(ctx, site, number), site.publishedVersionId);
}

export async function diffVersions(ctx: ActingContext, siteUid: string, from: number, to: number): Promise<Static<typeof DiffModel>> {
  const { site } = await requireSite(ctx, siteUid, 'site.read');
  const [a, b] = [await requireVersion(ctx, site, from), await requireVersion(ctx, site, to)];
  return { from, to, changes: changesBetween(a.snapshot as Snapshot, b.snapshot as Snapshot) };
}

/**
 * Rolls back: the drafts become what the version served, and are published at once as a new version
 * (`restored_from`), so the history only grows. Needs site.publish, and no review: it restores what was
 * reviewed and published before.
 */
export async function restoreVersion(ctx: ActingContext, siteUid: string, number: number): Promise<VersionBody> {
  const { site } = await requireSite(ctx, siteUid, 'site.publish');
  const version = await requireVersion(ctx, site, number);
  await lockSiteRow(ctx, site.id);
  await replaceDrafts(ctx, site.id, version.snapshot as Snapshot);
  return publishDrafts(ctx, site.id, await authorOf(ctx, ctx.actor.adminId), { note: `Restored version ${number}`, restoredFrom: number });
}

/** The drafts replaced by a snapshot's items; pages keep their ids, so menus and redirects still name them. */
async function replaceDrafts(ctx: Context, siteId: number, snapshot: Snapshot): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.delete(siteTemplates).where(eq(siteTemplates.siteId, siteId));
  await ctx.db.delete(siteFiles).where(eq(siteFiles.siteId, siteId));
  await ctx.db.delete(sitePages).where(eq(sitePages.siteId, siteId));
  await ctx.db.delete(siteMenus).where(eq(siteMenus.siteId, siteId));
  const templates = [
    ...Object.entries(snapshot.layouts).map(([name, source]) => ({ kind: 'layout' as const, name, source })),
    ...Object.entries(snapshot.snippets).map(([name, source]) => ({ kind: 'snippet' as const, name, source })),
  ];
  if (templates.length) await ctx.db.insert(siteTemplates).values(templates.map((t) => ({ ...t, siteId, createdAt: now, updatedAt: now })));
  const files = Object.entries(snapshot.files);
  if (files.length) await ctx.db.insert(siteFiles).values(files.map(([name, f]) => ({ siteId, name, body: f.body, createdAt: now, updatedAt: now })));
  if (snapshot.pages.length) {
    await ctx.db.insert(sitePages).values(snapshot.pages.map((p) => ({
      id: p.id, siteId, parentId: p.parentId, position: p.position, layout: p.layout, visibility: p.visibility, locales: p.locales, blocks: p.blocks,
      createdAt: now, updatedAt: now,
    })));
  }
  const menus = Object.entries(snapshot.menus);
  if (menus.length) await ctx.db.insert(siteMenus).values(menus.map(([uid, m]) => ({ siteId, uid, name: m.name, items: m.items, createdAt: now, updatedAt: now })));
  await ctx.db.update(sites).set({ draftRevision: sql`${sites.draftRevision} + 1`, updatedAt: now }).where(eq(sites.id, siteId));
}
