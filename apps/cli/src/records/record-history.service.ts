import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig, InjectConfig } from '@app/config';
import { isUniqueViolation } from '@app/database';
import { CHANGE_CHANNELS, announceChange } from '@app/messaging';
import {
  ChangeKind,
  PruneCounts,
  RecordValues,
  RevisionPruner,
  SeriesDefinition,
  SeriesRepository,
  StoredRevision,
} from '@app/series';
import { CliError } from '../cli-error';

/** What `revert` does, or would do, to one record. */
export interface RevertStep {
  recordId: number;
  /** The actor's changes being undone. */
  undone: number;
  /** Put back as it was (`create`: brought back, `delete`: removed), or left alone. */
  outcome: ChangeKind | 'unchanged' | 'conflict';
  /** The later change by someone else that keeps this record as it is. */
  conflict?: StoredRevision;
}

const REVERT_ACTOR = 'cli:revert';

const sameValues = (a: RecordValues | null, b: RecordValues | null): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * Reads a record's history and puts records back as they were: one record (`restore`), or every
 * record an actor changed since a moment (`revert`, the leaked-token case). Each is a write like
 * any other: new revisions (actor `cli:restore`, `cli:revert`), one transaction, and an
 * announcement to the API instances (with REDIS_URL) so that they drop their cached reads.
 */
@Injectable()
export class RecordHistoryService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async history(series: SeriesDefinition, id: number): Promise<StoredRevision[]> {
    const revisions = await this.repository(series).revisions.ofRecord(id);
    if (revisions.length === 0) throw new CliError(`${series.key} record ${id} has no history`);
    return revisions;
  }

  /**
   * Puts a record back as it was before its last change, or as revision `revision` (from 1) left
   * it. Returns what was done and the revision restored.
   */
  async restore(
    series: SeriesDefinition,
    id: number,
    revision?: number,
  ): Promise<{ kind: ChangeKind | 'unchanged'; from: number }> {
    const revisions = await this.history(series, id);
    const from = revision ?? revisions.length - 1;
    if (from < 1 || from > revisions.length) {
      throw revision === undefined
        ? new CliError(`${series.key} record ${id} has one revision only: nothing to restore`)
        : CliError.usage(`--revision must be from 1 to ${revisions.length} for record ${id}`);
    }
    const values = revisions[from - 1].values;
    const [kind] = await this.apply(series, [{ recordId: id, values }], 'cli:restore');
    return { kind, from };
  }

  /**
   * Undoes every change `actor` made at `since` or later: each record goes back to its state
   * before the actor's first such change, unless someone else changed it afterwards (reported,
   * left alone). With `dryRun`, only says what it would do.
   */
  async revert(
    series: SeriesDefinition,
    actor: string,
    since: number,
    dryRun: boolean,
  ): Promise<RevertStep[]> {
    const repository = this.repository(series);
    const steps: RevertStep[] = [];
    const targets: { recordId: number; values: RecordValues | null }[] = [];
    for (const recordId of await repository.revisions.recordsChangedBy(actor, since)) {
      const revisions = await repository.revisions.ofRecord(recordId);
      const first = revisions.findIndex((r) => r.actor === actor && r.at >= since);
      const later = revisions.slice(first);
      const before = first > 0 ? revisions[first - 1].values : null;
      const now = revisions[revisions.length - 1].values;
      const others = later.filter((r) => r.actor !== actor);
      // A revert run before already put it back: nothing left to do, not a conflict.
      const reverted = others.every((r) => r.actor === REVERT_ACTOR) && sameValues(before, now);
      if (others.length > 0 && !reverted) {
        steps.push({ recordId, undone: 0, outcome: 'conflict', conflict: others[0] });
        continue;
      }
      const outcome = sameValues(before, now)
        ? 'unchanged'
        : before === null
          ? 'delete'
          : now === null
            ? 'create'
            : 'update';
      const undone = outcome === 'unchanged' ? 0 : later.length;
      steps.push({ recordId, undone, outcome });
      if (outcome !== 'unchanged') targets.push({ recordId, values: before });
    }
    if (!dryRun && targets.length > 0) await this.apply(series, targets, REVERT_ACTOR);
    return steps;
  }

  private async apply(
    series: SeriesDefinition,
    states: { recordId: number; values: RecordValues | null }[],
    actor: string,
  ): Promise<(ChangeKind | 'unchanged')[]> {
    let done: (ChangeKind | 'unchanged')[];
    try {
      done = await this.repository(series).restore(states, { actor });
    } catch (error) {
      // The one foreseeable refusal: another record now holds that country and date.
      if (isUniqueViolation(error)) {
        throw new CliError(
          'another record now holds the same country and date; nothing was changed',
        );
      }
      throw error;
    }
    if (this.config.redisUrl && done.some((kind) => kind !== 'unchanged')) {
      await announceChange(this.config.redisUrl, CHANGE_CHANNELS.records, series.key);
    }
    return done;
  }

  /** Removes the revisions superseded before `before` (`RevisionPruner`); with `dryRun`, counts. */
  prune(series: SeriesDefinition, before: number, dryRun: boolean): Promise<PruneCounts> {
    return new RevisionPruner(this.dataSource, series).prune(before, dryRun);
  }

  private repository(series: SeriesDefinition): SeriesRepository {
    return new SeriesRepository(this.dataSource, series);
  }
}
