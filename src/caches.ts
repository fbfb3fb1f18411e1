import type { Database } from './db/connect.js';
import { TtlCache } from './ttl-cache.js';

/**
 * The in-process caches of data every request reads: who may do what (`access`), customer
 * credentials (`customers`) and custom field definitions (`fields`). Entries live two seconds.
 * Code that changes such data calls `changed()`: this process drops that cache at once, and every
 * other server process on the same PostgreSQL hears it through NOTIFY and drops its own; the two
 * seconds only bound what a lost notification could cost.
 */
export type CacheName = 'access' | 'customers' | 'fields';

export const CACHE_TTL_MS = 2000;
const MAX_ENTRIES = 50_000;

export class Caches {
  private readonly byName = new Map<CacheName, TtlCache<unknown>>();

  constructor(private readonly database: Database) {}

  /** The cache of that name; what a cache holds is its callers' business (keys carry a prefix per kind). */
  of<T>(name: CacheName): TtlCache<T> {
    let cache = this.byName.get(name);
    if (!cache) this.byName.set(name, cache = new TtlCache<unknown>(CACHE_TTL_MS, MAX_ENTRIES));
    return cache as TtlCache<T>;
  }

  changed(name: CacheName): void {
    this.byName.get(name)?.clear();
    this.database.broadcast(name);
  }

  /** Starts hearing other processes' changes; called once per server process. */
  follow(): Promise<void> {
    return this.database.subscribe((name) => this.byName.get(name as CacheName)?.clear());
  }
}
