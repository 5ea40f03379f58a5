/**
 * Values worked out once per request input (a query string, a path's parameters, an `Accept`
 * value) by a pure function of it and of a scope that does not change after start-up (a DTO, a
 * list of media types): clients send a handful of inputs, each worked out once. Never dropped, as
 * nothing they depend on changes; past `max` inputs of one scope, that scope's are forgotten at
 * once. The one memo of request inputs, beside `RouteMemo` for route metadata (decision 0054).
 */
export class InputMemo<T> {
  private readonly byScope = new Map<object, Map<string, T>>();

  constructor(private readonly max: number) {}

  /** The input's value in this scope, if it was worked out already. */
  get(scope: object, input: string): T | undefined {
    return this.byScope.get(scope)?.get(input);
  }

  /** Keeps the input's value in this scope (the scope's inputs forgotten first if it has `max`). */
  set(scope: object, input: string, value: T): void {
    let values = this.byScope.get(scope);
    if (!values) {
      values = new Map();
      this.byScope.set(scope, values);
    }
    if (values.size >= this.max) values.clear();
    values.set(input, value);
  }

  /** The input's value in this scope, worked out now by `compute` if it is the first time. */
  of(scope: object, input: string, compute: (input: string) => T): T {
    const kept = this.byScope.get(scope);
    if (kept?.has(input)) return kept.get(input) as T;
    const value = compute(input);
    this.set(scope, input, value);
    return value;
  }
}
