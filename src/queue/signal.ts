import type { Database } from '../db/connect.js';

/** The NOTIFY channel the queues' triggers (migration 0014) speak on; the payload names the queue. */
export const WORK_CHANNEL = 'atrium_work';

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
