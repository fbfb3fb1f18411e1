import { eq, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import { jobSchedules } from '../tables/jobs.js';

/** Work done every so often by whichever process claims it first. */
export interface Job {
  name: string;
  everyMs: number;
  /** How long a claimed run may take before another process may take the job over. */
  leaseMs: number;
  run(ctx: Context): Promise<unknown>;
}

/**
 * Claims the job's run if it is due and no live lease holds it: one statement both decides and
 * moves the schedule, so under any number of processes one run happens per period.
 */
async function claim(ctx: Context, job: Job, now: Date): Promise<boolean> {
  const next = new Date(now.getTime() + job.everyMs);
  const lease = new Date(now.getTime() + job.leaseMs);
  const rows = await ctx.db.insert(jobSchedules).values({ name: job.name, nextRunAt: next, leaseUntil: lease })
    .onConflictDoUpdate({
      target: jobSchedules.name,
      set: { nextRunAt: next, leaseUntil: lease },
      where: sql`${jobSchedules.nextRunAt} <= ${now.toISOString()}::timestamptz
        and (${jobSchedules.leaseUntil} is null or ${jobSchedules.leaseUntil} <= ${now.toISOString()}::timestamptz)`,
    })
    .returning({ name: jobSchedules.name });
  return rows.length > 0;
}

/** Runs every due job once, here and now; what the timer calls, and what tests call with their clock. */
export async function runDueJobs(ctx: Context, jobs: readonly Job[]): Promise<string[]> {
  const ran: string[] = [];
  for (const job of jobs) {
    if (!(await claim(ctx, job, ctx.clock.now()))) continue;
    let error: string | null = null;
    try {
      await job.run(ctx);
    } catch (err) {
      error = (err as Error).message;
      ctx.log.error({ job: job.name, err }, 'background job failed');
    }
    await ctx.db.update(jobSchedules).set({ leaseUntil: null, lastError: error }).where(eq(jobSchedules.name, job.name));
    ran.push(job.name);
  }
  return ran;
}

export interface JobTimer {
  stop(): Promise<void>;
}

/** Looks for due jobs every `pollMs` until stopped; a stop waits for the round under way. */
export function startJobs(ctx: Context, jobs: readonly Job[], pollMs: number): JobTimer {
  let round: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    round = round.then(() => runDueJobs(ctx, jobs)).catch((err) => ctx.log.error({ err }, 'background jobs round failed'));
  }, pollMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await round;
    },
  };
}
