import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Context } from '../context.js';
import { startLoops } from '../jobs/loops.js';
import type { JobTimer } from '../jobs/runner.js';
import { sendingRound } from './sender.js';

/** A name for one sending loop, stored on the messages it takes: host, process, and a random part. */
export const workerName = () => `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** Runs rounds until one finds nothing to do; what tests call (with their clock) instead of the timer. */
export async function drainSending(ctx: Context, worker = workerName()): Promise<void> {
  while (await sendingRound(ctx, worker) > 0);
}

/**
 * The sending loops of a serving process: each runs rounds back to back while there is work and looks
 * again every `pollMs` when there is none. Several loops keep the mail pool busy while one waits for
 * the last messages of its batch or for its queries (4 loops: 77% of nodemailer alone in the benchmark;
 * 2: 65%). A stop waits for the rounds under way.
 */
export function startSending(ctx: Context, pollMs: number, loops = 4): JobTimer {
  const workers = Array.from({ length: loops }, workerName);
  return startLoops(loops, pollMs, (loop) => sendingRound(ctx, workers[loop]), (err) => ctx.log.error({ err }, 'campaign sending round failed'));
}
