import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiTokenRepository, RedisModule } from '@app/database';
import { ClientThrottlerGuard } from '../rate-limit/client-throttler.guard';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TokenGuard } from './token.guard';
import { TokenService } from './token.service';

/**
 * Tokens and who may call what. The guards run in this order: the rate limit first (so that
 * guessing tokens is limited too), then the token check.
 */
@Module({
  imports: [RateLimitModule, RedisModule],
  providers: [
    ApiTokenRepository,
    TokenService,
    { provide: APP_GUARD, useClass: ClientThrottlerGuard },
    { provide: APP_GUARD, useClass: TokenGuard },
  ],
  exports: [TokenService],
})
export class AuthModule {}
