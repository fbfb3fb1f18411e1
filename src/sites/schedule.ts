import { and, asc, eq } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { ActingContext } from '../admin-auth/principal.js';
import { recordAudit, NO_ONE } from '../audit/log.js';
import { inTransaction } from '../context.js';
import { AppError, invalidField, notFound } from '../errors/index.js';
import { enqueue, PermanentFailure, type TaskQueue } from '../queue/tasks.js';
import { siteScheduledPublishes } from '../tables/sites.js';
import { authorOf, publishDrafts } from './publishing.js';
import type { ScheduledModel } from './schema.js';
import { requireSite } from './sites.js';

type Scheduled = typeof siteScheduledPublishes.$inferSelect;
export type ScheduledBody = Static<typeof ScheduledModel>;

const scheduledBody = (s: Scheduled): ScheduledBody => ({
  id: s.id, at: s.at.toISOString(), note: s.note, review_request_id: s.reviewRequestId,
  requested_by: { id: s.requestedBy, name: s.requestedByName }, created_at: s.createdAt.toISOString(),
});

/**
 * A scheduled publish, done by whichever process claims it once due: the drafts as they are then (with
 * require_review, the request must still be approved and the drafts unchanged since). A canceled one
 * finds its row gone and does nothing; one the site's state refuses fails for good, its reason kept on
 * the task and in the audit log.
 */
export const sitePublishQueue: TaskQueue<{ scheduleId: number }> = {
  name: 'site-publish',
  leaseMs: 120_000,
  maxAttempts: 5,
  backoffMs: (attempts) => 10_000 * attempts,
  async run(ctx, { scheduleId }) {
    const outcome = await inTransaction(ctx, async (tx) => {
      const [due] = await tx.db.delete(siteScheduledPublishes).where(eq(siteScheduledPublishes.id, scheduleId)).returning();
      if (!due) return null;
      try {
        await inTransaction(tx, (inner) => publishDrafts(inner, due.siteId, { id: due.requestedBy, name: due.requestedByName }, {
          note: due.note, reviewRequestId: due.reviewRequestId,
        }));
        return { due, status: 200, error: null };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return { due, status: 409, error: err.message };
      }
    });
    if (!outcome) return;
    await recordAudit(ctx.db, ctx.clock.now(), {
      actor: { ...NO_ONE, adminId: outcome.due.requestedBy }, operation: 'POST /api/admin/sites/{site_uid}/publish (scheduled)',
      resourceType: 'sites', resourceId: String(outcome.due.siteId), address: null, changed: [], statusCode: outcome.status,
    });
    if (outcome.error) throw new PermanentFailure(outcome.error);
  },
};

/** Schedules a publish of the drafts at a later moment (site.publish). */
export async function schedulePublish(ctx: ActingContext, siteUid: string, at: Date, note?: string, reviewRequestId?: number): Promise<ScheduledBody> {
  const { site } = await requireSite(ctx, siteUid, 'site.publish');
  if (at.getTime() <= ctx.clock.now().getTime()) throw invalidField('at', 'must be in the future (leave it out to publish now)');
  const author = await authorOf(ctx, ctx.actor.adminId);
  const now = ctx.clock.now();
  const [row] = await ctx.db.insert(siteScheduledPublishes).values({
    siteId: site.id, at, note: note ?? '', reviewRequestId: reviewRequestId ?? null, requestedBy: author.id, requestedByName: author.name,
    createdAt: now, updatedAt: now,
  }).returning();
  await enqueue(ctx.db, ctx.clock, sitePublishQueue, { scheduleId: row.id }, true, at);
  return scheduledBody(row);
}

export async function listScheduled(ctx: ActingContext, siteUid: string): Promise<ScheduledBody[]> {
  const { site } = await requireSite(ctx, siteUid, 'site.read');
  return (await ctx.db.select().from(siteScheduledPublishes).where(eq(siteScheduledPublishes.siteId, site.id)).orderBy(asc(siteScheduledPublishes.at))).map(scheduledBody);
}

export async function cancelScheduled(ctx: ActingContext, siteUid: string, id: number): Promise<void> {
  const { site } = await requireSite(ctx, siteUid, 'site.publish');
  const removed = await ctx.db.delete(siteScheduledPublishes).where(and(eq(siteScheduledPublishes.id, id), eq(siteScheduledPublishes.siteId, site.id))).returning();
  if (!removed.length) throw notFound('Scheduled publish');
}
