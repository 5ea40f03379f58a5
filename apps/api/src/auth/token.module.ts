import { Module } from '@nestjs/common';
import { ApiTokenRepository } from '@app/database';
import { RedisModule } from '@app/messaging';
import { TokenService } from './token.service';

/** Who sends a request: the token check and the rate limit's per-client budgets both ask. */
@Module({
  imports: [RedisModule],
  providers: [ApiTokenRepository, TokenService],
  exports: [TokenService],
})
export class TokenModule {}
