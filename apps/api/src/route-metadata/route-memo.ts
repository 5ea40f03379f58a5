import { ExecutionContext } from '@nestjs/common';

type Handler = (...args: never[]) => unknown;
type ClassRef = abstract new (...args: never[]) => unknown;

/**
 * A value worked out once per route (controller class and handler) from its metadata, which does
 * not change after start-up; guards use it instead of reading the metadata on every request. Keyed
 * by class and handler both: a handler inherited by two controllers is two routes. The one memo of
 * route metadata (decision 0054; `MemoReflector` keeps its reads here too). Kept because
 * `Reflector` lookups on every request cost the cached routes a large share of their speed
 * (`bench:compare`, bench/HISTORY.md).
 */
export class RouteMemo<T> {
  private readonly byClass = new Map<unknown, Map<unknown, T>>();

  constructor(private readonly compute: (handler: Handler, classRef: ClassRef) => T) {}

  get(context: ExecutionContext): T {
    return this.of(context.getHandler() as Handler, context.getClass<ClassRef>());
  }

  /** The route's value, worked out now if it is the first time. */
  of(handler: Handler, classRef: ClassRef): T {
    let byHandler = this.byClass.get(classRef);
    if (!byHandler) {
      byHandler = new Map();
      this.byClass.set(classRef, byHandler);
    }
    if (byHandler.has(handler)) return byHandler.get(handler) as T;
    const value = this.compute(handler, classRef);
    byHandler.set(handler, value);
    return value;
  }

  /** The route's value if it was worked out already. */
  peek(handler: unknown, classRef: unknown): T | undefined {
    return this.byClass.get(classRef)?.get(handler);
  }
}
