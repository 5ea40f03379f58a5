import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, productionStartArgs } from '../../support/built-api';

/**
 * The tick object kept alive (apps/api/src/runtime/keep-tick-object-alive.ts): what it relies on,
 * checked on the Node that runs the tests, against the built module the production entry loads.
 * Its effect on speed is measured by the bench (bench/HISTORY.md, change 15), not asserted here.
 */
const BUILT_KEEPER = join(ROOT, 'dist/apps/api/apps/api/src/runtime/keep-tick-object-alive.js');

/** Runs `script` in a fresh Node with `flags`; its standard output. */
function runNode(flags: string[], script: string): string {
  const result = spawnSync(process.execPath, [...flags, '-e', script], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

describe('the tick object kept alive', () => {
  it('is the first module the production entry loads', () => {
    const main = productionStartArgs().at(-1) as string;
    const requires = [...readFileSync(main, 'utf8').matchAll(/require\("([^"]+)"\)/g)];
    expect(requires[0][1]).toBe('./runtime/keep-tick-object-alive');
  });

  it("keeps one of Node's tick objects, whose shape the tick objects made after full GCs share", () => {
    const script = `
      const { keptTickObject } = require(${JSON.stringify(BUILT_KEEPER)});
      const { executionAsyncResource } = require('node:async_hooks');
      setTimeout(() => {
        // Idle: no tick object alive but the pinned one. Full GCs free the shapes nothing holds.
        gc(); gc(); gc();
        process.nextTick(() => {
          const fresh = executionAsyncResource();
          const pinned = keptTickObject();
          process.stdout.write(JSON.stringify({
            symbols: Object.getOwnPropertySymbols(pinned).map(String),
            keys: Object.keys(pinned),
            sameShape: %HaveSameMap(pinned, fresh),
            notTheSameObject: pinned !== fresh,
          }));
        });
      }, 50);
    `;
    const output = runNode(['--allow-natives-syntax', '--expose-gc'], script);
    expect(JSON.parse(output)).toEqual({
      // Node 22 adds a third symbol (its async context frame).
      symbols: expect.arrayContaining([
        'Symbol(async_id_symbol)',
        'Symbol(trigger_async_id_symbol)',
      ]) as unknown,
      keys: ['callback', 'args'],
      sameShape: true,
      notTheSameObject: true,
    });
  });

  it('enables no async hook (V8 keeps inlining promises), as an async hook would not', () => {
    const flags = ['--trace-protector-invalidation'];
    const load = `require(${JSON.stringify(BUILT_KEEPER)});`;
    const settle = 'setTimeout(() => Promise.resolve().then(() => undefined), 20);';
    expect(runNode(flags, load + settle)).not.toContain('PromiseHook');
    // The check's own control: a hook enabled and removed at once does invalidate it.
    const hook = `require('node:async_hooks').createHook({ init() {} }).enable().disable();`;
    expect(runNode(flags, load + hook + settle)).toContain(
      'Invalidating protector cell PromiseHook',
    );
  });
});
