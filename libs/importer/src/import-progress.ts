/** What an import tells the person running it while it runs (all on stderr). */
export interface ImportProgress {
  start(totalBytes: number): void;
  update(bytesRead: number, rows: number): void;
  invalidRow(line: number, problems: string[]): void;
  message(text: string): void;
  stop(): void;
  /** The file is read and valid: its `records` are being written, in one transaction. */
  writing(records: number): void;
}

/** Plain lines otherwise: one every this many rows. */
export const PLAIN_PROGRESS_ROWS = 50_000;

/** Plain periodic lines: for logs, pipes and CI. */
export class LineProgress implements ImportProgress {
  private total = 0;
  private nextRows = PLAIN_PROGRESS_ROWS;

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
  writing(records: number): void {
    if (records < PLAIN_PROGRESS_ROWS) return;
    this.stream.write(`progress: writing ${records} records (one transaction)\n`);
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
