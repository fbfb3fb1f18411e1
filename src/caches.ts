import { randomUUID } from 'node:crypto';
import type { Database } from './db/connect.js';
import { afterCommit } from './db/request-transaction.js';
import { TtlCache } from './ttl-cache.js';

/**
 * The in-process caches of data every request reads: who may do what (`access`), customer
 * credentials and the active realms requests name (`customers`), custom field definitions (`fields`), pages of the segment list (`segments`), content API answers (`content`), the event types webhooks subscribe to (`webhooks`), served site pages (`sites`) and the forms respondents answer (`forms`). Entries live two seconds and
 * carry tags naming what they depend on (`admin:3`, `realm:7`, `user:42`, `session:9`, `client:5`).
 * Code that has changed such data (a write that took effect) calls `changed(name, ...tags)`: this
 * process drops the entries with those tags (all of them when no tag is given) at once, and every
 * other server process on the same PostgreSQL hears it through NOTIFY and does the same; the two
 * seconds only bound what a lost notification could cost.
 */
export type CacheName = 'access' | 'customers' | 'fields' | 'segments' | 'content' | 'webhooks' | 'sites' | 'forms';

export const CACHE_TTL_MS = 2000;
const MAX_ENTRIES = 50_000;
const EVERYTHING = '*';

export class Caches {
  private readonly byName = new Map<CacheName, TtlCache<unknown>>();
  /** Names this process's messages: it hears its own NOTIFY too, late, after it may have cached anew what the change left. */
  private readonly origin = randomUUID();

  constructor(private readonly database: Database) {}

  /** The cache of that name; what a cache holds is its callers' business (keys carry a prefix per kind). */
  of<T>(name: CacheName): TtlCache<T> {
    let cache = this.byName.get(name);
    if (!cache) this.byName.set(name, cache = new TtlCache<unknown>(CACHE_TTL_MS, MAX_ENTRIES));
    return cache as TtlCache<T>;
  }

  /**
   * Inside a request's transaction the entries are dropped at once and again after the commit, when
   * other processes are told too: a read meanwhile could have kept what the commit replaces.
   */
  changed(name: CacheName, ...tags: string[]): void {
    const message = [name, ...(tags.length ? tags : [EVERYTHING])].join(' ');
    this.apply(message);
    void afterCommit(() => {
      this.apply(message);
      this.database.broadcast(`${this.origin} ${message}`);
    });
  }

  /** Starts hearing other processes' changes; called once per server process. */
  follow(): Promise<void> {
    return this.database.subscribe((message) => {
      const space = message.indexOf(' ');
      if (message.slice(0, space) !== this.origin) this.apply(message.slice(space + 1));
    });
  }

  private apply(message: string): void {
    const [name, ...tags] = message.split(' ');
    const cache = this.byName.get(name as CacheName);
    if (!cache) return;
    for (const tag of tags) {
      if (tag === EVERYTHING) cache.clear();
      else cache.drop(tag);
    }
  }
}
