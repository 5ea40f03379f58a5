import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '@app/config';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { ResilientThrottlerStorage } from './resilient-throttler.storage';

export const THROTTLER_STORAGE = Symbol('THROTTLER_STORAGE');

/** How long start-up waits for Redis before serving with local counters. */
const REDIS_START_TIMEOUT_MS = 3000;

/** The rate-limit counters: in memory, or in Redis when `REDIS_URL` is set. */
@Module({
  providers: [
    {
      provide: THROTTLER_STORAGE,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig): Promise<ThrottlerStorage> => {
        if (!config.redisUrl) return new MemoryThrottlerStorage(config.throttle.ttlSeconds * 1000);
        const storage = new ResilientThrottlerStorage(config.redisUrl);
        await storage.waitUntilReady(REDIS_START_TIMEOUT_MS);
        return storage;
      },
    },
  ],
  exports: [THROTTLER_STORAGE],
})
export class ThrottlerStorageModule implements OnApplicationShutdown {
  constructor(@Inject(THROTTLER_STORAGE) private readonly storage: ThrottlerStorage) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.storage instanceof ResilientThrottlerStorage) await this.storage.close();
    else if (this.storage instanceof MemoryThrottlerStorage) this.storage.onApplicationShutdown();
  }
}
