import { ChangeOrigin, RecordValues, SeriesRepository } from '@app/series';
import { ImportError } from './import-error';
import { describeError } from '@app/common';

/** Records per write (one transaction; `upsertMany` sends 1000 rows per statement). */
export const IMPORT_BATCH = 5000;

/** What the batches written so far did. */
export interface WriteCounts {
  inserted: number;
  updated: number;
  /** Records equal to the stored ones: not written again. */
  unchanged: number;
  /** The lines of the batches committed: from the first one's first row to the last one's last. */
  writtenLines?: { first: number; last: number };
}

export interface BatchWriterOptions {
  /** Who writes (`import:<file or URL>`, `sync:<URL>`) and the import's id: every revision says so. */
  origin: ChangeOrigin;
  /** Told of each batch once its transaction is committed. */
  committed?: () => void;
  /** Once aborted, no batch is started any more (the one being written is let finish). */
  signal?: AbortSignal;
}

interface Batch {
  records: RecordValues[];
  firstLine: number;
  lastLine: number;
}

const emptyBatch = (): Batch => ({ records: [], firstLine: 0, lastLine: 0 });

/**
 * Whether the table's statistics are refreshed after the `n`th batch: the 1st, 2nd, 4th, 8th...
 * (and the last, in `finish`), so a table filling up from empty keeps statistics within twice its
 * size, for a handful of refreshes per import. True for `n` = 0: nothing written, none to do.
 */
const refreshesAfter = (n: number): boolean => (n & (n - 1)) === 0;

/**
 * Writes records in batches of `IMPORT_BATCH`, each in one transaction, one batch at a time: the
 * next batch is collected while one is written. A failed batch is reported (as an ImportError naming
 * its lines) when the writer is next used, and nothing is written after it. Batches are committed
 * in the order of the file, so the lines written are always one range.
 */
export class BatchWriter {
  private batch = emptyBatch();
  /** The batch being written: resolves to its failure, kept until awaited. */
  private writing: Promise<ImportError | undefined> = Promise.resolve(undefined);
  private batchesCommitted = 0;

  constructor(
    private readonly repository: SeriesRepository,
    private readonly counts: WriteCounts,
    private readonly options: BatchWriterOptions,
  ) {}

  /** Adds a record; a full batch waits for the one being written, then is written in turn. */
  async add(values: RecordValues, line: number): Promise<void> {
    if (this.batch.records.length === 0) this.batch.firstLine = line;
    this.batch.records.push(values);
    this.batch.lastLine = line;
    if (this.batch.records.length >= IMPORT_BATCH) await this.send();
  }

  /** Writes the records added since the last full batch and waits until everything is written. */
  async finish(): Promise<void> {
    if (this.batch.records.length > 0) await this.send();
    await this.stop();
    // The last batch, unless it was one of the refreshed ones.
    if (!refreshesAfter(this.batchesCommitted)) await this.refreshStatistics();
  }

  /** Waits for the batch being written, if any, and throws its failure; the rest is not written. */
  async stop(): Promise<void> {
    const failed = await this.writing;
    if (failed) throw failed;
  }

  /** Waits for the batch being written, if any, without writing more; resolves to its failure. */
  settled(): Promise<ImportError | undefined> {
    return this.writing;
  }

  private async send(): Promise<void> {
    await this.stop();
    if (this.options.signal?.aborted) return;
    this.writing = this.write(this.batch);
    this.batch = emptyBatch();
  }

  /**
   * The table's statistics brought up to date (`SeriesRepository.refreshStatistics`). They only
   * steer query plans: a failure keeps the old ones and never fails the import.
   */
  private async refreshStatistics(): Promise<undefined> {
    await this.repository.refreshStatistics().catch(() => undefined);
    return undefined;
  }

  private write(batch: Batch): Promise<ImportError | undefined> {
    return this.repository.upsertMany(batch.records, this.options.origin).then(
      (counts) => {
        this.counts.inserted += counts.inserted;
        this.counts.updated += counts.updated;
        this.counts.unchanged += counts.unchanged;
        const first = this.counts.writtenLines?.first ?? batch.firstLine;
        this.counts.writtenLines = { first, last: batch.lastLine };
        this.options.committed?.();
        this.batchesCommitted++;
        return refreshesAfter(this.batchesCommitted) ? this.refreshStatistics() : undefined;
      },
      (error: unknown) =>
        new ImportError(
          `writing the batch of lines ${batch.firstLine}-${batch.lastLine} failed, nothing of it was written: ${describeError(error)}`,
        ),
    );
  }
}
