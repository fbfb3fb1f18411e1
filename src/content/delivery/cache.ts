import { CACHE_TTL_MS } from '../../caches.js';
import type { Context } from '../../context.js';

/**
 * The content API's kept answers. Whether one is still valid is asked of the shared `content` cache
 * (`ctx.caches`), where each answer has a small marker: a change of content empties that cache in every
 * process, and the markers with it. The answers themselves are kept here, within a budget of bytes, the
 * oldest dropped first: any query string makes its own answer, and a hundred entries embedded two levels
 * deep weigh far more than the shared cache's per-entry bound assumes.
 *
 * An answer kept more than FRESH_MS (and less than the shared cache's two seconds) is answered while one
 * request reads it again, and concurrent requests for one key share one reading, so that under load no
 * request waits for an expiry and the database sees one query per key and second. Past those two seconds its
 * marker is gone and it is never answered again: each new answer drops the oldest such ones, so that queries
 * asked once (a search page's) do not fill the budget with dead answers.
 */
const FRESH_MS = 1_000;
const BUDGET_BYTES = 64 * 1024 * 1024;

interface Kept {
  marker: object;
  value: unknown;
  bytes: number;
  freshUntil: number;
  /** When its marker expires in the shared cache. */
  deadAt: number;
}

class AnswerStore {
  readonly kept = new Map<string, Kept>();
  readonly reading = new Map<string, Promise<unknown>>();
  bytes = 0;

  /** Keeps `kept` as the newest answer, then drops the oldest while they are dead at `now` or over the budget. */
  put(key: string, kept: Kept, now: number): void {
    this.drop(key);
    this.kept.set(key, kept);
    this.bytes += kept.bytes;
    for (const [oldest, entry] of this.kept) {
      if (this.bytes <= BUDGET_BYTES && entry.deadAt > now) break;
      this.kept.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  drop(key: string): void {
    const found = this.kept.get(key);
    if (!found) return;
    this.kept.delete(key);
    this.bytes -= found.bytes;
  }
}

const stores = new WeakMap<object, AnswerStore>();

function storeOf(ctx: Context): AnswerStore {
  let store = stores.get(ctx.caches);
  if (!store) stores.set(ctx.caches, store = new AnswerStore());
  return store;
}

/** The answer kept under `text` while its marker in the shared cache is still its own (fresh or not); a stale one is dropped. */
function validKept(ctx: Context, store: AnswerStore, text: string, now: Date): Kept | undefined {
  const found = store.kept.get(text);
  if (!found) return undefined;
  if (ctx.caches.of<object>('content').get(text, now) === found.marker) return found;
  store.drop(text);
  return undefined;
}

/** The answer kept for `key` while it is still valid (fresh or not), without reading it again; undefined when none is. */
export function validAnswer<T>(ctx: Context, key: unknown[]): T | undefined {
  return validKept(ctx, storeOf(ctx), JSON.stringify(key), ctx.clock.now())?.value as T | undefined;
}

/** What `make` answers for `key`; `bytes` weighs a value against the budget. */
export async function keptAnswer<T>(ctx: Context, key: unknown[], bytes: (value: T) => number, make: () => Promise<T>): Promise<T> {
  const store = storeOf(ctx);
  const markers = ctx.caches.of<object>('content');
  const text = JSON.stringify(key);
  const now = ctx.clock.now();
  const kept = validKept(ctx, store, text, now);
  if (kept && kept.freshUntil > now.getTime()) return kept.value as T;
  let next = store.reading.get(text) as Promise<T> | undefined;
  if (!next) {
    const reading = store.reading;
    next = make().then((value) => {
      const at = ctx.clock.now();
      const marker = {};
      markers.set(text, marker, at);
      store.put(text, { marker, value, bytes: bytes(value) + text.length, freshUntil: at.getTime() + FRESH_MS, deadAt: at.getTime() + CACHE_TTL_MS }, at.getTime());
      return value;
    }).finally(() => reading.delete(text));
    reading.set(text, next);
  }
  if (!kept) return next;
  next.catch((err: unknown) => ctx.log.warn({ err }, 'a content answer could not be read again'));
  return kept.value as T;
}
