import { ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  Resolvable,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModuleOptions,
  ThrottlerStorage,
  normalizeIp,
} from '@nestjs/throttler';
import { ApiError, MESSAGES } from '@app/common';
import { Scope } from '@app/config';
import { TokenService } from '../auth/token.service';
import { ImmediateGuard } from '../route-metadata/immediate-guard';
import { MemoReflector } from '../route-metadata/memo-reflector';
import { RouteMemo } from '../route-metadata/route-memo';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { THROTTLE_EXEMPT_SCOPE } from './skip-throttle-for.decorator';
import { throttlerKey } from './throttler-key';

/** Callers (clients or addresses) whose counter keys `keysOf` keeps at most, per kind. */
const KEYS_KEPT = 10_000;

interface TrackedRequest {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}

interface HeaderSetter {
  header(name: string, value: string | number): unknown;
}

/** One of the module's throttlers as `canActivateNow` counts it, its header names worked out once. */
interface NowThrottle {
  name: string;
  limit: Resolvable<number>;
  ttl: Resolvable<number>;
  blockDuration?: Resolvable<number>;
  /** Lower case, as Fastify keeps them; null when the throttler sets none (`setHeaders: false`). */
  headers: { limit: string; remaining: string; reset: string; retryAfter: string } | null;
}

/**
 * The library's `ThrottlerGuard` with the API's rules: requests are counted per client (the
 * token's client when a valid token is sent, otherwise the caller's address: `getTracker`), each
 * client within its own budget (the module's `limit` and `ttl` functions, `clientBudget`), a 429
 * is the API's error body with `Retry-After` in whole seconds, at least 1
 * (`throwThrottlingException`), and `@SkipThrottleFor()` lets some tokens through uncounted.
 *
 * `canActivateNow` is the answers served before Nest's router (`serveCachedResponses`) counting
 * without a promise, with the counters in this process's memory: the library's `handleRequest`
 * step by step, for routes that the library has read whole and found without throttler settings
 * of their own (`MemoReflector`). Kept because an await there costs the cached routes a visible
 * share of their CPU per request (`bench:compare`, bench/HISTORY.md).
 */
@Injectable()
export class ClientThrottlerGuard extends ThrottlerGuard implements ImmediateGuard {
  private readonly exemptions: RouteMemo<Scope | null>;
  private now?: NowThrottle[] | null;
  private readonly clientKeys = new Map<string, string[]>();
  private readonly addressKeys = new Map<string, string[]>();

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly tokens: TokenService,
  ) {
    super(options, storage, new MemoReflector());
    this.exemptions = new RouteMemo(
      (handler, classRef) =>
        reflector.getAllAndOverride<Scope | undefined>(THROTTLE_EXEMPT_SCOPE, [
          handler,
          classRef,
        ]) ?? null,
    );
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.exempt(context)) return true;
    const allowed = await super.canActivate(context);
    // Every throttler's settings of this route have been read: `canActivateNow` may rely on them.
    (this.reflector as MemoReflector).settle(context.getHandler(), context.getClass());
    return allowed;
  }

  /** The verdict without a promise when the counters answer at once (`ImmediateGuard`). */
  canActivateNow(context: ExecutionContext): boolean | undefined {
    const throttles = this.nowThrottles();
    const own = (this.reflector as MemoReflector).anyFound(
      context.getHandler(),
      context.getClass(),
    );
    if (throttles === null || own !== false) return undefined;
    if (this.exempt(context)) return true;
    const settled: { throttle: NowThrottle; limit: number; ttl: number; block: number }[] = [];
    for (const throttle of throttles) {
      const limit = resolveNow(throttle.limit, context);
      const ttl = resolveNow(throttle.ttl, context);
      const block =
        throttle.blockDuration === undefined ? ttl : resolveNow(throttle.blockDuration, context);
      // A value that needs a promise: nothing counted yet, `canActivate` decides.
      if (limit === undefined || ttl === undefined || block === undefined) return undefined;
      settled.push({ throttle, limit, ttl, block });
    }
    const storage = this.storageService as MemoryThrottlerStorage;
    const response = context.getArgByIndex<HeaderSetter>(1);
    const keys = this.keysOf(context, context.getArgByIndex<TrackedRequest>(0), throttles);
    for (let i = 0; i < settled.length; i++) {
      const { throttle, limit, ttl, block } = settled[i];
      const { name, headers } = throttle;
      const record = storage.incrementNow(keys[i], ttl, limit, block, name);
      if (record.isBlocked) {
        if (headers) response.header(headers.retryAfter, String(record.timeToBlockExpire));
        this.refuse(response, record.timeToBlockExpire);
      }
      // Values as text: Node checks a header's characters with a regular expression, which
      // takes a slower path for every header of the response once one value is a number.
      if (headers) {
        response.header(headers.limit, String(limit));
        response.header(headers.remaining, String(Math.max(0, limit - record.totalHits)));
        response.header(headers.reset, String(record.timeToExpire));
      }
    }
    return true;
  }

  /**
   * The caller's counter keys, one per throttler. With the module's `throttlerKey` (a function of
   * the tracker alone) they are made once per client or address and the same strings given again:
   * no address parsed, key built or hashed per request. Bounded: forgotten when full.
   */
  private keysOf(context: ExecutionContext, request: TrackedRequest, throttles: NowThrottle[]) {
    const make = () => {
      const tracker = this.trackerOf(request);
      return throttles.map((t) => this.commonOptions.generateKey!(context, tracker, t.name));
    };
    if (this.commonOptions.generateKey !== throttlerKey) return make();
    const caller = this.tokens.identify(request);
    const memo = caller.kind === 'client' ? this.clientKeys : this.addressKeys;
    const id = caller.kind === 'client' ? caller.client : request.ip;
    let keys = memo.get(id);
    if (keys === undefined) {
      keys = make();
      if (memo.size >= KEYS_KEPT) memo.clear();
      memo.set(id, keys);
    }
    return keys;
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    return Promise.resolve(this.trackerOf(request as unknown as TrackedRequest));
  }

  protected override throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    this.refuse(context.switchToHttp().getResponse<HeaderSetter>(), detail.timeToBlockExpire);
  }

  private trackerOf(request: TrackedRequest): string {
    const caller = this.tokens.identify(request);
    // An IPv6 address counts by its /64 (the library's own rule): one client holds a whole /64.
    return caller.kind === 'client'
      ? `client:${caller.client}`
      : `ip:${normalizeIp(request.ip, this.ipv6SubnetPrefix)}`;
  }

  /** `@SkipThrottleFor()`: callers whose token holds the route's exempt scope are not counted. */
  private exempt(context: ExecutionContext): boolean {
    const scope = this.exemptions.get(context);
    if (scope === null) return false;
    const caller = this.tokens.identify(context.getArgByIndex<TrackedRequest>(0));
    return caller.kind === 'client' && caller.scopes.has(scope);
  }

  private refuse(response: HeaderSetter, timeToBlockExpire: number): never {
    response.header('Retry-After', String(Math.max(1, Math.ceil(timeToBlockExpire))));
    throw new ApiError(HttpStatus.TOO_MANY_REQUESTS, MESSAGES.tooManyRequests);
  }

  /**
   * The module's throttlers for `canActivateNow`, worked out once (after `onModuleInit`); null
   * when the library's steps could not be followed without a promise: counters elsewhere than in
   * memory, or a setting decided per request that the immediate path does not follow.
   */
  private nowThrottles(): NowThrottle[] | null {
    if (this.now !== undefined) return this.now;
    const { skipIf, ignoreUserAgents } = this.commonOptions;
    const plain =
      this.storageService instanceof MemoryThrottlerStorage &&
      !Array.isArray(this.options) &&
      this.options.getTracker === undefined &&
      this.commonOptions.generateKey !== undefined &&
      !skipIf &&
      !ignoreUserAgents &&
      this.throttlers.every(
        (t) => !t.skipIf && !t.ignoreUserAgents && !t.getTracker && !t.generateKey,
      );
    this.now = plain ? this.throttlers.map((throttler) => this.nowThrottle(throttler)) : null;
    return this.now;
  }

  private nowThrottle(throttler: ThrottlerGuard['throttlers'][number]): NowThrottle {
    const name = throttler.name as string;
    const suffix = name === 'default' ? '' : `-${name}`;
    const setHeaders = throttler.setHeaders ?? this.commonOptions.setHeaders ?? true;
    const lower = (header: string) => header.toLowerCase();
    const headers = setHeaders
      ? {
          limit: lower(`${this.headerPrefix}-Limit${suffix}`),
          remaining: lower(`${this.headerPrefix}-Remaining${suffix}`),
          reset: lower(`${this.headerPrefix}-Reset${suffix}`),
          retryAfter: lower(`Retry-After${suffix}`),
        }
      : null;
    const { limit, ttl, blockDuration } = throttler;
    return { name, limit, ttl, blockDuration, headers };
  }
}

/** A setting's value for this request, if it is known without a promise. */
function resolveNow(value: Resolvable<number>, context: ExecutionContext): number | undefined {
  const resolved = typeof value === 'function' ? value(context) : value;
  return typeof resolved === 'number' ? resolved : undefined;
}
