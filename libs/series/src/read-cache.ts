interface Entry {
  expires: number;
  value: Promise<unknown>;
}

/**
 * A value read through a `ReadCache`, which can tell whether the cache still holds it: until it
 * expires, or the cache is invalidated. The response cache (apps/api) serves an answer made of it
 * exactly that long.
 */
export class CachedValue<T> {
  constructor(
    readonly value: T,
    private readonly held: (now: number) => boolean,
  ) {}

  isCurrent(now = Date.now()): boolean {
    return this.held(now);
  }

  /** A value made from this one, held exactly as long. */
  map<U>(make: (value: T) => U): CachedValue<U> {
    return new CachedValue(make(this.value), this.held);
  }
}

const NEVER_HELD = (): boolean => false;

/**
 * Hits and misses of one `ReadCache`, plain numbers that the API's metrics read when scraped:
 * nothing heavier on the read path.
 */
export interface CacheCounts {
  hits: number;
  misses: number;
}

/** Who provides each cache's counts (the API's `MetricsService`); absent in the admin CLI. */
export const READ_CACHE_COUNTS = Symbol('READ_CACHE_COUNTS');

export interface ReadCacheCounters {
  countsOf(cache: string): CacheCounts;
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
    private readonly counts: CacheCounts = { hits: 0, misses: 0 },
  ) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    return (this.entry(key, load)?.value ?? load()) as Promise<T>;
  }

  /** Like `get`, with whether the cache still holds the value (never, when the cache is off). */
  async getCached<T>(key: string, load: () => Promise<T>): Promise<CachedValue<T>> {
    const entry = this.entry(key, load);
    if (entry === undefined) return new CachedValue(await load(), NEVER_HELD);
    const value = (await entry.value) as T;
    return new CachedValue(value, (now) => entry.expires > now && this.entries.get(key) === entry);
  }

  /** Forgets everything, including queries still running (their callers still get them). */
  invalidate(): void {
    this.entries.clear();
  }

  /** The entry of `key`, loaded now if missing or expired; undefined when the cache is off. */
  private entry(key: string, load: () => Promise<unknown>): Entry | undefined {
    if (this.ttlMs <= 0) {
      this.counts.misses++;
      return undefined;
    }
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) {
      this.counts.hits++;
      return hit;
    }
    this.counts.misses++;
    const value = load();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const entry = { expires: now + this.ttlMs, value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry;
  }
}
