import { ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  SkipThrottle,
  Throttle,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModuleOptions,
  ThrottlerRequest,
  ThrottlerStorage,
  normalizeIp,
} from '@nestjs/throttler';
import { ApiError, MESSAGES } from '@app/common';
import { Scope } from '@app/config';
import { Caller, TokenService } from '../auth/token.service';
import { ImmediateGuard } from '../response-cache/immediate-guard';
import { RouteMemo } from '../response-cache/route-memo';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { THROTTLE_EXEMPT_SCOPE } from './skip-throttle-for.decorator';

/**
 * The metadata keys of `@Throttle()` and `@SkipThrottle()`, which the library does not export:
 * learnt once from the decorators themselves, applied to a probe, so no internal file is imported.
 */
function throttlerMetadataKeys(): Record<
  'limit' | 'ttl' | 'block' | 'tracker' | 'keys' | 'skip',
  string
> {
  const name = '#probe';
  const values = {
    ttl: 1.5,
    limit: 2.5,
    blockDuration: 3.5,
    getTracker: () => '',
    generateKey: () => '',
  };
  class Probe {}
  Throttle({ [name]: values })(Probe);
  SkipThrottle({ [name]: true })(Probe);
  const keyOf = (value: unknown): string => {
    const key = Reflect.getMetadataKeys(Probe).find(
      (k: unknown) =>
        typeof k === 'string' && k.endsWith(name) && Reflect.getMetadata(k, Probe) === value,
    ) as string | undefined;
    if (!key) throw new Error('@nestjs/throttler: metadata keys not found');
    return key.slice(0, -name.length);
  };
  return {
    limit: keyOf(values.limit),
    ttl: keyOf(values.ttl),
    block: keyOf(values.blockDuration),
    tracker: keyOf(values.getTracker),
    keys: keyOf(values.generateKey),
    skip: keyOf(true),
  };
}

export const THROTTLER_METADATA = throttlerMetadataKeys();

interface TrackedRequest {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}

interface HeaderSetter {
  header(name: string, value: string | number): unknown;
}

/** What `ThrottlerGuard.canActivate` works out for one throttler of one route, minus the context. */
type RouteThrottle = Omit<ThrottlerRequest, 'context'>;

/** What `handleRequest` works out per request for one throttler, worked out once (`countNow`). */
interface NowThrottle extends RouteThrottle {
  name: string;
  /** The header names, or null when the throttler sets no headers (`setHeaders: false`). */
  headers: { limit: string; remaining: string; reset: string; retryAfter: string } | null;
}

/**
 * The throttlers of one route; `now` when their hits can be counted at once (`countNow`), null
 * when they go through `handleRequest`.
 */
interface Route {
  throttles: RouteThrottle[];
  now: NowThrottle[] | null;
  /** `@SkipThrottleFor()`: callers whose token holds this scope are not counted. */
  exemptFor: Scope | null;
}

/**
 * The rate limit per client: the token's client when a valid token is sent, otherwise the
 * caller's address. A 429 always carries `Retry-After` (whole seconds, at least 1).
 *
 * The library's `canActivate` reads six metadata keys per throttler and awaits each resolved value
 * on every request. Route metadata does not change after start-up, so this guard works it out once
 * per route and then only counts the hit (`handleRequest`, the library's own). Routes whose limits
 * are computed per request (functions, `skipIf`) keep the library's path. With the counters in
 * this process's memory (no `REDIS_URL`), the hit is counted without a promise (`countNow`, the
 * same steps as `handleRequest`), which the answers served before Nest's router
 * (`serveCachedResponses`) showed in the bench (bench/HISTORY.md, change 13).
 * `shouldSkip` is not overridden here: the library's answers false, so it is not asked.
 */
@Injectable()
export class ClientThrottlerGuard extends ThrottlerGuard implements ImmediateGuard {
  private readonly routes = new RouteMemo((handler, classRef) => this.route(handler, classRef));

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
    if (route.exemptFor !== null && this.holds(context, route.exemptFor)) return true;
    if (route.now) return this.countNow(context, route.now);
    const budget = this.budgetOf(context.getArgByIndex<TrackedRequest>(0));
    for (const throttle of route.throttles) {
      if (!(await this.handleRequest({ context, ...throttle, ...budget }))) return false;
    }
    return true;
  }

  /** The verdict without a promise when the counters answer at once (`ImmediateGuard`). */
  canActivateNow(context: ExecutionContext): boolean | undefined {
    const route = this.routes.get(context);
    if (!route?.now) return undefined;
    if (route.exemptFor !== null && this.holds(context, route.exemptFor)) return true;
    return this.countNow(context, route.now);
  }

  private holds(context: ExecutionContext, scope: Scope): boolean {
    const caller = this.tokens.identify(context.getArgByIndex<TrackedRequest>(0));
    return caller.kind === 'client' && caller.scopes.has(scope);
  }

  /** `handleRequest` step by step, with counters that answer at once (`MemoryThrottlerStorage`). */
  private countNow(context: ExecutionContext, throttles: NowThrottle[]): true {
    const storage = this.storageService as MemoryThrottlerStorage;
    const request = context.getArgByIndex<TrackedRequest>(0);
    const response = context.getArgByIndex<HeaderSetter>(1);
    const caller = this.tokens.identify(request);
    const tracker = this.trackerFor(caller, request);
    const budget = caller.kind === 'client' ? budgetLimits(caller) : undefined;
    for (const throttle of throttles) {
      const { name, generateKey, headers } = throttle;
      const { limit, ttl, blockDuration } = budget ?? throttle;
      const key = generateKey(context, tracker, name);
      const record = storage.incrementNow(key, ttl, limit, blockDuration, name);
      if (record.isBlocked) {
        if (headers) response.header(headers.retryAfter, record.timeToBlockExpire);
        this.refuse(response, record.timeToBlockExpire);
      }
      if (headers) {
        response.header(headers.limit, limit);
        response.header(headers.remaining, Math.max(0, limit - record.totalHits));
        response.header(headers.reset, record.timeToExpire);
      }
    }
    return true;
  }

  private route(
    handler: (...args: never[]) => unknown,
    classRef: abstract new (...args: never[]) => unknown,
  ): Route | null {
    const throttles = this.routeThrottles(handler, classRef);
    if (throttles === null) return null;
    // `trackerOf` stands for the tracker only when the module options set none of their own.
    const ownTracker = Array.isArray(this.options) || this.options.getTracker === undefined;
    const countable =
      ownTracker &&
      this.storageService instanceof MemoryThrottlerStorage &&
      this.commonOptions.ignoreUserAgents === undefined &&
      throttles.every(
        ({ throttler, getTracker }) =>
          getTracker === this.commonOptions.getTracker && throttler.ignoreUserAgents === undefined,
      );
    const exemptFor =
      this.reflector.getAllAndOverride<Scope | undefined>(THROTTLE_EXEMPT_SCOPE, [
        handler,
        classRef,
      ]) ?? null;
    return {
      throttles,
      now: countable ? throttles.map((t) => this.nowThrottle(t)) : null,
      exemptFor,
    };
  }

  /**
   * The header names `handleRequest` builds on every request, built once, in lower case as Fastify
   * keeps them (the same on the wire; not lowered again per request).
   */
  private nowThrottle(throttle: RouteThrottle): NowThrottle {
    const name = throttle.throttler.name as string;
    const suffix = name === 'default' ? '' : `-${name}`;
    const setHeaders = throttle.throttler.setHeaders ?? this.commonOptions.setHeaders ?? true;
    const lower = (header: string) => header.toLowerCase();
    const headers = setHeaders
      ? {
          limit: lower(`${this.headerPrefix}-Limit${suffix}`),
          remaining: lower(`${this.headerPrefix}-Remaining${suffix}`),
          reset: lower(`${this.headerPrefix}-Reset${suffix}`),
          retryAfter: lower(`Retry-After${suffix}`),
        }
      : null;
    return { ...throttle, name, headers };
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
      if (meta<boolean>(THROTTLER_METADATA.skip)) continue;
      if (throttler.skipIf) return null;
      const limit = meta<unknown>(THROTTLER_METADATA.limit) ?? throttler.limit;
      const ttl = meta<unknown>(THROTTLER_METADATA.ttl) ?? throttler.ttl;
      const blockDuration =
        meta<unknown>(THROTTLER_METADATA.block) ?? throttler.blockDuration ?? ttl;
      if (typeof limit !== 'number' || typeof ttl !== 'number' || typeof blockDuration !== 'number')
        return null;
      const getTracker =
        meta<RouteThrottle['getTracker']>(THROTTLER_METADATA.tracker) ??
        throttler.getTracker ??
        this.commonOptions.getTracker;
      const generateKey =
        meta<RouteThrottle['generateKey']>(THROTTLER_METADATA.keys) ??
        throttler.generateKey ??
        this.commonOptions.generateKey;
      if (!getTracker || !generateKey) return null;
      route.push({ throttler, limit, ttl, blockDuration, getTracker, generateKey });
    }
    return route;
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    return Promise.resolve(this.trackerOf(request as unknown as TrackedRequest));
  }

  private trackerOf(request: TrackedRequest): string {
    return this.trackerFor(this.tokens.identify(request), request);
  }

  /** A client's own budget, as the throttler's limit, ttl and block duration (ms). */
  private budgetOf(request: TrackedRequest): ReturnType<typeof budgetLimits> {
    const caller = this.tokens.identify(request);
    return caller.kind === 'client' ? budgetLimits(caller) : undefined;
  }

  private trackerFor(caller: Caller, request: TrackedRequest): string {
    // An IPv6 address counts by its /64 (the library's own rule): one client holds a whole /64.
    return caller.kind === 'client'
      ? `client:${caller.client}`
      : `ip:${normalizeIp(request.ip, this.ipv6SubnetPrefix)}`;
  }

  protected override throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    this.refuse(context.switchToHttp().getResponse<HeaderSetter>(), detail.timeToBlockExpire);
  }

  private refuse(response: HeaderSetter, timeToBlockExpire: number): never {
    response.header('Retry-After', Math.max(1, Math.ceil(timeToBlockExpire)));
    throw new ApiError(HttpStatus.TOO_MANY_REQUESTS, MESSAGES.tooManyRequests);
  }
}

/**
 * A client's own budget (`tokens limit`, `API_TOKENS`'s `name:token:100/60`) in place of the
 * route's default limit: one counter per client still, on every instance with Redis.
 */
function budgetLimits(
  caller: Extract<Caller, { kind: 'client' }>,
): { limit: number; ttl: number; blockDuration: number } | undefined {
  if (!caller.budget) return undefined;
  const ttl = caller.budget.windowSeconds * 1000;
  return { limit: caller.budget.limit, ttl, blockDuration: ttl };
}
