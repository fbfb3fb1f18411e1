import type { WorkSignal } from './signal.js';

/** How long an idle worker sleeps before it looks again without being woken: what a lost notice costs at most. */
export const SLOW_POLL_MS = 30_000;

/** How a queue's work is done by the loops of one process. */
export interface Worker {
  /** The queue's name, as its tables' trigger NOTIFYs it. */
  queue: string;
  /** Loops run side by side (several keep a mail pool busy while one waits on its queries). */
  loops: number;
  /** Does what is due; answers how much it did (0: nothing was). */
  round(loop: number): Promise<number>;
  /**
   * Asked instead of a round while idle, in one cheap statement: when work is next due (now or
   * earlier: at once), or null when none is waiting. A round is only run when something is due.
   */
  nextDue(): Promise<Date | null>;
  /** The wait after a round that found nothing while work may be under way (a paced delivery, a lapsing lease). */
  busyPollMs: number;
  /** A wait before the first round, leaving a starting process to its start (the periodic jobs). */
  startAfterMs?: number;
  failed(err: unknown): void;
}

export interface RunningWorker {
  /** Wakes the sleeping loops and waits for the rounds under way (a mail being sent is finished, not cut). */
  stop(): Promise<void>;
}

/**
 * Runs the worker's loops: rounds back to back while they find work; then, until woken by a notice
 * of new work or by the time the queue says work is due, one `nextDue` statement per slow poll.
 * At rest a process thus asks the database a few statements a minute, not several a second.
 */
export function startWorker(signal: WorkSignal, worker: Worker, now: () => Date): RunningWorker {
  let stopped = false;
  const stopping = new Set<() => void>();
  const attempt = async <T>(fn: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      worker.failed(err);
      return fallback;
    }
  };
  const loop = async (index: number) => {
    if (worker.startAfterMs) await signal.sleep(`${worker.queue}:start`, worker.startAfterMs, stopping);
    let idle = false;
    while (!stopped) {
      if (idle) {
        const due = await attempt(() => worker.nextDue(), undefined);
        // A failed look (the database away) is tried again soon, as a round would be.
        const wait = due === undefined ? worker.busyPollMs : due === null ? SLOW_POLL_MS : due.getTime() - now().getTime();
        if (wait > 0 || due === undefined) {
          idle = !(await signal.sleep(worker.queue, Math.min(wait, SLOW_POLL_MS), stopping));
          continue;
        }
      }
      const work = await attempt(() => worker.round(index), 0);
      if (work > 0 || stopped) {
        idle = false;
        continue;
      }
      idle = !(await signal.sleep(worker.queue, worker.busyPollMs, stopping));
    }
  };
  const running = Array.from({ length: worker.loops }, (_, index) => loop(index));
  return {
    stop: async () => {
      stopped = true;
      for (const wake of [...stopping]) wake();
      await Promise.all(running);
    },
  };
}
