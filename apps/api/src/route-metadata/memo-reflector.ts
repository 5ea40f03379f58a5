import { Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RouteMemo } from './route-memo';

type Handler = (...args: never[]) => unknown;
type Target = Type<unknown> | Handler;

/** What a guard has read of one route: the values by key, whether any was set, and if it is all. */
interface RouteReads {
  values: Map<unknown, unknown>;
  found: boolean;
  settled: boolean;
}

/**
 * Nest's `Reflector`, given to a library guard that reads a route's metadata on every request
 * (`@nestjs/throttler`): each value of a route is read once and kept in a `RouteMemo`, since
 * metadata does not change after start-up. It also tells whether any value the guard read for a
 * route was set, once the guard has read all it reads (`settle`), without knowing the library's
 * keys (`anyFound`).
 */
export class MemoReflector extends Reflector {
  private readonly routes = new RouteMemo<RouteReads>(() => ({
    values: new Map(),
    found: false,
    settled: false,
  }));

  override getAllAndOverride<T>(key: unknown, targets: Target[]): T {
    if (targets.length !== 2) return super.getAllAndOverride<T>(key, targets);
    const [handler, classRef] = targets as [Handler, Type<unknown>];
    const reads = this.routes.of(handler, classRef);
    if (reads.values.has(key)) return reads.values.get(key) as T;
    const value = super.getAllAndOverride<T>(key, targets);
    reads.values.set(key, value);
    if (value !== undefined) reads.found = true;
    return value;
  }

  /** Notes that the guard has read all it reads of the route (a whole pass without a throw). */
  settle(handler: unknown, classRef: unknown): void {
    const reads = this.routes.peek(handler, classRef);
    if (reads) reads.settled = true;
  }

  /** Whether a value the guard reads for the route is set; undefined until it is settled. */
  anyFound(handler: unknown, classRef: unknown): boolean | undefined {
    const reads = this.routes.peek(handler, classRef);
    return reads?.settled ? reads.found : undefined;
  }
}
