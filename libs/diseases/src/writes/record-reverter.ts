import {
  NewRevision,
  RecordValues,
  RecordWritesRepository,
  RevisionRepository,
  SqlSession,
  isUniqueViolation,
  withCanonicalCountry,
} from '@app/database';
import {
  PlannedStep,
  REVERT_ACTOR,
  RevertStep,
  RevertWrite,
  orderWrites,
  planRecord,
  recordKey,
} from '../history/revert-plan';

/** Runs of a revert whose write met a key taken meanwhile (MySQL): the next run sees it. */
const CLASH_ATTEMPTS = 3;

/** What a revert did, or would do: a step per record, and the history's horizon. */
export interface RevertResult {
  steps: RevertStep[];
  /** The moment before which the history was pruned (null: whole). */
  keptSince: number | null;
}

/**
 * `revert`: undoes every change an actor made since a moment (the leaked-token case). The check
 * (who changed each record afterwards, which keys are free) and the writes are one transaction:
 * on MySQL the records' rows and the keys they go back to are locked (`FOR UPDATE`) before their
 * history is read, at READ COMMITTED so that the read sees every write committed before the lock;
 * SQLite's write transaction holds the only writer. A concurrent write is thus either seen (the
 * record is left alone) or waits and comes after the revert. A dry run plans the same way,
 * without locks or writes.
 */
export class RecordReverter {
  /** `writes`: the write path's statements, which the revert's own run inside its transaction. */
  constructor(
    private readonly revisions: RevisionRepository,
    private readonly writes: RecordWritesRepository,
  ) {}

  async revert(actor: string, since: number, dryRun: boolean): Promise<RevertResult> {
    const keptSince = await this.revisions.keptSince();
    if (dryRun) {
      const steps = await this.writes.revertSession(false, (s) => this.run(s, actor, since, false));
      return { steps, keptSince };
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const steps = await this.writes.revertSession(true, (session) =>
          this.run(session, actor, since, true),
        );
        return { steps, keptSince };
      } catch (error) {
        // A key this revert found free was taken by a concurrent insert before its own write.
        if (!isUniqueViolation(error) || attempt >= CLASH_ATTEMPTS) throw error;
      }
    }
  }

  /** Plans the revert and, with `write`, applies it (inside the caller's transaction). */
  private async run(
    manager: SqlSession,
    actor: string,
    since: number,
    write: boolean,
  ): Promise<RevertStep[]> {
    const mysqlLock = write && this.writes.mysql;
    const ids = await this.revisions.recordsChangedBy(actor, since, manager);
    const current = await this.writes.valuesOf(manager, ids, mysqlLock);
    const histories = await this.revisions.ofRecords(manager, ids);
    const steps: PlannedStep[] = [];
    for (const id of ids) {
      const step = planRecord(histories.get(id) ?? [], actor, since);
      if (step) steps.push(step);
    }
    const moving = steps.filter((s) => s.target !== undefined);
    const currentKeys = new Map<number, string>();
    for (const step of moving) {
      const values = current.get(step.recordId);
      if (values) currentKeys.set(step.recordId, recordKey(values));
    }
    const holders = await this.holders(manager, moving, currentKeys, mysqlLock);
    const writes = orderWrites(moving, holders, currentKeys);
    if (write && writes.length > 0) await this.apply(manager, writes, current);
    return steps.map(({ target: _target, ...step }) => step);
  }

  /**
   * The record holding each key that `steps` go back to; locked on MySQL when `lock`. A record
   * that keeps its country and date holds its own key (the unique index says so): no look-up.
   */
  private async holders(
    manager: SqlSession,
    steps: PlannedStep[],
    currentKeys: Map<number, string>,
    lock: boolean,
  ): Promise<Map<string, number>> {
    const holders = new Map<string, number>();
    const wanted = new Map<string, RecordValues>();
    for (const { recordId, target } of steps) {
      if (!target) continue;
      const key = recordKey(target);
      if (currentKeys.get(recordId) === key) holders.set(key, recordId);
      else wanted.set(key, target);
    }
    for (const key of holders.keys()) wanted.delete(key);
    // One look-up per key, by the unique index: a list of pairs would not use it on every database.
    for (const [key, values] of wanted) {
      const id = await this.writes.holderOf(manager, values, lock);
      if (id !== undefined) holders.set(key, id);
    }
    return holders;
  }

  /** Runs `planned` in order and appends one revision per record, as one change set. */
  private async apply(
    manager: SqlSession,
    planned: RevertWrite[],
    current: Map<number, RecordValues>,
  ): Promise<void> {
    const revisions: NewRevision[] = [];
    for (const step of planned) {
      if (step.kind === 'delete') {
        await this.writes.removeIds(manager, [step.recordId]);
        const values = current.get(step.recordId) ?? null;
        revisions.push({ recordId: step.recordId, kind: 'delete', values });
      } else if (step.kind === 'put') {
        const values = withCanonicalCountry(step.values);
        const exists = current.has(step.recordId);
        if (exists) {
          await this.writes.overwrite(manager, step.recordId, values);
        } else {
          await this.writes.insertWithId(manager, step.recordId, values);
        }
        revisions.push({ recordId: step.recordId, kind: exists ? 'update' : 'create', values });
      } else {
        // Each key is held by another of these records: all leave, then come back with their ids.
        await this.writes.removeIds(
          manager,
          step.records.map((r) => r.recordId),
        );
        for (const { recordId, values } of step.records) {
          await this.writes.insertWithId(manager, recordId, withCanonicalCountry(values));
          revisions.push({ recordId, kind: 'update', values: withCanonicalCountry(values) });
        }
      }
    }
    const changes = this.revisions.changeSet({ actor: REVERT_ACTOR });
    await changes.append(manager, revisions);
    await changes.seal(manager);
  }
}
