import { and, desc, eq } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import type { Page } from '../db/paging.js';
import { forbidden, notFound, reviewClosed } from '../errors/index.js';
import { siteReviewRequests } from '../tables/sites.js';
import { authorOf } from './publishing.js';
import type { ReviewModel } from './schema.js';
import { requireSite, type Site } from './sites.js';

type Review = typeof siteReviewRequests.$inferSelect;
export type ReviewBody = Static<typeof ReviewModel>;

const reviewBody = (r: Review, site: Site): ReviewBody => ({
  id: r.id, status: r.status, note: r.note, draft_revision: r.draftRevision, current: r.draftRevision === site.draftRevision,
  requested_by: { id: r.requestedBy, name: r.requestedByName },
  decided_by: r.decidedByName === null ? null : { id: r.decidedBy, name: r.decidedByName },
  decided_at: r.decidedAt?.toISOString() ?? null, comment: r.comment, created_at: r.createdAt.toISOString(), updated_at: r.updatedAt.toISOString(),
});

/** Asks for the drafts as they are now to be reviewed (site.write): a reviewer approves this revision, not later ones. */
export async function requestReview(ctx: ActingContext, siteUid: string, note: string | undefined): Promise<ReviewBody> {
  const { site } = await requireSite(ctx, siteUid, 'site.write');
  const author = await authorOf(ctx, ctx.actor.adminId);
  const now = ctx.clock.now();
  const [row] = await ctx.db.insert(siteReviewRequests).values({
    siteId: site.id, status: 'open', note: note?.trim() ?? '', draftRevision: site.draftRevision, requestedBy: author.id, requestedByName: author.name,
    createdAt: now, updatedAt: now,
  }).returning();
  return reviewBody(row, site);
}

export async function listReviews(ctx: ActingContext, siteUid: string, page: Page, status?: string) {
  const { site } = await requireSite(ctx, siteUid, 'site.read');
  const where = and(eq(siteReviewRequests.siteId, site.id), status ? eq(siteReviewRequests.status, status as Review['status']) : undefined);
  const rows = await ctx.db.select().from(siteReviewRequests).where(where).orderBy(desc(siteReviewRequests.id)).limit(page.perPage).offset(page.offset);
  return { items: rows.map((r) => reviewBody(r, site)), total: await ctx.db.$count(siteReviewRequests, where) };
}

async function requireReview(ctx: ActingContext, siteUid: string, id: number, permission: 'site.read' | 'site.write' | 'site.publish') {
  const { site } = await requireSite(ctx, siteUid, permission);
  const [review] = await ctx.db.select().from(siteReviewRequests).where(and(eq(siteReviewRequests.id, id), eq(siteReviewRequests.siteId, site.id))).for('update');
  if (!review) throw notFound('Review request');
  return { site, review };
}

export async function showReview(ctx: ActingContext, siteUid: string, id: number): Promise<ReviewBody> {
  const { site, review } = await requireReview(ctx, siteUid, id, 'site.read');
  return reviewBody(review, site);
}

/** Approves or rejects an open request (site.publish). */
export async function decideReview(ctx: ActingContext, siteUid: string, id: number, decision: 'approved' | 'rejected', comment?: string): Promise<ReviewBody> {
  const { site, review } = await requireReview(ctx, siteUid, id, 'site.publish');
  if (review.status !== 'open') throw reviewClosed(review.status);
  const author = await authorOf(ctx, ctx.actor.adminId);
  const now = ctx.clock.now();
  const [row] = await ctx.db.update(siteReviewRequests).set({
    status: decision, decidedBy: author.id, decidedByName: author.name, decidedAt: now, comment: comment?.trim() ?? null, updatedAt: now,
  }).where(eq(siteReviewRequests.id, review.id)).returning();
  return reviewBody(row, site);
}

/** The member who asked withdraws an open or approved request. */
export async function withdrawReview(ctx: ActingContext, siteUid: string, id: number): Promise<ReviewBody> {
  const { site, review } = await requireReview(ctx, siteUid, id, 'site.write');
  if (review.requestedBy !== ctx.actor.adminId) throw forbidden('Only the member who asked can withdraw a review request');
  if (review.status !== 'open' && review.status !== 'approved') throw reviewClosed(review.status);
  const [row] = await ctx.db.update(siteReviewRequests).set({ status: 'withdrawn', updatedAt: ctx.clock.now() }).where(eq(siteReviewRequests.id, review.id)).returning();
  return reviewBody(row, site);
}
