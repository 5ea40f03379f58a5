import { OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';

type StorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Counter {
  hits: number;
  /** End of the current window (ms since epoch). */
  expiresAt: number;
  /** End of the block, 0 when not blocked. */
  blockedUntil: number;
}

/** The longest pause between two sweeps of idle counters. */
const MAX_SWEEP_INTERVAL_MS = 60_000;

/**
 * In-memory rate-limit counters with the same fixed-window semantics as the Redis storage
 * (`@nest-lab/throttler-storage-redis`): `limit` hits per window of `ttl` ms, then blocked for
 * `blockDuration` ms. Constant time per request, whatever the limit (the stock
 * `ThrottlerStorageService` keeps and filters one timestamp per hit, which costs O(limit)).
 */
export class MemoryThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  /** By throttler name, then by key. */
  private readonly counters = new Map<string, Map<string, Counter>>();
  private sweeper?: NodeJS.Timeout;
  private readonly sweepIntervalMs: number;

  /**
   * Idle counters are dropped every `ttlMs` (1 s to 60 s): a counter lives at most about two
   * windows after its client's last request, so memory stays proportional to the clients of the
   * last two windows, however many addresses pass by.
   */
  constructor(ttlMs = MAX_SWEEP_INTERVAL_MS) {
    this.sweepIntervalMs = Math.max(1000, Math.min(MAX_SWEEP_INTERVAL_MS, ttlMs));
  }

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<StorageRecord> {
    return Promise.resolve(this.incrementNow(key, ttl, limit, blockDuration, throttlerName));
  }

  /**
   * `increment`, answered at once: the guard counts without waiting for a promise. Counters are
   * kept per throttler, then per key: no key is built per request, and a key the guard gives
   * again (the same string) is found without hashing it anew.
   */
  incrementNow(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): StorageRecord {
    const now = Date.now();
    let counters = this.counters.get(throttlerName);
    if (counters === undefined) {
      counters = new Map();
      this.counters.set(throttlerName, counters);
    }
    let counter = counters.get(key);
    if (!counter || (counter.expiresAt <= now && counter.blockedUntil <= now)) {
      counter = { hits: 0, expiresAt: now + ttl, blockedUntil: 0 };
      counters.set(key, counter);
      this.startSweeper();
    } else if (counter.expiresAt <= now) {
      counter.hits = 0;
      counter.expiresAt = now + ttl;
    }
    counter.hits++;
    if (counter.blockedUntil <= now && counter.hits > limit) {
      counter.blockedUntil = now + blockDuration;
    }
    const isBlocked = counter.blockedUntil > now;
    return {
      totalHits: counter.hits,
      timeToExpire: Math.ceil((counter.expiresAt - now) / 1000),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil((counter.blockedUntil - now) / 1000) : 0,
    };
  }

  /** Drops the counters whose window and block are both over. */
  sweep(now = Date.now()): void {
    for (const counters of this.counters.values()) {
      for (const [key, counter] of counters) {
        if (counter.expiresAt <= now && counter.blockedUntil <= now) counters.delete(key);
      }
    }
  }

  get size(): number {
    let size = 0;
    for (const counters of this.counters.values()) size += counters.size;
    return size;
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), this.sweepIntervalMs);
    this.sweeper.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.counters.clear();
  }
}
