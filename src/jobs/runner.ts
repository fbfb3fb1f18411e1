import { eq, sql } from 'drizzle-orm';
import type { Context } from '../context.js';
import { rowsOf } from '../db/rows.js';
import type { Worker } from '../queue/loops.js';
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

/** When the next job is due (now for one that never ran), or its lapsed lease may be taken over. */
async function nextJobDue(ctx: Context, jobs: readonly Job[]): Promise<Date | null> {
  const [row] = rowsOf<{ known: number; next: string | Date | null }>(await ctx.db.execute(sql`
    select count(*)::int as known, min(greatest(next_run_at, coalesce(lease_until, next_run_at))) as next
    from job_schedules where name in (${sql.join(jobs.map((job) => sql`${job.name}`), sql`, `)})`));
  if (!row || row.known < jobs.length) return ctx.clock.now();
  return row.next ? new Date(row.next) : null;
}

/** The periodic jobs as a worker of the one queue loop: asleep until the next job is due. */
export function jobWorker(ctx: Context, jobs: readonly Job[]): Worker {
  return {
    queue: 'jobs',
    loops: 1,
    round: async () => (await runDueJobs(ctx, jobs)).length,
    nextDue: () => nextJobDue(ctx, jobs),
    busyPollMs: 1000,
    // As before the queue loop: a process looks for due jobs a minute after it starts, not while it starts.
    startAfterMs: 60_000,
    failed: (err) => ctx.log.error({ err }, 'background jobs round failed'),
  };
}
