import fc from 'fast-check';
import {
  AsOfCommand,
  PruneCommand,
  RevertAfterOthersCommand,
  RevertRaceCommand,
  WriteCommand,
} from './write-model-commands';
import { Figures, KeyPick, Model, RecordPick, Shape, Spec } from './write-model-specs';
import { CLIENTS, Client, Real } from './write-model-system';

/* The generators of the model-based test of the write paths: what a run is made of. */

/** Mallory (the leaked token) writes and is reverted most. */
const client: fc.Arbitrary<Client> = fc.oneof(
  { weight: 2, arbitrary: fc.constant('mallory' as const) },
  { weight: 1, arbitrary: fc.constantFrom('alice' as const, 'bob' as const) },
);
const figures: fc.Arbitrary<Figures> = fc.record({
  total_cases: fc.nat(1_000_000),
  new_cases: fc.nat(1000),
  total_deaths: fc.nat(10_000),
  new_deaths: fc.nat(100),
});
/** A mark counted from the first (`revert --since`) or the last (`prune-history --before`). */
const markPick = fc.oneof(
  { weight: 3, arbitrary: fc.nat(4) },
  { weight: 1, arbitrary: fc.nat(40) },
);
const recordPick: fc.Arbitrary<RecordPick> = fc.record({
  from: fc.oneof(
    { weight: 4, arbitrary: fc.constant('recent' as const) },
    { weight: 2, arbitrary: fc.constant('live' as const) },
    { weight: 1, arbitrary: fc.constant('any' as const) },
  ),
  n: fc.nat(),
});
const keyPick: fc.Arbitrary<KeyPick> = fc.record({ existing: fc.boolean(), n: fc.nat() });
/** Mostly a few rows; now and then a thousand or more, scattered or not. */
const shape = (large: number): fc.Arbitrary<Shape> =>
  fc.record({
    count: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 1, max: 12 }) },
      { weight: large, arbitrary: fc.integer({ min: 1000, max: 1080 }) },
    ),
    scattered: fc.boolean(),
    stride: fc.integer({ min: 2, max: 2 }),
    offset: fc.nat(),
    fresh: fc.nat(3),
    whole: fc.boolean(),
    delta: fc.integer({ min: 1, max: 1000 }),
    twice: fc.nat(3),
    spelling: fc.nat(),
  });

const writeSpec = (large: number, without: string[]): fc.Arbitrary<Spec> =>
  fc.oneof(
    ...[
      {
        kind: 'post',
        weight: 3,
        arbitrary: fc.record({
          t: fc.constant('post' as const),
          client,
          key: keyPick,
          figures,
          spelling: fc.nat(),
        }),
      },
      {
        kind: 'put',
        weight: 4,
        arbitrary: fc.record(
          {
            t: fc.constant('put' as const),
            client,
            pick: recordPick,
            figures,
            same: fc.oneof(
              { weight: 1, arbitrary: fc.constant(true) },
              { weight: 6, arbitrary: fc.constant(false) },
            ),
            move: keyPick,
            spelling: fc.nat(),
          },
          { requiredKeys: ['t', 'client', 'pick', 'figures', 'same', 'spelling'] },
        ),
      },
      {
        kind: 'delete',
        weight: 2,
        arbitrary: fc.record({ t: fc.constant('delete' as const), client, pick: recordPick }),
      },
      {
        kind: 'bulk',
        weight: 3,
        arbitrary: fc.record({ t: fc.constant('bulk' as const), client, shape: shape(large) }),
      },
      {
        kind: 'import',
        weight: 2,
        arbitrary: fc.record({ t: fc.constant('import' as const), shape: shape(large) }),
      },
      {
        kind: 'restore',
        weight: 2,
        arbitrary: fc.record(
          {
            t: fc.constant('restore' as const),
            pick: recordPick,
            revision: fc.integer({ min: 1, max: 4 }),
          },
          { requiredKeys: ['t', 'pick'] },
        ),
      },
      {
        kind: 'revert',
        weight: 3,
        arbitrary: fc.record(
          {
            t: fc.constant('revert' as const),
            client,
            since: markPick,
            dryRun: fc.boolean(),
            // Client names match ignoring case: `--actor MALLORY` is mallory.
            upper: fc.oneof(
              { weight: 4, arbitrary: fc.constant(false) },
              { weight: 1, arbitrary: fc.constant(true) },
            ),
          },
          { requiredKeys: ['t', 'client', 'since', 'dryRun'] },
        ),
      },
      {
        kind: 'prune',
        weight: 2,
        arbitrary: fc.record({
          t: fc.constant('prune' as const),
          before: markPick,
          dryRun: fc.boolean(),
        }),
      },
    ].filter((choice) => !without.includes(choice.kind)),
  );

/** A revert after someone else changed the actor's record (the other is never the actor). */
const revertAfterOthers: fc.Arbitrary<RevertAfterOthersCommand> = fc
  .record({
    actor: client,
    next: fc.integer({ min: 1, max: CLIENTS.length - 1 }),
    create: fc.oneof(
      { weight: 3, arbitrary: fc.constant(false) },
      { weight: 1, arbitrary: fc.constant(true) },
    ),
    // Re-created by `restore`: the only case where someone else's change is a creation.
    later: fc.oneof(
      { weight: 1, arbitrary: fc.constantFrom('put' as const, 'delete' as const) },
      { weight: 1, arbitrary: fc.constant('recreate' as const) },
    ),
    n: fc.nat(),
    figures,
    dryRun: fc.boolean(),
  })
  .map(({ actor, next, create, later, n, figures, dryRun }) => {
    const other = CLIENTS[(CLIENTS.indexOf(actor) + next) % CLIENTS.length];
    return new RevertAfterOthersCommand(actor, other, create, later, n, figures, dryRun);
  });

/** The command every run starts with, unless `without` names `conflict`. */
export function firstCommand(
  without: string[] = [],
): fc.Arbitrary<RevertAfterOthersCommand | null> {
  return without.includes('conflict') ? fc.constant(null) : revertAfterOthers;
}

/**
 * The commands of a run: `large` weighs the writes of a thousand rows or more against the small
 * ones (8).
 */
export function writeCommands(
  large = 1,
  without: string[] = [],
): fc.Arbitrary<fc.AsyncCommand<Model, Real>> {
  const choices = [
    {
      kind: 'one',
      weight: 12,
      arbitrary: writeSpec(large, without).map((spec) =>
        spec.t === 'prune' ? new PruneCommand([spec]) : new WriteCommand([spec]),
      ),
    },
    {
      kind: 'together',
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.array(writeSpec(0, without), { minLength: 2, maxLength: 3 }),
          fc.array(fc.nat(30), { minLength: 3, maxLength: 3 }),
        )
        .map(([specs, delays]) => new WriteCommand(specs, delays)),
    },
    {
      kind: 'race',
      weight: 1,
      arbitrary: fc
        .tuple(client, client, markPick, figures, fc.nat(30))
        .map((args) => new RevertRaceCommand(...args)),
    },
    { kind: 'conflict', weight: 1, arbitrary: revertAfterOthers },
    { kind: 'asOf', weight: 2, arbitrary: fc.nat().map((n) => new AsOfCommand(n)) },
  ];
  return fc.oneof(...choices.filter((choice) => !without.includes(choice.kind)));
}
