import { createHook } from 'node:async_hooks';

/**
 * Keeps one of Node's `process.nextTick` objects alive for the life of the process, so that V8
 * never settles into answering every request about 20 % slower (bench/HISTORY.md, twelfth
 * round).
 *
 * Why: Node (20 and 22) builds each tick object as `{ [async_id_symbol]: …,
 * [trigger_async_id_symbol]: …, callback, args }`, about ten per request here. V8 remembers, for
 * each computed key of that literal, the one object shape (map) it last added the key to, and
 * holds that shape weakly. A full GC at a moment when no tick object is alive (an idle instance,
 * V8's memory reducer, start-up) frees those shapes; the next tick object gets new ones, V8 finds
 * its remembered shape gone and gives up for good: from then on every tick object is built by a
 * call into V8's runtime (`DefineKeyedOwnPropertyInLiteral`), for the rest of the process's life.
 * One tick object kept alive keeps its shapes, and with them the fast path, alive.
 *
 * How: an async hook sees the tick object Node creates for one `nextTick` made here, and is
 * removed at once. Imported first by `main.ts`, before any other module, so that it runs before
 * the first full GC. Should a later Node not hand its tick objects to async hooks, nothing is
 * kept and nothing else changes (`pinTickObjectShapes` answers false; a test watches for it).
 */
let pinned: object | undefined;

/** The tick object kept alive, if any (for the tests). */
export function pinnedTickObject(): object | undefined {
  return pinned;
}

/** Keeps one tick object alive (once per process); true when one is kept. */
export function pinTickObjectShapes(): boolean {
  if (pinned !== undefined) return true;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource: object) {
      if (type === 'TickObject' && pinned === undefined) pinned = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => undefined);
  } finally {
    hook.disable();
  }
  return pinned !== undefined;
}

pinTickObjectShapes();
