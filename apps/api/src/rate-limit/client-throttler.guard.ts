import { ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModuleOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import { ApiError, MESSAGES } from '@app/common';
import { TokenService } from '../auth/token.service';

interface TrackedRequest {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}

interface HeaderSetter {
  header(name: string, value: string | number): unknown;
}

/**
 * The rate limit per client: the token's client when a valid token is sent, otherwise the
 * caller's address. A 429 always carries `Retry-After` (whole seconds, at least 1).
 */
@Injectable()
export class ClientThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly tokens: TokenService,
  ) {
    super(options, storage, reflector);
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    const req = request as unknown as TrackedRequest;
    const caller = this.tokens.identify(req);
    return Promise.resolve(caller.kind === 'client' ? `client:${caller.client}` : `ip:${req.ip}`);
  }

  protected override throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const retryAfter = Math.max(1, Math.ceil(detail.timeToBlockExpire));
    context.switchToHttp().getResponse<HeaderSetter>().header('Retry-After', retryAfter);
    throw new ApiError(HttpStatus.TOO_MANY_REQUESTS, MESSAGES.tooManyRequests);
  }
}
