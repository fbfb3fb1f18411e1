/**
 * A small in-process cache whose entries live a fixed time, measured on the injected clock. Each
 * entry may carry tags (`user:42`, `realm:3`) so that a change drops only the entries it concerns.
 * Used only for data every request reads; see `src/caches.ts` for how a change empties it everywhere.
 */
export class TtlCache<T> {
  private readonly entries = new Map<string, { value: T; until: number; tags: readonly string[] }>();
  private readonly keysByTag = new Map<string, Set<string>>();

  constructor(private readonly ttlMs: number, private readonly maxEntries: number) {}

  get(key: string, now: Date): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now.getTime()) return entry.value;
    this.delete(key);
    return undefined;
  }

  /**
   * The value kept under `key`, else what `load` finds, then kept with the tags `tagsOf` gives it. Nothing found is
   * not kept: keys that name nothing (an unknown uid) must not fill the cache.
   */
  async getOrLoad<Found extends T | undefined>(key: string, now: Date, load: () => Promise<Found>, tagsOf: (value: T) => readonly string[]): Promise<T | Found> {
    const kept = this.get(key, now);
    if (kept !== undefined) return kept;
    const found = await load();
    if (found !== undefined) this.set(key, found as T, now, tagsOf(found as T));
    return found;
  }

  set(key: string, value: T, now: Date, tags: readonly string[] = []): void {
    if (this.entries.size >= this.maxEntries) this.clear();
    this.delete(key);
    this.entries.set(key, { value, until: now.getTime() + this.ttlMs, tags });
    for (const tag of tags) {
      let keys = this.keysByTag.get(tag);
      if (!keys) this.keysByTag.set(tag, keys = new Set());
      keys.add(key);
    }
  }

  /** Drops every entry carrying the tag. */
  drop(tag: string): void {
    for (const key of this.keysByTag.get(tag) ?? []) this.delete(key);
    this.keysByTag.delete(tag);
  }

  clear(): void {
    this.entries.clear();
    this.keysByTag.clear();
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByTag.delete(tag);
    }
  }
}
