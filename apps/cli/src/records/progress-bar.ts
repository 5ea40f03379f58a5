import { SingleBar } from 'cli-progress';
import { ImportProgress, LineProgress, writingLine } from '@app/importer';

/** A progress bar on a terminal, plain periodic lines otherwise (logs, pipes, CI). */
export function createProgress(stream: NodeJS.WriteStream = process.stderr): ImportProgress {
  return stream.isTTY ? new BarProgress(stream) : new LineProgress(stream);
}

class BarProgress implements ImportProgress {
  private readonly bar: SingleBar;
  private toldWriting = false;

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

  writing(records: number, streaming = false): void {
    if (this.toldWriting) return;
    this.toldWriting = true;
    if (streaming) this.message(writingLine(records, streaming));
    else this.stream.write(`${writingLine(records, streaming)}\n`);
  }
}
