import { Module } from '@nestjs/common';
import { ThrottlerModule, ThrottlerStorage, seconds } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '@app/config';
import { THROTTLER_STORAGE, ThrottlerStorageModule } from './throttler-storage.module';

/**
 * One budget per client across all routes: `THROTTLE_LIMIT` requests per `THROTTLE_TTL` seconds.
 * Counters live in memory (swept when idle, so memory stays bounded) or, with `REDIS_URL`, in
 * Redis shared by every instance.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      imports: [ThrottlerStorageModule],
      inject: [APP_CONFIG, THROTTLER_STORAGE],
      useFactory: (config: AppConfig, storage: ThrottlerStorage) => ({
        throttlers: [{ ttl: seconds(config.throttle.ttlSeconds), limit: config.throttle.limit }],
        storage,
        // One key per client, whatever the route (the default key is per route).
        generateKey: (_context, tracker, name) => `${name}:${tracker}`,
      }),
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
