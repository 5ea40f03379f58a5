import { Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

type Target = Type<unknown> | ((...args: never[]) => unknown);

/** What a guard has read of one route: the values by key, whether any was set, and if it is all. */
interface RouteReads {
  values: Map<unknown, unknown>;
  found: boolean;
  settled: boolean;
}

/**
 * Nest's `Reflector`, given to a library guard that reads a route's metadata on every request
 * (`@nestjs/throttler`): each value of a route (handler and controller, as `RouteMemo`) is read
 * once, since metadata does not change after start-up. It also tells whether any value the guard
 * read for a route was set, once the guard has read all it reads (`settle`), without knowing the
 * library's keys (`anyFound`). Kept for the same reason as `RouteMemo`.
 */
export class MemoReflector extends Reflector {
  private readonly byClass = new Map<unknown, Map<unknown, RouteReads>>();

  override getAllAndOverride<T>(key: unknown, targets: Target[]): T {
    if (targets.length !== 2) return super.getAllAndOverride<T>(key, targets);
    const [handler, classRef] = targets;
    const reads = this.reads(handler, classRef, true) as RouteReads;
    if (reads.values.has(key)) return reads.values.get(key) as T;
    const value = super.getAllAndOverride<T>(key, targets);
    reads.values.set(key, value);
    if (value !== undefined) reads.found = true;
    return value;
  }

  /** Notes that the guard has read all it reads of the route (a whole pass without a throw). */
  settle(handler: unknown, classRef: unknown): void {
    const reads = this.reads(handler, classRef, false);
    if (reads) reads.settled = true;
  }

  /** Whether a value the guard reads for the route is set; undefined until it is settled. */
  anyFound(handler: unknown, classRef: unknown): boolean | undefined {
    const reads = this.reads(handler, classRef, false);
    return reads?.settled ? reads.found : undefined;
  }

  private reads(handler: unknown, classRef: unknown, create: boolean): RouteReads | undefined {
    let byHandler = this.byClass.get(classRef);
    if (!byHandler) {
      if (!create) return undefined;
      byHandler = new Map();
      this.byClass.set(classRef, byHandler);
    }
    let reads = byHandler.get(handler);
    if (!reads && create) {
      reads = { values: new Map(), found: false, settled: false };
      byHandler.set(handler, reads);
    }
    return reads;
  }
}
