import { and, asc, eq, lte } from 'drizzle-orm';
import type { Context } from '../context.js';
import type { Job } from '../jobs/runner.js';
import { fieldsOf } from '../realms/custom-fields.js';
import { parseFilters } from './filters.js';
import { alive, countOf, segmentsChanged } from './segments.js';
import { segments } from '../tables/segments.js';

/** A count older than this is taken again; with the job's period and poll, no shown count is five minutes old. */
export const RECOUNT_AFTER_MS = 2 * 60_000;

/**
 * Counts again the users of every segment whose count is due, oldest first, each against its realm's
 * custom fields as they are now. A count that fails (or outlives its timeout) is logged and left for the
 * next run; a count written meanwhile by a change of the segment is never overwritten by an older one.
 */
export async function refreshMatchCounts(ctx: Context): Promise<number> {
  const now = ctx.clock.now();
  const due = await ctx.db.select({ id: segments.id, realmId: segments.realmId, filters: segments.filters, countedAt: segments.countedAt })
    .from(segments).where(and(lte(segments.countedAt, new Date(now.getTime() - RECOUNT_AFTER_MS)), alive(now)))
    .orderBy(asc(segments.countedAt));
  let refreshed = 0;
  for (const segment of due) {
    try {
      const tree = parseFilters(segment.filters, await fieldsOf(ctx, segment.realmId), 'stored');
      const countedAt = ctx.clock.now();
      const matches = await countOf(ctx, { id: segment.realmId }, tree, countedAt);
      await ctx.db.update(segments).set({ matchesCount: matches, countedAt })
        .where(and(eq(segments.id, segment.id), eq(segments.countedAt, segment.countedAt)));
      refreshed++;
    } catch (err) {
      ctx.log.error({ err, segment: segment.id }, 'segment count failed');
    }
  }
  if (refreshed) segmentsChanged(ctx);
  return refreshed;
}

export const segmentCountsJob: Job = { name: 'segment-counts', everyMs: 60_000, leaseMs: 10 * 60_000, run: refreshMatchCounts };
