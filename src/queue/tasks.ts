import { sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Context } from '../context.js';
import type { Db } from '../db/connect.js';
import { rowsOf } from '../db/rows.js';
import type { Worker } from './loops.js';
import { sqlMoment } from '../db/columns.js';

/** A kind of task: its payload's type, how it is done, and how a failure is tried again. */
export interface TaskQueue<P> {
  /** The `queue` column's value. */
  name: string;
  /** How long a claimed task is its process's: past the longest run, so only a dead process's tasks are taken over. */
  leaseMs: number;
  /** Runs after which a failing task is kept as failed, not tried again. */
  maxAttempts: number;
  /** The wait after the nth failed run. */
  backoffMs(attempts: number): number;
  /** Does the task; a throw tries it again later, a `PermanentFailure` never. */
  run(ctx: Context, payload: P): Promise<void>;
}

/** A wait that triples after each failed run, from `firstMs`, never past an hour: for work that waits on another server. */
export const tripledBackoff = (firstMs: number) => (attempts: number) => Math.min(firstMs * 3 ** (attempts - 1), 3_600_000);

/** A failure that trying again cannot mend (a mail server's 5xx): the task is failed at once. */
export class PermanentFailure extends Error {}

/** Tasks one round takes and runs at once. */
const BATCH = 20;

/**
 * Writes a task, with the transaction `db` is (the code or link it carries commits with it, or neither
 * does). With `insert: false` the same statement writes nothing: a caller whose answer must not tell
 * whether there was anyone to write to takes the same time either way. The table's trigger wakes the
 * workers of every process on commit. `runAt`: not before then (a scheduled publish).
 */
export async function enqueue<P>(db: Db, clock: Clock, queue: TaskQueue<P>, payload: P, insert = true, runAt?: Date): Promise<void> {
  const now = clock.now();
  await db.execute(sql`insert into queue_tasks (queue, payload, run_at, created_at)
    select ${queue.name}, ${JSON.stringify(payload)}::jsonb, ${sqlMoment(runAt ?? now)}, ${sqlMoment(now)} where ${insert}`);
}

interface Claimed {
  id: number;
  queue: string;
  payload: unknown;
  attempts: number;
}

/** Takes due tasks of these queues with a lease, in one statement (FOR UPDATE SKIP LOCKED: every process shares them). */
async function claim(ctx: Context, names: string[], now: Date, lease: Date): Promise<Claimed[]> {
  return rowsOf<Claimed>(await ctx.db.execute(sql`update queue_tasks t set lease_until = ${sqlMoment(lease)}, attempts = t.attempts + 1
    where t.id in (select id from queue_tasks where failed_at is null and queue in (${sql.join(names.map((n) => sql`${n}`), sql`, `)})
      and run_at <= ${sqlMoment(now)} and (lease_until is null or lease_until <= ${sqlMoment(now)})
      order by run_at, id limit ${BATCH} for update skip locked)
    returning t.id, t.queue, t.payload, t.attempts`));
}

/**
 * Runs one task and records what came of it, unless its lease lapsed meanwhile (another process took it
 * over): done, it is deleted; failed, it is due again after its backoff, or failed for good.
 */
async function runClaimed(ctx: Context, queue: TaskQueue<unknown>, task: Claimed, lease: Date): Promise<void> {
  try {
    await queue.run(ctx, task.payload);
    await ctx.db.execute(sql`delete from queue_tasks where id = ${task.id} and lease_until = ${sqlMoment(lease)}`);
  } catch (err) {
    const final = err instanceof PermanentFailure || task.attempts >= queue.maxAttempts;
    const now = ctx.clock.now();
    const error = String((err as Error).message ?? err).slice(0, 500);
    ctx.log.warn({ queue: queue.name, task: task.id, attempts: task.attempts, final, reason: error }, 'a queued task failed');
    await ctx.db.execute(sql`update queue_tasks set lease_until = null, last_error = ${error},
      failed_at = ${final ? sqlMoment(now) : null}, run_at = ${sqlMoment(new Date(now.getTime() + queue.backoffMs(task.attempts)))}
      where id = ${task.id} and lease_until = ${sqlMoment(lease)}`);
  }
}

/** One round over the given queues: claims the due tasks and runs them at once. Answers how many it took. */
export async function taskRound(ctx: Context, queues: readonly TaskQueue<unknown>[]): Promise<number> {
  const now = ctx.clock.now();
  const byName = new Map(queues.map((q) => [q.name, q]));
  const lease = new Date(now.getTime() + Math.max(...queues.map((q) => q.leaseMs)));
  const claimed = await claim(ctx, [...byName.keys()], now, lease);
  await Promise.all(claimed.map((task) => runClaimed(ctx, byName.get(task.queue)!, task, lease)));
  return claimed.length;
}

/** Runs rounds until one finds nothing due; what tests call (with their clock) instead of the loops. */
export async function drainTasks(ctx: Context, queues: readonly TaskQueue<unknown>[]): Promise<void> {
  while (await taskRound(ctx, queues) > 0);
}

/**
 * When the next task is due: the first unheld one (read in the due index's order) or the end of a lease. A backlog of
 * retries waiting for a mail server that is down is not read each time the loop goes idle, but its first row.
 */
export const nextTaskDue = sql`select least(
    (select run_at from queue_tasks where failed_at is null and lease_until is null order by run_at limit 1),
    (select min(greatest(run_at, lease_until)) from queue_tasks where failed_at is null and lease_until is not null)) as next`;

/** The loop a serving process runs over the task queues: woken by the `tasks` notice, or when a retry falls due. */
export function taskWorker(ctx: Context, queues: readonly TaskQueue<unknown>[]): Worker {
  return {
    queue: 'tasks',
    loops: 1,
    round: () => taskRound(ctx, queues),
    nextDue: async () => {
      const [row] = rowsOf<{ next: string | Date | null }>(await ctx.db.execute(nextTaskDue));
      return row?.next ? new Date(row.next) : null;
    },
    busyPollMs: 1000,
    failed: (err) => ctx.log.error({ err }, 'task round failed'),
  };
}
