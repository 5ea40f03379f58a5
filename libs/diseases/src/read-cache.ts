interface Entry {
  expires: number;
  value: Promise<unknown>;
  /** The value has been read (a failed query is dropped instead). */
  ready: boolean;
  /** Reading the value again has started, once expired. */
  refreshing: boolean;
  /** The records' version read just before the value (with a `version`). */
  version?: string;
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
 * How long the caller that reads an expired answer again waits for the new one before it is
 * served the expired one: a quick query (most) still answers fresh, a slow one (through an open
 * import transaction on MySQL) makes no reader wait longer than this.
 */
export const REFRESH_WAIT_MS = 15;

/** `value`, if it settles within `REFRESH_WAIT_MS`; else `otherwise`. */
function soonElse(value: Promise<unknown>, otherwise: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<unknown>((resolve) => {
    timer = setTimeout(() => resolve(otherwise), REFRESH_WAIT_MS);
  });
  return Promise.race([value, late]).finally(() => clearTimeout(timer));
}

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
 * The one cache of computed results (decision 0054): answers of read queries and what is computed
 * from them (derived figures, the population table), kept `ttlMs` (counted from the start of the
 * query) and dropped at once
 * by `invalidate()`, which every write of this instance calls after it commits, and which
 * announcements of other instances' writes and CLI imports call too (`REDIS_URL`). With a
 * `version` (SQLite: it changes with every commit, any connection's), an expired answer read at
 * the version the records still have is kept another `ttlMs` instead of being computed again.
 * Without Redis, those show up here within `ttlMs` plus one query time: an expired answer is read again by the
 * first caller after it expires, who gets the new one if it comes within `REFRESH_WAIT_MS`, and
 * served meanwhile (an answer dropped by `invalidate()` is not: its callers wait for the new one).
 * Readers then never wait long for the periodic reads, which can be slow while a long import
 * transaction is open on MySQL.
 * Concurrent misses of one key share a single query; failed queries are not kept. `ttlMs <= 0`
 * turns the cache off.
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
    private readonly counts: CacheCounts = { hits: 0, misses: 0 },
    private readonly version?: () => Promise<string>,
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

  /**
   * The entry of `key`: held, loaded now if missing, or, if expired, the expired one while it is
   * read again (see the class); undefined when the cache is off.
   */
  private entry(key: string, load: () => Promise<unknown>): Entry | undefined {
    if (this.ttlMs <= 0) {
      this.counts.misses++;
      return undefined;
    }
    const now = Date.now();
    const held = this.entries.get(key);
    if (held && (held.expires > now || held.refreshing)) {
      this.counts.hits++;
      return held;
    }
    this.counts.misses++;
    if (held?.ready) {
      held.refreshing = true;
      const fresh = this.load(key, load, now, held);
      // This caller gets the new answer if it comes soon, else the expired one; not kept.
      return { ...held, expires: 0, value: soonElse(fresh.value, held.value) };
    }
    return this.load(key, load, now);
  }

  /** Reads `key` into a new entry, in place of `expired` (kept until then) if given. */
  private load(key: string, load: () => Promise<unknown>, now: number, expired?: Entry): Entry {
    const entry: Entry = {
      expires: now + this.ttlMs,
      value: this.read(load, expired, (version) => (entry.version = version)),
      ready: false,
      refreshing: false,
    };
    if (!expired) this.set(key, entry);
    entry.value.then(
      () => {
        entry.ready = true;
        // Unless invalidated meanwhile: a write committed, this read may predate it.
        if (expired && this.entries.get(key) === expired) this.set(key, entry);
      },
      () => {
        if (this.entries.get(key) === (expired ?? entry)) this.entries.delete(key);
      },
    );
    return entry;
  }

  /**
   * `load()`; with a version, read first (a write after it costs one more read, never a stale
   * answer), and the expired value kept when the records are still at its version.
   */
  private read(
    load: () => Promise<unknown>,
    expired: Entry | undefined,
    readAt: (version: string) => void,
  ): Promise<unknown> {
    if (!this.version) return load();
    return this.version().then((now) => {
      readAt(now);
      return expired?.ready && expired.version === now ? expired.value : load();
    });
  }

  private set(key: string, entry: Entry): void {
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) this.entries.clear();
    this.entries.set(key, entry);
  }
}
