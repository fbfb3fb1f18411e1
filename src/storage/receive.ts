import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { FileInspection } from './checks.js';
import type { Storage } from './storage.js';

/** Why a write was stopped: the file was refused, so nothing of it may stay. */
class Refused extends Error {}

/**
 * Stores a file under `key` while it arrives, as long as its inspection finds nothing wrong, with the
 * source's pace (nothing is held whole in memory). Every byte of the source is read, so that a form's
 * next parts can be, but a file refused midway stops being written and its partial copy is removed by
 * the storage driver; so is a file whose source fails (a client that goes away), and that failure is
 * thrown. Answers the reasons the file is refused: when there are any, nothing is stored.
 */
export async function storeInspected(
  storage: Storage, key: string, source: Readable, inspection: FileInspection, truncated: () => boolean,
): Promise<string[]> {
  const sink = new PassThrough();
  // Its failures reach the caller through `stored` (the storage driver's pipeline sees them too).
  sink.on('error', () => {});
  let writing = !inspection.refused;
  // Settles, never rejects: with null once stored, with the failure otherwise.
  const stored: Promise<unknown> = writing ? storage.put(key, sink).then(() => null, (err: unknown) => err ?? new Error('not stored')) : Promise.resolve(null);
  let storeFailure: unknown = null;
  const stop = (reason: Error) => {
    writing = false;
    sink.destroy(reason);
  };
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      await inspection.take(chunk);
      if (!writing) continue;
      if (inspection.refused) {
        stop(new Refused());
      } else if (!sink.write(chunk)) {
        const failure = await Promise.race([once(sink, 'drain').then(() => null, () => null), stored]);
        if (failure) {
          storeFailure = failure;
          writing = false;
        }
      }
    }
  } catch (err) {
    stop(err as Error);
    await stored;
    throw err;
  }
  const reasons = await inspection.reasons(truncated());
  if (writing && reasons.length) stop(new Refused());
  if (writing) sink.end();
  const outcome = await stored;
  if (storeFailure) throw storeFailure;
  if (!reasons.length && outcome) throw outcome;
  return reasons;
}
