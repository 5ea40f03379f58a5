/**
 * Model-based test of the write paths (issue 43): random sequences of POST, PUT, DELETE, bulk
 * writes (a few rows, or a thousand and more, scattered or contiguous), imports of revised files,
 * `restore`, `revert` (with and without `--dry-run`) and `prune-history`, by three clients, some
 * done at once, each checked against a plain model of the store and its history
 * (test/support/write-model.ts): the whole store after every step, the history of the records a
 * step touched, and `as_of` the instants between steps.
 *
 * Bounded here (a few runs of a few steps); `npm run test:model` runs longer. A failure prints its
 * seed and path: replay it with `FC_SEED=<seed> FC_PATH=<path>` (docs/testing.md).
 */
import fc from 'fast-check';
import { checkFeed, firstLoad } from '../../support/write-model-check';
import { firstCommand, writeCommands } from '../../support/write-model-generators';
import { Model } from '../../support/write-model-specs';
import { Real, startSystem, stopSystem } from '../../support/write-model-system';
import { TEST_DB_TYPE } from '../../support/test-database';

const env = (name: string, fallback: number) =>
  process.env[name] === undefined ? fallback : Number(process.env[name]);

const RUNS = env('FC_RUNS', 4);
const STEPS = env('FC_STEPS', 12);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const PATH = process.env.FC_PATH;
/** The commands' own replay path (`replayPath="..."` in a counterexample). */
const REPLAY_PATH = process.env.FC_REPLAY_PATH;
/** Shrinking replays every step on a fresh database: bounded, or off with FC_SHRINK=0. */
const SHRINK = env('FC_SHRINK', 1) !== 0;
/** The whole property, shrinking included (a failure found is still reported). */
const TIME_LIMIT_MS = env('FC_TIME_LIMIT_MS', 240_000);
/** Weight of the writes of a thousand rows or more, against 6 for the small ones. */
const LARGE = env('FC_LARGE', 1);
/** Kinds of command left out, to look past a known failure (`prune,race`: see docs/testing.md). */
const WITHOUT = (process.env.FC_WITHOUT ?? '').split(',').filter(Boolean);

describe(`write paths against a model (${TEST_DB_TYPE})`, () => {
  it(
    'keeps every acknowledged write, reverts only what it may, answers as_of as the model',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          firstCommand(WITHOUT),
          fc.commands([writeCommands(LARGE, WITHOUT)], {
            maxCommands: STEPS,
            size: 'max',
            replayPath: REPLAY_PATH,
          }),
          async (first, cmds) => {
            const real: Real = await startSystem();
            try {
              const model: Model = await firstLoad(real);
              if (first) await first.run(model, real);
              await fc.asyncModelRun(() => ({ model, real }), cmds);
              await checkFeed(model, real);
            } finally {
              await stopSystem(real);
            }
          },
        ),
        {
          numRuns: RUNS,
          seed: SEED,
          path: PATH,
          endOnFailure: !SHRINK,
          interruptAfterTimeLimit: TIME_LIMIT_MS || undefined,
          markInterruptAsFailure: false,
        },
      );
    },
    TIME_LIMIT_MS + 60_000,
  );
});
