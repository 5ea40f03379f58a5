import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule, ThrottlerStorage } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '@app/config';
import { TokenModule } from '../auth/token.module';
import { TokenService } from '../auth/token.service';
import { clientBudget } from './client-budget';
import { ClientThrottlerGuard } from './client-throttler.guard';
import { THROTTLER_STORAGE, ThrottlerStorageModule } from './throttler-storage.module';
import { throttlerKey } from './throttler-key';

/**
 * One budget per client across all routes: its own (see `clientBudget`), else `THROTTLE_LIMIT`
 * requests per `THROTTLE_TTL` seconds. Counters live in memory (swept when idle, so memory stays
 * bounded) or, with `REDIS_URL`, in Redis shared by every instance. The guard is global, and
 * provided under its class as well, so that the answers served before Nest's router
 * (`serveCachedResponses`) go through the very same instance.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      imports: [ThrottlerStorageModule, TokenModule],
      inject: [APP_CONFIG, THROTTLER_STORAGE, TokenService],
      useFactory: (config: AppConfig, storage: ThrottlerStorage, tokens: TokenService) => ({
        throttlers: [clientBudget(tokens, config.throttle)],
        storage,
        generateKey: throttlerKey,
      }),
    }),
    TokenModule,
  ],
  providers: [ClientThrottlerGuard, { provide: APP_GUARD, useExisting: ClientThrottlerGuard }],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
