import { executionAsyncResource } from 'node:async_hooks';

/**
 * Keeps one of Node's `process.nextTick` objects alive for the life of the process, so that V8
 * never settles into a slower form for every request (bench/HISTORY.md, change 15).
 *
 * Why: Node builds each tick object (about ten per request here) as an object literal whose first
 * keys are computed symbols: `{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback,
 * args }` (Node 22 adds a third symbol). For each computed key V8 remembers the first object shape
 * (map) it added that key to, and holds that shape weakly; meeting any other shape there, it gives
 * up for good. A full GC at a moment when no tick object is alive (an idle instance, V8's memory
 * reducer, start-up) frees those shapes; the next tick object gets new ones, and from then on every
 * tick object is built by calls into V8's runtime (`DefineKeyedOwnPropertyInLiteral`), for the
 * rest of the process's life. One tick object kept alive keeps its shapes, and with them the fast
 * path, alive.
 *
 * How: one `nextTick` whose callback keeps the tick object Node runs it in (its execution
 * resource); until then Node's tick queue holds it. No async hook is enabled: enabling one, even
 * briefly, makes V8 give up inlining promises for good (its PromiseHook protector). Imported first
 * by `main.ts`, before any other module, so that the object exists before the first full GC.
 * Should a later Node run ticks in another resource, the test says so
 * (`test/tick-object-pin.spec.ts`); the service works either way.
 */
let pinned: object | undefined;

process.nextTick(() => {
  pinned = executionAsyncResource();
});

/** The tick object kept alive, once the tick has run (for the tests). */
export function pinnedTickObject(): object | undefined {
  return pinned;
}
