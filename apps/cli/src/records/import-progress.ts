import { SingleBar } from 'cli-progress';

/** What an import tells the person running it while it runs (all on stderr). */
export interface ImportProgress {
  start(totalBytes: number): void;
  update(bytesRead: number, rows: number): void;
  invalidRow(line: number, problems: string[]): void;
  message(text: string): void;
  stop(): void;
}

/** Plain lines otherwise: one every this many rows. */
export const PLAIN_PROGRESS_ROWS = 50_000;

/** A progress bar on a terminal, plain periodic lines otherwise (logs, pipes, CI). */
export function createProgress(stream: NodeJS.WriteStream = process.stderr): ImportProgress {
  return stream.isTTY ? new BarProgress(stream) : new LineProgress(stream);
}

class LineProgress implements ImportProgress {
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
}

class BarProgress implements ImportProgress {
  private readonly bar: SingleBar;

  constructor(private readonly stream: NodeJS.WriteStream) {
    this.bar = new SingleBar({
      stream,
      format: '{bar} {percentage}% | {rows} rows | {duration_formatted}',
      hideCursor: true,
      clearOnComplete: false,
    });
  }

  start(totalBytes: number): void {
    this.bar.start(Math.max(totalBytes, 1), 0, { rows: 0 });
  }

  update(bytesRead: number, rows: number): void {
    this.bar.update(bytesRead, { rows });
  }

  invalidRow(line: number, problems: string[]): void {
    this.message(`line ${line}: ${problems.join('; ')}`);
  }

  /** A line above the bar (the bar is drawn again at the next update). */
  message(text: string): void {
    this.stream.clearLine(0);
    this.stream.cursorTo(0);
    this.stream.write(`${text}\n`);
  }

  stop(): void {
    this.bar.stop();
  }
}
