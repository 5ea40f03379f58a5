import { Logger } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import Redis from 'ioredis';
import { MemoryThrottlerStorage } from './memory-throttler.storage';

type StorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Shared rate-limit counters in Redis, so that several instances share one budget. When Redis
 * cannot answer, the instance counts in its own memory for that request instead of failing it:
 * the limit then holds per instance until Redis is back.
 */
export class ResilientThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  private readonly shared: ThrottlerStorageRedisService;
  private readonly local = new MemoryThrottlerStorage();
  private degraded = false;

  /** `redis`: a connection without offline queue and with a short command timeout. */
  constructor(private readonly redis: Redis) {
    this.shared = new ThrottlerStorageRedisService(redis);
  }

  /**
   * Resolves once the first connection is ready, or at its first failure, or after `timeoutMs`:
   * start-up waits for Redis a little so that the first requests are already counted in the shared
   * budget, and goes on (counting locally) when Redis is down.
   */
  async waitUntilReady(timeoutMs: number): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done).off('error', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.redis.once('ready', done).once('error', done);
    });
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<StorageRecord> {
    try {
      const record = await this.shared.increment(key, ttl, limit, blockDuration, throttlerName);
      if (this.degraded) {
        this.degraded = false;
        this.logger.log('Redis is back: the rate limit is shared again');
      }
      return record;
    } catch {
      if (!this.degraded) {
        this.degraded = true;
        this.logger.warn('Redis unreachable: counting the rate limit in this instance meanwhile');
      }
      return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }

  /** The connection itself belongs to `RedisConnections`, which closes it. */
  close(): void {
    this.local.onApplicationShutdown();
  }
}
