import { ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModuleOptions,
  ThrottlerRequest,
  ThrottlerStorage,
} from '@nestjs/throttler';
import {
  THROTTLER_BLOCK_DURATION,
  THROTTLER_KEY_GENERATOR,
  THROTTLER_LIMIT,
  THROTTLER_SKIP,
  THROTTLER_TRACKER,
  THROTTLER_TTL,
} from '@nestjs/throttler/dist/throttler.constants';
import { ApiError, MESSAGES } from '@app/common';
import { TokenService } from '../auth/token.service';
import { RouteMemo } from '../common/route-memo';

interface TrackedRequest {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}

interface HeaderSetter {
  header(name: string, value: string | number): unknown;
}

/** What `ThrottlerGuard.canActivate` works out for one throttler of one route, minus the context. */
type RouteThrottle = Omit<ThrottlerRequest, 'context'>;

/**
 * The rate limit per client: the token's client when a valid token is sent, otherwise the
 * caller's address. A 429 always carries `Retry-After` (whole seconds, at least 1).
 *
 * The library's `canActivate` reads six metadata keys per throttler and awaits each resolved value
 * on every request. Route metadata does not change after start-up, so this guard works it out once
 * per route and then only counts the hit (`handleRequest`, the library's own). Routes whose limits
 * are computed per request (functions, `skipIf`) keep the library's path.
 */
@Injectable()
export class ClientThrottlerGuard extends ThrottlerGuard {
  private readonly routes = new RouteMemo((handler, classRef) =>
    this.routeThrottles(handler, classRef),
  );

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly tokens: TokenService,
  ) {
    super(options, storage, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.routes.get(context);
    if (route === null) return super.canActivate(context);
    if (await this.shouldSkip(context)) return true;
    for (const throttle of route) {
      if (!(await this.handleRequest({ context, ...throttle }))) return false;
    }
    return true;
  }

  /** The throttlers of a route with their settled values; null when one is decided per request. */
  private routeThrottles(
    handler: (...args: never[]) => unknown,
    classRef: abstract new (...args: never[]) => unknown,
  ): RouteThrottle[] | null {
    if (this.commonOptions.skipIf) return null;
    const route: RouteThrottle[] = [];
    for (const throttler of this.throttlers) {
      const name = throttler.name ?? 'default';
      const meta = <T>(key: string): T | undefined =>
        this.reflector.getAllAndOverride<T | undefined>(key + name, [handler, classRef]);
      if (meta<boolean>(THROTTLER_SKIP)) continue;
      if (throttler.skipIf) return null;
      const limit = meta<unknown>(THROTTLER_LIMIT) ?? throttler.limit;
      const ttl = meta<unknown>(THROTTLER_TTL) ?? throttler.ttl;
      const blockDuration =
        meta<unknown>(THROTTLER_BLOCK_DURATION) ?? throttler.blockDuration ?? ttl;
      if (typeof limit !== 'number' || typeof ttl !== 'number' || typeof blockDuration !== 'number')
        return null;
      const getTracker =
        meta<RouteThrottle['getTracker']>(THROTTLER_TRACKER) ??
        throttler.getTracker ??
        this.commonOptions.getTracker;
      const generateKey =
        meta<RouteThrottle['generateKey']>(THROTTLER_KEY_GENERATOR) ??
        throttler.generateKey ??
        this.commonOptions.generateKey;
      if (!getTracker || !generateKey) return null;
      route.push({ throttler, limit, ttl, blockDuration, getTracker, generateKey });
    }
    return route;
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
