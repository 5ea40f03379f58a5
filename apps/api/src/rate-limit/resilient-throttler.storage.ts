import { Logger } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import Redis from 'ioredis';
import { REDIS_CLIENT_OPTIONS } from '@app/database';
import { MemoryThrottlerStorage } from './memory-throttler.storage';

type StorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Shared rate-limit counters in Redis, so that several instances share one budget. When Redis
 * cannot answer, the instance counts in its own memory for that request instead of failing it:
 * the limit then holds per instance until Redis is back.
 */
export class ResilientThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  private readonly redis: Redis;
  private readonly shared: ThrottlerStorageRedisService;
  private readonly local = new MemoryThrottlerStorage();
  private degraded = false;

  constructor(url: string) {
    this.redis = new Redis(url, {
      ...REDIS_CLIENT_OPTIONS,
      lazyConnect: false,
      enableOfflineQueue: false,
      commandTimeout: 500,
    });
    this.redis.on('error', () => undefined);
    this.shared = new ThrottlerStorageRedisService(this.redis);
  }

  get client(): Redis {
    return this.redis;
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

  /** Rejects when Redis does not answer (health check). */
  async ping(): Promise<void> {
    await this.redis.ping();
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

  async close(): Promise<void> {
    this.local.onApplicationShutdown();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
