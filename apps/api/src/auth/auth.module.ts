import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { ClientThrottlerGuard } from '../rate-limit/client-throttler.guard';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ScopeDeclarationCheck } from './scope-declaration-check.service';
import { TokenGuard } from './token.guard';
import { TokenModule } from './token.module';

/**
 * The application's guards, in the order they run: the rate limit first (so that guessing tokens is
 * limited too), then the token check. Provided under their classes as well, so that the answers
 * served before Nest's router (`serveCachedResponses`) go through the very same instances.
 */
export const GLOBAL_GUARDS = [ClientThrottlerGuard, TokenGuard] as const;

/** Tokens and who may call what. */
@Module({
  imports: [RateLimitModule, TokenModule, DiscoveryModule],
  providers: [
    ScopeDeclarationCheck,
    ...GLOBAL_GUARDS,
    ...GLOBAL_GUARDS.map((guard) => ({ provide: APP_GUARD, useExisting: guard })),
  ],
  exports: [TokenModule],
})
export class AuthModule {}
