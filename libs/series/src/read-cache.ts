interface Entry {
  expires: number;
  value: Promise<unknown>;
}

/**
 * Answers of read queries, kept at most `ttlMs` (counted from the start of the query) and dropped
 * at once by `invalidate()`, which every write of this instance calls after it commits, and which
 * announcements of other instances' writes and CLI imports call too (`REDIS_URL`). Without Redis,
 * those show up here within `ttlMs` plus one query time.
 * Concurrent misses of one key share a single query; failed queries are not kept. `ttlMs <= 0`
 * turns the cache off.
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value as Promise<T>;
    const value = load();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const entry = { expires: now + this.ttlMs, value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** Forgets everything, including queries still running (their callers still get them). */
  invalidate(): void {
    this.entries.clear();
  }
}
