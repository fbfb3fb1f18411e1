import type { Database } from '../db/connect.js';

/** The NOTIFY channel the queues' triggers (migration 0014) and `wakeWorkers` speak on; the payload names the queue. */
export const WORK_CHANNEL = 'atrium_work';

/** A process sends at most one wake-up notice per queue in this time; one owed meanwhile is sent at its end. */
const NOTICE_SPACING_MS = 20;
/** Per database and queue, a notice sent in the last NOTICE_SPACING_MS: whether another is owed at its end. */
const spacing = new WeakMap<Database, Map<string, boolean>>();

/**
 * Wakes the workers of `queue` in every process, from code that wrote work for them (webhook deliveries: their
 * writers are on the request path, where a trigger's NOTIFY would make the transactions commit one at a time). Call
 * it after the commit (`afterCommit`): a notice heard before the work is visible makes a round that finds nothing,
 * and the work then waits for the worker's next look. Notices in quick succession make one, and one more at the end.
 */
export function wakeWorkers(database: Database, queue: string): void {
  let queues = spacing.get(database);
  if (!queues) spacing.set(database, queues = new Map());
  if (queues.has(queue)) queues.set(queue, true);
  else sendNotice(database, queues, queue);
}

function sendNotice(database: Database, queues: Map<string, boolean>, queue: string): void {
  queues.set(queue, false);
  database.notify(WORK_CHANNEL, queue);
  setTimeout(() => {
    const owed = queues.get(queue);
    queues.delete(queue);
    if (owed) sendNotice(database, queues, queue);
  }, NOTICE_SPACING_MS).unref();
}

/**
 * Wakes a process's sleeping workers when work is written for them, by this process or another: the
 * tables workers read carry row triggers that NOTIFY on commit (Graphile Worker's approach), so
 * no writer has to remember to. Between wake-ups a worker only looks again at its slow poll.
 */
export class WorkSignal {
  private readonly sleepers = new Map<string, Set<() => void>>();

  /** Starts hearing the database's notices; once per process. */
  static async follow(database: Database): Promise<WorkSignal> {
    const signal = new WorkSignal();
    await database.listen(WORK_CHANNEL, (queue) => signal.wake(queue));
    return signal;
  }

  wake(queue: string): void {
    for (const wake of [...(this.sleepers.get(queue) ?? [])]) wake();
  }

  /** Waits `ms`, or less when work for `queue` is written meanwhile or `stopping` wakes it; answers whether it was woken. */
  sleep(queue: string, ms: number, stopping: Set<() => void>): Promise<boolean> {
    return new Promise((resolve) => {
      let sleepers = this.sleepers.get(queue);
      if (!sleepers) this.sleepers.set(queue, sleepers = new Set());
      const end = (woken: boolean) => {
        clearTimeout(timer);
        sleepers!.delete(woke);
        stopping.delete(woke);
        resolve(woken);
      };
      const woke = () => end(true);
      const timer = setTimeout(() => end(false), Math.max(0, ms));
      timer.unref();
      sleepers.add(woke);
      stopping.add(woke);
    });
  }
}
