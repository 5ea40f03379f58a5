import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, productionStartArgs } from './support/built-api';

/**
 * The tick object pin (apps/api/src/runtime/tick-object-pin.ts): what it relies on, checked on
 * the Node that runs the tests, against the built module the production entry loads. Its effect on
 * speed is measured by the bench (bench/HISTORY.md, twelfth round), not asserted here.
 */
const BUILT_PIN = join(ROOT, 'dist/apps/api/apps/api/src/runtime/tick-object-pin.js');

/** Runs `script` in a fresh Node with V8's test intrinsics and `gc()`; its JSON output. */
function runNode(script: string): unknown {
  const result = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--expose-gc', '-e', script],
    { encoding: 'utf8', timeout: 20_000 },
  );
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout);
}

describe('the tick object pin', () => {
  it('is the first module the production entry loads', () => {
    const main = productionStartArgs().at(-1) as string;
    const requires = [...readFileSync(main, 'utf8').matchAll(/require\("([^"]+)"\)/g)];
    expect(requires[0][1]).toBe('./runtime/tick-object-pin');
  });

  it("keeps one of Node's tick objects, whose shape the tick objects made after full GCs share", () => {
    const script = `
      const { pinnedTickObject } = require(${JSON.stringify(BUILT_PIN)});
      const { createHook } = require('node:async_hooks');
      setTimeout(() => {
        // Idle: no tick object alive but the pinned one. Full GCs free unused shapes.
        gc(); gc(); gc();
        let fresh;
        const hook = createHook({ init(id, type, trigger, resource) { if (type === 'TickObject') fresh = resource; } });
        hook.enable();
        process.nextTick(() => undefined);
        hook.disable();
        const pinned = pinnedTickObject();
        process.stdout.write(JSON.stringify({
          pinned: pinned !== undefined,
          symbols: Object.getOwnPropertySymbols(pinned).map(String),
          keys: Object.keys(pinned),
          sameShape: %HaveSameMap(pinned, fresh),
        }));
      }, 50);
    `;
    expect(runNode(script)).toEqual({
      pinned: true,
      symbols: ['Symbol(async_id_symbol)', 'Symbol(trigger_async_id_symbol)'],
      keys: ['callback', 'args'],
      sameShape: true,
    });
  });
});
