import { PlannedStep, orderWrites, planRecord, recordKey, sameActor } from './revert-plan';
import { RecordValues, ChangeKind, StoredRevision } from '@app/database';

const values = (country: string, total_cases = 1, date = '2022-01-01'): RecordValues => ({
  date,
  country,
  total_cases,
  new_cases: 0,
  total_deaths: 0,
  new_deaths: 0,
});

let nextId = 1;
const revision = (
  at: number,
  actor: string,
  kind: ChangeKind,
  recordValues: RecordValues | null,
  recordId = 7,
): StoredRevision => ({
  id: nextId++,
  recordId,
  at,
  actor,
  requestId: null,
  kind,
  values: kind === 'delete' ? null : recordValues,
});

describe('planRecord', () => {
  const v0 = values('A', 0);
  const v1 = values('A', 1);
  const v2 = values('A', 2);

  it('puts an update back, and counts the changes undone', () => {
    const history = [
      revision(1, 'alice', 'create', v0),
      revision(10, 'mallory', 'update', v1),
      revision(11, 'mallory', 'update', v2),
    ];
    expect(planRecord(history, 'mallory', 5)).toEqual({
      recordId: 7,
      undone: 2,
      outcome: 'update',
      target: v0,
    });
  });

  it('matches the actor ignoring the case of its letters', () => {
    expect(sameActor('Partner', 'PARTNER')).toBe(true);
    expect(sameActor('partner', 'partner2')).toBe(false);
    const history = [revision(1, 'alice', 'create', v0), revision(10, 'PARTNER', 'update', v1)];
    expect(planRecord(history, 'Partner', 5)?.outcome).toBe('update');
  });

  it('leaves a record someone else changed afterwards', () => {
    const bob = revision(12, 'bob', 'update', v2);
    const history = [
      revision(1, 'alice', 'create', v0),
      revision(10, 'mallory', 'update', v1),
      bob,
    ];
    expect(planRecord(history, 'mallory', 5)).toEqual({
      recordId: 7,
      undone: 0,
      outcome: 'conflict',
      conflict: bob,
    });
  });

  it('never guesses a state that was pruned: an update first in the history is left alone', () => {
    const first = revision(10, 'mallory', 'update', v1);
    expect(planRecord([first], 'mallory', 5)).toEqual({
      recordId: 7,
      undone: 0,
      outcome: 'pruned',
      first,
    });
    // A deletion first in the history keeps the values it removed; one from before they were
    // kept proves nothing.
    const deletion = { ...revision(10, 'mallory', 'delete', null), removed: v1 };
    expect(planRecord([deletion], 'mallory', 5)).toEqual({
      recordId: 7,
      undone: 1,
      outcome: 'create',
      target: v1,
    });
    const bare = revision(10, 'mallory', 'delete', null);
    expect(planRecord([bare], 'mallory', 5)?.outcome).toBe('pruned');
    // A creation first in the history proves that nothing was there before it.
    expect(planRecord([revision(10, 'mallory', 'create', v1)], 'mallory', 5)?.outcome).toBe(
      'delete',
    );
  });

  it("counts an earlier revert's revisions as the actor's own", () => {
    const history = [
      revision(1, 'alice', 'create', v0),
      revision(10, 'mallory', 'update', v1),
      revision(11, 'cli:revert', 'update', v0),
      revision(12, 'mallory', 'update', v2),
    ];
    expect(planRecord(history, 'mallory', 5)).toEqual({
      recordId: 7,
      undone: 1,
      outcome: 'update',
      target: v0,
    });
    expect(planRecord(history.slice(0, 3), 'mallory', 5)?.outcome).toBe('unchanged');
    // A restore by hand is someone else's change.
    history[2] = revision(11, 'cli:restore', 'update', v0);
    expect(planRecord(history, 'mallory', 5)?.outcome).toBe('conflict');
  });
});

describe('orderWrites', () => {
  const step = (recordId: number, target: RecordValues | null): PlannedStep => ({
    recordId,
    undone: 1,
    outcome: target === null ? 'delete' : 'update',
    target,
  });
  const a = values('A');
  const b = values('B');
  const c = values('C');

  it('removes first, so that a record deleted and created again comes back', () => {
    const steps = [step(1, a), step(2, null)];
    const writes = orderWrites(steps, new Map([[recordKey(a), 2]]), new Map([[2, recordKey(a)]]));
    expect(writes).toEqual([
      { kind: 'delete', recordId: 2 },
      { kind: 'put', recordId: 1, values: a },
    ]);
  });

  it('writes a record once the key it goes back to is freed by another', () => {
    // 1 goes back to A, held by 2, which goes back to B (free).
    const steps = [step(1, a), step(2, b)];
    const current = new Map([
      [1, recordKey(c)],
      [2, recordKey(a)],
    ]);
    const writes = orderWrites(steps, new Map([[recordKey(a), 2]]), current);
    expect(writes.map((w) => (w.kind === 'put' ? w.recordId : w.kind))).toEqual([2, 1]);
  });

  it('swaps records that take each other keys', () => {
    const steps = [step(1, a), step(2, b)];
    const holders = new Map([
      [recordKey(a), 2],
      [recordKey(b), 1],
    ]);
    const current = new Map([
      [1, recordKey(b)],
      [2, recordKey(a)],
    ]);
    expect(orderWrites(steps, holders, current)).toEqual([
      {
        kind: 'swap',
        records: [
          { recordId: 1, values: a },
          { recordId: 2, values: b },
        ],
      },
    ]);
  });

  it('reports a record whose key another record keeps, and writes the rest', () => {
    const steps = [step(1, a), step(2, b)];
    const writes = orderWrites(steps, new Map([[recordKey(a), 9]]), new Map());
    expect(writes).toEqual([{ kind: 'put', recordId: 2, values: b }]);
    expect(steps[0]).toEqual({
      recordId: 1,
      undone: 0,
      outcome: 'clash',
      holder: { recordId: 9, country: 'A', date: '2022-01-01' },
    });
  });
});
