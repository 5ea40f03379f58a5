import { ExecutionContext } from '@nestjs/common';
import { seconds } from '@nestjs/throttler';
import { AppConfig } from '@app/config';
import { TokenService } from '../auth/token.service';

/**
 * The throttler's `limit` and `ttl` as functions of the request (the library resolves them on
 * every request): a client's own budget (`tokens limit`, `API_TOKENS`'s `name:token:100/60`),
 * else `THROTTLE_LIMIT` per `THROTTLE_TTL`. The block lasts one window (the library's default).
 */
export function clientBudget(
  tokens: TokenService,
  defaults: AppConfig['throttle'],
): { limit: (context: ExecutionContext) => number; ttl: (context: ExecutionContext) => number } {
  const budgetOf = (context: ExecutionContext) => {
    const caller = tokens.identify(context.switchToHttp().getRequest());
    return caller.kind === 'client' ? caller.budget : undefined;
  };
  return {
    limit: (context) => budgetOf(context)?.limit ?? defaults.limit,
    ttl: (context) => seconds(budgetOf(context)?.windowSeconds ?? defaults.ttlSeconds),
  };
}
