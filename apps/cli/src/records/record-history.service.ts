import { Injectable } from '@nestjs/common';
import {
  isUniqueViolation,
  ChangeKind,
  PruneCounts,
  RevisionPruner,
  RevisionRepository,
  StoredRevision,
} from '@app/database';
import { RecordValues, RecordWriter, RevertResult, DiseaseDefinition } from '@app/diseases';
import { InjectDisease } from '@app/common';
import { CliError } from '../cli-error';

/**
 * Reads a record's history and puts records back as they were: one record (`restore`), or every
 * record an actor changed since a moment (`revert`, the leaked-token case). Each is a write like
 * any other, through the write path (`RecordWriter`): new revisions (actor `cli:restore`,
 * `cli:revert`), one transaction, and an announcement to the API instances (with REDIS_URL) so
 * that they drop their cached reads.
 */
@Injectable()
export class RecordHistoryService {
  /** Each disease's write path and history, by key. */
  private readonly diseases: Map<
    string,
    { writer: RecordWriter; revisions: RevisionRepository; pruner: RevisionPruner }
  >;

  constructor(
    @InjectDisease(RecordWriter, 'covid') covid: RecordWriter,
    @InjectDisease(RecordWriter, 'mpox') mpox: RecordWriter,
    @InjectDisease(RevisionRepository, 'covid') covidRevisions: RevisionRepository,
    @InjectDisease(RevisionRepository, 'mpox') mpoxRevisions: RevisionRepository,
    @InjectDisease(RevisionPruner, 'covid') covidPruner: RevisionPruner,
    @InjectDisease(RevisionPruner, 'mpox') mpoxPruner: RevisionPruner,
  ) {
    this.diseases = new Map([
      ['covid', { writer: covid, revisions: covidRevisions, pruner: covidPruner }],
      ['mpox', { writer: mpox, revisions: mpoxRevisions, pruner: mpoxPruner }],
    ]);
  }

  private providersOf(disease: DiseaseDefinition) {
    const found = this.diseases.get(disease.key);
    if (found === undefined) throw new CliError(`no disease ${disease.key}`);
    return found;
  }

  async history(disease: DiseaseDefinition, id: number): Promise<StoredRevision[]> {
    const revisions = await this.providersOf(disease).revisions.ofRecord(id);
    if (revisions.length === 0) throw new CliError(`${disease.key} record ${id} has no history`);
    return revisions;
  }

  /**
   * Puts a record back as it was before its last change, or as revision `revision` (from 1) left
   * it. Returns what was done and the revision restored.
   */
  async restore(
    disease: DiseaseDefinition,
    id: number,
    revision?: number,
  ): Promise<{ kind: ChangeKind | 'unchanged'; from: number }> {
    const revisions = await this.history(disease, id);
    const from = revision ?? revisions.length - 1;
    if (from < 1 || from > revisions.length) {
      throw revision === undefined
        ? new CliError(`${disease.key} record ${id} has one revision only: nothing to restore`)
        : CliError.usage(`--revision must be from 1 to ${revisions.length} for record ${id}`);
    }
    const values = revisions[from - 1].values;
    const [kind] = await this.apply(disease, [{ recordId: id, values }], 'cli:restore');
    return { kind, from };
  }

  /**
   * Undoes every change `actor` (its name ignoring case) made at `since` or later
   * (`RecordReverter`): each record goes back to its state before the actor's first such change,
   * or is reported and left alone. With `dryRun`, only says what it would do.
   */
  async revert(
    disease: DiseaseDefinition,
    actor: string,
    since: number,
    dryRun: boolean,
  ): Promise<RevertResult> {
    return this.writer(disease).revert(actor, since, dryRun);
  }

  private async apply(
    disease: DiseaseDefinition,
    states: { recordId: number; values: RecordValues | null }[],
    actor: string,
  ): Promise<(ChangeKind | 'unchanged')[]> {
    let done: (ChangeKind | 'unchanged')[];
    try {
      done = await this.writer(disease).restore(states, { actor });
    } catch (error) {
      // The one foreseeable refusal: another record now holds that country and date.
      if (isUniqueViolation(error)) {
        throw new CliError(
          'another record now holds the same country and date; nothing was changed',
        );
      }
      throw error;
    }
    return done;
  }

  /** Removes the revisions superseded before `before` (`RevisionPruner`); with `dryRun`, counts. */
  prune(disease: DiseaseDefinition, before: number, dryRun: boolean): Promise<PruneCounts> {
    return this.providersOf(disease).pruner.prune(before, dryRun);
  }

  private writer(disease: DiseaseDefinition): RecordWriter {
    return this.providersOf(disease).writer;
  }
}
