import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '@app/config';
import { RedisConnections, RedisModule } from '@app/messaging';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { ResilientThrottlerStorage } from './resilient-throttler.storage';

export const THROTTLER_STORAGE = Symbol('THROTTLER_STORAGE');

/** How long start-up waits for Redis before serving with local counters. */
const REDIS_START_TIMEOUT_MS = 3000;

/** The rate-limit counters: in memory, or in Redis when `REDIS_URL` is set. */
@Module({
  imports: [RedisModule],
  providers: [
    {
      provide: THROTTLER_STORAGE,
      inject: [APP_CONFIG, RedisConnections],
      useFactory: async (config: AppConfig, redis: RedisConnections): Promise<ThrottlerStorage> => {
        if (!redis.enabled) return new MemoryThrottlerStorage(config.throttle.ttlSeconds * 1000);
        const storage = new ResilientThrottlerStorage(redis.commands());
        await storage.waitUntilReady(REDIS_START_TIMEOUT_MS);
        return storage;
      },
    },
  ],
  exports: [THROTTLER_STORAGE],
})
export class ThrottlerStorageModule implements OnApplicationShutdown {
  constructor(@Inject(THROTTLER_STORAGE) private readonly storage: ThrottlerStorage) {}

  onApplicationShutdown(): void {
    if (this.storage instanceof ResilientThrottlerStorage) this.storage.close();
    else if (this.storage instanceof MemoryThrottlerStorage) this.storage.onApplicationShutdown();
  }
}
