import { ExecutionContext } from '@nestjs/common';

type Handler = (...args: never[]) => unknown;
type ClassRef = abstract new (...args: never[]) => unknown;

/**
 * A value worked out once per route (controller class and handler) from its metadata, which does
 * not change after start-up; guards use it instead of reading the metadata on every request. Keyed
 * by class and handler both: a handler inherited by two controllers is two routes. Kept because
 * `Reflector` lookups on every request cost the cached routes a large share of their speed
 * (`bench:compare`, bench/HISTORY.md).
 */
export class RouteMemo<T> {
  private readonly byClass = new Map<ClassRef, Map<Handler, T>>();

  constructor(private readonly compute: (handler: Handler, classRef: ClassRef) => T) {}

  get(context: ExecutionContext): T {
    const classRef = context.getClass<ClassRef>();
    const handler = context.getHandler() as Handler;
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
}
