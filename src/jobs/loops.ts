import type { JobTimer } from './runner.js';

/**
 * Loops that each run `round` back to back while it finds work (answers more than 0) and wait
 * `pollMs` when it finds none: the campaign and webhook senders of a serving process. A failed round
 * is reported and the loop goes on. A stop wakes the sleeping loops and waits for the rounds under way.
 */
export function startLoops(count: number, pollMs: number, round: (loop: number) => Promise<number>, failed: (err: unknown) => void): JobTimer {
  let stopped = false;
  const sleeping = new Set<() => void>();
  const loop = async (index: number) => {
    while (!stopped) {
      let work = 0;
      try {
        work = await round(index);
      } catch (err) {
        failed(err);
      }
      if (work === 0 && !stopped) {
        await new Promise<void>((resolve) => {
          const wake = () => { clearTimeout(timer); sleeping.delete(wake); resolve(); };
          const timer = setTimeout(wake, pollMs);
          timer.unref();
          sleeping.add(wake);
        });
      }
    }
  };
  const running = Array.from({ length: count }, (_, index) => loop(index));
  return {
    stop: async () => {
      stopped = true;
      for (const wake of [...sleeping]) wake();
      await Promise.all(running);
    },
  };
}
