import { Logger } from '@nestjs/common';
import { ApiError } from '@app/common';
import {
  DatabaseDeadlineError,
  isUniqueViolation,
  UpsertCounts,
  ChangeOrigin,
  RecordValues,
  DiseaseDefinition,
  RecordWritesRepository,
  RestoreOutcome,
  BulkLoadRepository,
} from '@app/database';
import { RecordReverter, RevertResult } from './record-reverter';
import { WriteNotice } from './write-notice';

/** How a bulk write runs. */
export interface BulkWriteOptions {
  /** Once aborted, the transaction is rolled back at its next chunk and the write throws. */
  signal?: AbortSignal;
  /**
   * An import: when it created records, the query plans follow the table's new size before the
   * caches are rebuilt on it (MySQL's statistics; a failure keeps the old ones).
   */
  refreshStatistics?: boolean;
}

/**
 * The one write path of a disease's records: every writer (the API's single and bulk writes, imports, the
 * scheduled sync, the CLI's restore and revert) writes through it. It writes, the repositories
 * record the revisions in the same transaction, then it drops the cached reads and tells the
 * other instances (`WriteNotice`): after a write that changed something, and after one that failed
 * on the database (it may have half-run), never after a refusal (unknown id, duplicate key).
 */
export class RecordWriter {
  private readonly logger: Logger;

  constructor(
    readonly definition: DiseaseDefinition,
    private readonly records: RecordWritesRepository,
    private readonly bulk: BulkLoadRepository,
    private readonly reverter: RecordReverter,
    private readonly notice: WriteNotice,
  ) {
    this.logger = new Logger(`Records:${definition.key}`);
  }

  /** A new record; its id. A duplicate country and date throws `isUniqueViolation`. */
  create(values: RecordValues, origin: ChangeOrigin): Promise<number> {
    return this.write(origin, 'created', () => this.records.insert(values, origin), {
      changed: () => true,
      ids: (id) => [id],
    });
  }

  /** Replaces a record's fields; false when it does not exist. */
  update(id: number, values: RecordValues, origin: ChangeOrigin): Promise<boolean> {
    return this.write(origin, 'updated', () => this.records.update(id, values, origin), {
      changed: (found) => found,
      ids: () => [id],
    });
  }

  /** Deletes a record; false when it does not exist. */
  remove(id: number, origin: ChangeOrigin): Promise<boolean> {
    return this.write(origin, 'deleted', () => this.records.delete(id, origin), {
      changed: (found) => found,
      ids: () => [id],
    });
  }

  /** Inserts or updates by country and date, all in one transaction (`BulkLoadRepository`). */
  upsertMany(
    records: RecordValues[],
    origin: ChangeOrigin,
    options: BulkWriteOptions = {},
  ): Promise<UpsertCounts> {
    return this.write(origin, 'upserted', async () =>
      this.afterLoad(await this.bulk.upsertMany(records, origin, options.signal), options),
    );
  }

  /** As `upsertMany`, for records that arrive in chunks (an import's, as its file is parsed). */
  upsertStream(
    chunks: AsyncIterable<RecordValues[]>,
    origin: ChangeOrigin,
    options: BulkWriteOptions = {},
  ): Promise<UpsertCounts> {
    return this.write(origin, 'upserted', async () =>
      this.afterLoad(await this.bulk.upsertStream(chunks, origin, options.signal), options),
    );
  }

  /**
   * Puts records back into given states (the CLI's restore): see `RecordWritesRepository.restore`.
   * Another record holding a country and date throws `isUniqueViolation`.
   */
  restore(
    states: { recordId: number; values: RecordValues | null }[],
    origin: ChangeOrigin,
  ): Promise<RestoreOutcome[]> {
    return this.write(origin, 'restored', () => this.records.restore(states, origin), {
      changed: (done) => done.some((kind) => kind !== 'unchanged'),
      ids: (done) => states.filter((_, i) => done[i] !== 'unchanged').map((s) => s.recordId),
    });
  }

  /** Undoes every change `actor` made since `since` (`RecordReverter`); `dryRun`: only plans. */
  revert(actor: string, since: number, dryRun: boolean): Promise<RevertResult> {
    const run = () => this.reverter.revert(actor, since, dryRun);
    if (dryRun) return run();
    return this.write({ actor: 'cli:revert' }, `reverted (${actor})`, run, {
      changed: (result) =>
        result.steps.some((s) => ['create', 'update', 'delete'].includes(s.outcome)),
    });
  }

  /**
   * What the derived figures depend on was written elsewhere (the population table; a sync
   * worker's import): drops the cached reads and tells the other instances, as after a write.
   */
  async written(): Promise<void> {
    await this.notice.written(this.definition.key);
  }

  private async afterLoad(counts: UpsertCounts, options: BulkWriteOptions): Promise<UpsertCounts> {
    // With the old statistics, the first reads after a large import would be many times slower.
    if (options.refreshStatistics && counts.inserted > 0) {
      await this.bulk.refreshStatistics().catch(() => undefined);
    }
    return counts;
  }

  /**
   * Runs a write, then makes it known (`written`) when it changed something; also when it failed
   * on the database (it may have half-run), but not when it was refused. A write that ran out of
   * time may still commit: then once more when it has ended. Each write is logged (debug) with
   * who made it.
   */
  private async write<T>(
    origin: ChangeOrigin,
    what: string,
    run: () => Promise<T>,
    outcome: { changed: (result: T) => boolean; ids?: (result: T) => number[] } = {
      changed: (counts) => isChange(counts),
    },
  ): Promise<T> {
    let result: T;
    try {
      result = await run();
    } catch (error) {
      if (!(error instanceof ApiError) && !isUniqueViolation(error)) await this.written();
      if (error instanceof DatabaseDeadlineError) void error.settled.then(() => this.written());
      throw error;
    }
    if (outcome.changed(result)) {
      await this.written();
      const ids = outcome.ids?.(result) ?? [];
      const records = ids.length > 0 ? ` ${ids.join(', ')}` : 's';
      const request = origin.requestId === undefined ? '' : ` (request ${origin.requestId})`;
      this.logger.debug(`Record${records} ${what} by ${origin.actor}${request}`);
    }
    return result;
  }
}

/** Whether an upsert's counts say that something was written. */
function isChange(result: unknown): boolean {
  const counts = result as UpsertCounts;
  return counts.inserted + counts.updated > 0;
}
