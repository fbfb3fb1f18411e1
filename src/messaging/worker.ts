import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import { rowsOf } from '../db/rows.js';
import type { Worker } from '../queue/loops.js';
import { sendingRound } from './sender.js';

/** A name for one sending loop, stored on the messages it takes: host, process, and a random part. */
export const workerName = () => `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** Runs rounds until one finds nothing to do; what tests call (with their clock) instead of the loops. */
export async function drainSending(ctx: Context, worker = workerName()): Promise<void> {
  while (await sendingRound(ctx, worker) > 0);
}

/**
 * Due now while a delivery is sending; else the start of the next scheduled one, or null with none.
 * One statement over the few deliveries not yet ended, instead of a round's eleven.
 */
async function nextSendingDue(ctx: Context): Promise<Date | null> {
  const [row] = rowsOf<{ busy: boolean | null; next_start: string | Date | null }>(await ctx.db.execute(sql`
    select bool_or(status = 'sending') as busy, min(starts_at) filter (where status = 'scheduled') as next_start
    from campaign_deliveries where status in ('scheduled', 'sending')`));
  if (row?.busy) return ctx.clock.now();
  return row?.next_start ? new Date(row.next_start) : null;
}

/**
 * The campaign sender of a serving process: several loops keep the mail pool busy while one waits for
 * the last messages of its batch or for its queries (4 loops: 77% of nodemailer alone in the benchmark;
 * 2: 65%). While a delivery sends, an empty round is followed by another after `busyPollMs`.
 */
export function campaignWorker(ctx: Context, busyPollMs: number, loops = 4): Worker {
  const workers = Array.from({ length: loops }, workerName);
  return {
    queue: 'campaigns',
    loops,
    round: (loop) => sendingRound(ctx, workers[loop]),
    nextDue: () => nextSendingDue(ctx),
    busyPollMs,
    failed: (err) => ctx.log.error({ err }, 'campaign sending round failed'),
  };
}
