import { BulkWriteOptions, ChangeOrigin, RecordValues, RecordWriter } from '@app/diseases';
import { UpsertCounts } from '@app/database';
import { ChunkChannel } from './chunk-channel';
import { ImportProgress } from './import-progress';

/** Records per chunk handed to the transaction while the file is parsed. */
const STREAM_CHUNK = 5000;

/**
 * Where an import puts the records it parsed: `commit` writes them all in one transaction, or
 * `abandon` (a bad row, a failure, an interruption) leaves everything as it was.
 */
export interface RecordSink {
  add(values: RecordValues, rowsRead: number): Promise<void>;
  commit(): Promise<UpsertCounts>;
  abandon(): Promise<void>;
}

/** Keeps every record until the file is read whole, then writes them in one transaction. */
export class BufferedSink implements RecordSink {
  private readonly records: RecordValues[] = [];

  constructor(
    private readonly writer: RecordWriter,
    private readonly origin: ChangeOrigin,
    private readonly progress: ImportProgress,
    private readonly signal?: AbortSignal,
  ) {}

  /** An import: the query plans follow the table's new size before the caches are rebuilt. */
  private get options(): BulkWriteOptions {
    return { signal: this.signal, refreshStatistics: true };
  }

  add(values: RecordValues): Promise<void> {
    this.records.push(values);
    return Promise.resolve();
  }

  commit(): Promise<UpsertCounts> {
    this.progress.writing(this.records.length);
    return this.writer.upsertMany(this.records, this.origin, this.options);
  }

  abandon(): Promise<void> {
    this.records.length = 0;
    return Promise.resolve();
  }
}

/**
 * Hands records to one transaction by chunks as they are parsed, so that the database writes one
 * chunk while the next is parsed; the transaction commits only at `commit`.
 */
export class StreamingSink implements RecordSink {
  private readonly channel = new ChunkChannel<RecordValues[]>();
  private chunk: RecordValues[] = [];
  private writing?: Promise<UpsertCounts>;
  private abandoned = false;

  constructor(
    private readonly writer: RecordWriter,
    private readonly origin: ChangeOrigin,
    private readonly progress: ImportProgress,
    private readonly signal?: AbortSignal,
  ) {}

  /** An import: the query plans follow the table's new size before the caches are rebuilt. */
  private get options(): BulkWriteOptions {
    return { signal: this.signal, refreshStatistics: true };
  }

  async add(values: RecordValues, rowsRead: number): Promise<void> {
    if (this.abandoned || this.channel.failed) return;
    this.chunk.push(values);
    if (this.chunk.length < STREAM_CHUNK) return;
    this.progress.writing(rowsRead, true);
    if (!this.writing) {
      this.writing = this.writer.upsertStream(this.channel, this.origin, this.options);
      // Its failure stops the parser's pushes; `commit` tells it, `abandon` drops it.
      this.writing.catch(() => this.channel.fail(new Error('the transaction failed')));
    }
    const full = this.chunk;
    this.chunk = [];
    await this.channel.push(full);
  }

  async commit(): Promise<UpsertCounts> {
    this.writing ??= this.writer.upsertStream(this.channel, this.origin, this.options);
    if (this.chunk.length) await this.channel.push(this.chunk);
    this.chunk = [];
    this.channel.end();
    return this.writing;
  }

  async abandon(): Promise<void> {
    this.abandoned = true;
    this.chunk = [];
    this.channel.fail(new Error('the import was abandoned'));
    await this.writing?.catch(() => undefined);
  }
}
