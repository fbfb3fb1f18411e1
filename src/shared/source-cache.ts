/**
 * What was made from a template's source (its parse), kept for the next time the same source comes: every mail of
 * a kind, every message of a delivery. Bounded by the characters of the sources it keeps rather than by a count: a
 * source may be 200 KB and its parse several times that, so a few hundred entries could hold gigabytes. Emptied when
 * full, like the TtlCache.
 */
export class SourceCache<T> {
  private readonly entries = new Map<string, T>();
  private chars = 0;

  constructor(private readonly maxChars = 2_000_000) {}

  /** The value kept under `key`, or `make`'s (kept unless `weight`, the characters it stands for, is over a quarter of the bound). */
  get(key: string, make: () => T, weight = key.length): T {
    const known = this.entries.get(key);
    if (known !== undefined) return known;
    const value = make();
    if (weight > this.maxChars / 4) return value;
    if (this.chars + weight > this.maxChars) {
      this.entries.clear();
      this.chars = 0;
    }
    this.entries.set(key, value);
    this.chars += weight;
    return value;
  }
}
