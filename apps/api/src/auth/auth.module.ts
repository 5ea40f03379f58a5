import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { ScopeDeclarationCheck } from './scope-declaration-check.service';
import { TokenGuard } from './token.guard';
import { TokenModule } from './token.module';

/**
 * Tokens and who may call what: the token check, a global guard. Provided under its class as
 * well, so that the answers served before Nest's router (`serveCachedResponses`) go through the
 * very same instance.
 */
@Module({
  imports: [TokenModule, DiscoveryModule],
  providers: [ScopeDeclarationCheck, TokenGuard, { provide: APP_GUARD, useExisting: TokenGuard }],
  exports: [TokenModule],
})
export class AuthModule {}
