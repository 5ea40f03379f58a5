/** What an import tells the person running it while it runs (all on stderr). */
export interface ImportProgress {
  start(totalBytes: number): void;
  update(bytesRead: number, rows: number): void;
  invalidRow(line: number, problems: string[]): void;
  message(text: string): void;
  stop(): void;
  /**
   * The records are being written, in one transaction: all `records` of the file once it is read
   * and valid, or (`streaming`: told at each chunk) as they are read, `records` read so far.
   */
  writing(records: number, streaming?: boolean): void;
}

/** Plain lines otherwise: one every this many rows. */
export const PLAIN_PROGRESS_ROWS = 50_000;

/** Plain periodic lines: for logs, pipes and CI. */
export class LineProgress implements ImportProgress {
  private total = 0;
  private nextRows = PLAIN_PROGRESS_ROWS;
  private toldWriting = false;

  constructor(private readonly stream: NodeJS.WritableStream) {}

  start(totalBytes: number): void {
    this.total = totalBytes;
  }

  update(bytesRead: number, rows: number): void {
    if (rows < this.nextRows) return;
    this.nextRows = rows + PLAIN_PROGRESS_ROWS;
    const percent = this.total > 0 ? Math.floor((100 * bytesRead) / this.total) : 0;
    this.stream.write(`progress: ${rows} rows read (${percent}% of the file)\n`);
  }

  invalidRow(line: number, problems: string[]): void {
    this.stream.write(`line ${line}: ${problems.join('; ')}\n`);
  }

  message(text: string): void {
    this.stream.write(`${text}\n`);
  }

  stop(): void {}

  /** Told only of imports long enough to have had progress lines. */
  writing(records: number, streaming = false): void {
    if (records < PLAIN_PROGRESS_ROWS || this.toldWriting) return;
    this.toldWriting = true;
    this.stream.write(`progress: ${writingLine(records, streaming)}\n`);
  }
}

/** Tells nothing: the summary counts everything (the scheduled sync stores it). */
export const QUIET_PROGRESS: ImportProgress = {
  start: () => undefined,
  update: () => undefined,
  invalidRow: () => undefined,
  message: () => undefined,
  stop: () => undefined,
  writing: () => undefined,
};

/** What `writing` says: `writing 225171 records (all or nothing)`, or as they are read. */
export function writingLine(records: number, streaming: boolean): string {
  return streaming
    ? 'writing the records as they are read (all or nothing)'
    : `writing ${records} records (all or nothing)`;
}
