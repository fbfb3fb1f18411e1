/**
 * A small in-process cache whose entries live a fixed time, measured on the injected clock. Used
 * only for data every request reads; see `src/caches.ts` for how a change empties it everywhere.
 */
export class TtlCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();

  constructor(private readonly ttlMs: number, private readonly maxEntries: number) {}

  get(key: string, now: Date): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now.getTime()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: T, now: Date): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, until: now.getTime() + this.ttlMs });
  }

  clear(): void {
    this.entries.clear();
  }
}
