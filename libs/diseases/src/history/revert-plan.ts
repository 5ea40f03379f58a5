import { countryLookupKey } from '@app/countries';
import { RecordValues, ChangeKind, StoredRevision } from '@app/database';

/** The actor of the revisions a revert writes. */
export const REVERT_ACTOR = 'cli:revert';

/**
 * Client names match ignoring case (`Partner` and `PARTNER` are one client). ASCII letters only,
 * as SQLite's `LOWER()` folds them: the SQL that picks the records and this check agree.
 */
export function sameActor(a: string, b: string): boolean {
  const fold = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  return fold(a) === fold(b);
}

/** What `revert` does, or would do, to one record. */
export interface RevertStep {
  recordId: number;
  /** The actor's changes undone (0 when nothing is written). */
  undone: number;
  /**
   * Put back as it was (`create`: brought back, `delete`: removed, `update`: put back), already
   * as it was (`unchanged`), or left alone: changed by someone else afterwards (`conflict`), its
   * state before the actor's change no longer in the history (`pruned`), or another record now
   * holds its country and date (`clash`).
   */
  outcome: ChangeKind | 'unchanged' | 'conflict' | 'pruned' | 'clash';
  /** `conflict`: the first later change by someone else. */
  conflict?: StoredRevision;
  /** `pruned`: the actor's first change kept in the history. */
  first?: StoredRevision;
  /** `clash`: the record that holds the country and date it would go back to. */
  holder?: { recordId: number; country: string; date: string };
}

/** A step, with the values to put back (null: absent) when it writes. */
export interface PlannedStep extends RevertStep {
  target?: RecordValues | null;
}

const sameValues = (a: RecordValues | null, b: RecordValues | null): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * What reverting `actor`'s changes made at `since` or later does to one record, from its history
 * (oldest first; a suffix of it when pruned): back to the state before the actor's first such
 * change, unless someone else changed it afterwards. Revisions written by `revert` count as the
 * actor's own (decision 0029). Null when none of the revisions is the actor's.
 */
export function planRecord(
  revisions: StoredRevision[],
  actor: string,
  since: number,
): PlannedStep | null {
  const first = revisions.findIndex((r) => sameActor(r.actor, actor) && r.at >= since);
  if (first < 0) return null;
  const recordId = revisions[first].recordId;
  const later = revisions.slice(first);
  const other = later.find((r) => !sameActor(r.actor, actor) && r.actor !== REVERT_ACTOR);
  if (other) return { recordId, undone: 0, outcome: 'conflict', conflict: other };
  // Before the actor's change: the revision before it, or what its own revision proves when the
  // history starts there (pruned): nothing before a creation, the values a deletion removed. A
  // history that starts with the actor's update lost that state: left alone, never guessed.
  const opening = revisions[0];
  if (
    first === 0 &&
    (opening.kind === 'update' || (opening.kind === 'delete' && !opening.removed))
  ) {
    return { recordId, undone: 0, outcome: 'pruned', first: opening };
  }
  const before = first > 0 ? revisions[first - 1].values : (opening.removed ?? null);
  const now = revisions[revisions.length - 1].values;
  if (sameValues(before, now)) return { recordId, undone: 0, outcome: 'unchanged' };
  const lastRevert = later.map((r) => r.actor).lastIndexOf(REVERT_ACTOR);
  return {
    recordId,
    // The actor's changes since the last revert put the record back.
    undone: later.slice(lastRevert + 1).filter((r) => r.actor !== REVERT_ACTOR).length,
    outcome: before === null ? 'delete' : now === null ? 'create' : 'update',
    target: before,
  };
}

/** The unique key of a record's values: its country's key and its date. */
export function recordKey(values: RecordValues): string {
  return `${countryLookupKey(values.country)}|${values.date}`;
}

/** One write of a revert, in the order they run. */
export type RevertWrite =
  | { kind: 'delete'; recordId: number }
  | { kind: 'put'; recordId: number; values: RecordValues }
  /** Records that take each other's keys: all removed, then written back with their ids. */
  | { kind: 'swap'; records: { recordId: number; values: RecordValues }[] };

/**
 * Orders the writes of `steps` so that no record is written onto a country and date another
 * holds: removals first, then each record whose key is free (or freed by an earlier write),
 * then records that take each other's keys in a cycle, together. What is left would clash with
 * a record the revert does not move: its step becomes a `clash`, naming that record.
 *
 * @param holders the record now holding each target key (as read from the data table)
 * @param current the current key of each record that the steps write and that exists
 */
export function orderWrites(
  steps: PlannedStep[],
  holders: Map<string, number>,
  current: Map<number, string>,
): RevertWrite[] {
  const writes: RevertWrite[] = [];
  const vacate = (recordId: number) => {
    const key = current.get(recordId);
    if (key !== undefined && holders.get(key) === recordId) holders.delete(key);
  };
  for (const step of steps) {
    if (step.target === null) {
      writes.push({ kind: 'delete', recordId: step.recordId });
      vacate(step.recordId);
    }
  }
  let pending = steps.filter(
    (s): s is PlannedStep & { target: RecordValues } => s.target !== undefined && s.target !== null,
  );
  while (pending.length > 0) {
    const before = pending.length;
    pending = pending.filter((step) => {
      const key = recordKey(step.target);
      const holder = holders.get(key);
      if (holder !== undefined && holder !== step.recordId) return true;
      writes.push({ kind: 'put', recordId: step.recordId, values: step.target });
      vacate(step.recordId);
      holders.set(key, step.recordId);
      return false;
    });
    if (pending.length < before) continue;
    const cycle = findCycle(pending, holders);
    if (cycle.length === 0) break;
    cycle.forEach((step) => vacate(step.recordId));
    cycle.forEach((step) => holders.set(recordKey(step.target), step.recordId));
    writes.push({
      kind: 'swap',
      records: cycle.map((s) => ({ recordId: s.recordId, values: s.target })),
    });
    pending = pending.filter((step) => !cycle.includes(step));
  }
  for (const step of pending) {
    step.outcome = 'clash';
    const { country, date } = step.target;
    step.holder = { recordId: holders.get(recordKey(step.target)) ?? 0, country, date };
    step.undone = 0;
    delete (step as PlannedStep).target;
  }
  return writes;
}

/** Records among `pending` each waiting for the key held by the next, back to the first. */
function findCycle<S extends { recordId: number; target: RecordValues }>(
  pending: S[],
  holders: Map<string, number>,
): S[] {
  const byId = new Map(pending.map((step) => [step.recordId, step]));
  for (const start of pending) {
    const path: S[] = [];
    let step: S | undefined = start;
    while (step && !path.includes(step)) {
      path.push(step);
      step = byId.get(holders.get(recordKey(step.target)) ?? 0);
    }
    if (step) return path.slice(path.indexOf(step));
  }
  return [];
}
