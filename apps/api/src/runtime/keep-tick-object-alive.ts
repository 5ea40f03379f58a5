import { executionAsyncResource } from 'node:async_hooks';

/**
 * Keeps one of Node's `process.nextTick` objects alive for the life of the process: without it, a
 * full GC while no tick object is alive can leave V8's inline cache in Node's `nextTick` in its slow
 * form for good, and every request then costs more CPU (decision 0004; `bench:compare` still shows
 * it). No async hook is enabled for this: enabling one, even briefly, slows every promise for good.
 * Imported first by `main.ts`, so that the object exists before the first full GC;
 * `test/fast/operations/keep-tick-object-alive.spec.ts` says so should a later Node run ticks in
 * another resource.
 */
let kept: object | undefined;

process.nextTick(() => {
  kept = executionAsyncResource();
});

/** The tick object kept alive, once the tick has run (for the tests). */
export function keptTickObject(): object | undefined {
  return kept;
}
