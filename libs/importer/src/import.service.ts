import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig, InjectConfig } from '@app/config';
import { ChangeOrigin, SeriesDefinition, SeriesRepository, recordProblems } from '@app/series';
import { ImportError } from './import-error';
import { describeError } from '@app/common';
import { interruptedBy } from './import-error';
import { BatchWriter, WriteCounts } from './batch-writer';
import { BlankCellFiller, FillCounts } from './blank-cells';
import { ChangeAnnouncer } from './change-announcer';
import { CsvFormat, RowOutcome, SkipReason, detectFormat } from './csv-format';
import { RecordTooLong, UnreadableHeader, csvRecords } from './csv-records';
import { checkImportFile } from './file-check';
import {
  ImportFile,
  changedSinceOpened,
  closeImportFile,
  fileContent,
  openImportFile,
} from './import-file';
import { ImportProgress } from './import-progress';
import { PlaceNames } from './place-names';

export interface ImportSummary extends WriteCounts {
  format: string;
  rowsRead: number;
  skipped: Record<SkipReason | 'invalid', number>;
  /** Blank cells filled, by field and rule (`blank-cells.ts`). */
  filled: FillCounts;
  /** Source names stored under a country's canonical name, with their rows. */
  renamed: PlaceNames['renamed'];
  /** Places that are not countries, kept as the source names them, with their rows. */
  unrecognised: PlaceNames['unrecognised'];
  /** Set when the import stopped before the end of the file: why, and what was written. */
  failure?: string;
  /** Set when SIGINT or SIGTERM stopped the import (`writtenLines` tells how far it got). */
  interrupted?: NodeJS.Signals;
}

/**
 * Loads a CSV file (plain or gzip) into one disease's table, insert-or-update by country and
 * date, in batches (`BatchWriter`), each batch in one transaction. The file is read once to its
 * end before anything is written (`checkImportFile`). Bad rows are reported with their line number
 * and left out; they never stop the import. While one batch is written the next one is parsed.
 * Both readings are of the file opened first, even if another one takes its name meanwhile; one
 * written to meanwhile is reported (`changedSinceOpened`).
 */
@Injectable()
export class ImportService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * Once `signal` is aborted, reading stops, the batch being written is let finish (or fail) and
   * no other one is started; the summary then says so (`interrupted`).
   */
  async run(
    series: SeriesDefinition,
    file: string,
    progress: ImportProgress,
    signal?: AbortSignal,
    actor = `import:${file}`,
  ): Promise<ImportSummary> {
    const input = await openImportFile(file);
    try {
      const writtenTo = () =>
        new ImportError(`${file} was written to while it was checked; nothing was imported`);
      try {
        await checkImportFile(input, signal);
      } catch (error) {
        // A file written to meanwhile may well look damaged: that is not what to tell (an
        // interruption still is).
        throw !signal?.aborted && (await changedSinceOpened(input)) ? writtenTo() : error;
      }
      if (await changedSinceOpened(input)) throw writtenTo();
      // One id per import: every revision it appends carries it.
      const origin = { actor, requestId: randomUUID() };
      return await this.importChecked(input, series, progress, origin, signal);
    } finally {
      await closeImportFile(input);
    }
  }

  private async importChecked(
    input: ImportFile,
    series: SeriesDefinition,
    progress: ImportProgress,
    origin: ChangeOrigin,
    signal?: AbortSignal,
  ): Promise<ImportSummary> {
    const file = input.path;
    const summary: ImportSummary = {
      format: '',
      rowsRead: 0,
      inserted: 0,
      updated: 0,
      unchanged: 0,
      skipped: { aggregate: 0, 'not-reported': 0, invalid: 0 },
      filled: {},
      renamed: {},
      unrecognised: {},
    };
    const filler = new BlankCellFiller();
    const places = new PlaceNames();
    summary.filled = filler.counts;
    summary.renamed = places.renamed;
    summary.unrecognised = places.unrecognised;
    const announcer = new ChangeAnnouncer(this.config.redisUrl, series.key);
    const writer = new BatchWriter(new SeriesRepository(this.dataSource, series), summary, {
      committed: () => announcer.committed(),
      signal,
      origin,
    });
    const rowProblem = (line: number, problems: string[]) => {
      summary.skipped.invalid++;
      progress.invalidRow(line, problems);
    };
    let bytesRead = 0;
    const records = csvRecords(
      fileContent(input, (bytes) => (bytesRead += bytes)),
      (line, problem) => {
        summary.rowsRead++;
        rowProblem(line, [problem]);
      },
    );
    let format: CsvFormat | undefined;
    let columns = 0;
    let line = 0;

    progress.start(input.size);
    try {
      for await (const record of records) {
        if (signal?.aborted) break;
        line = record.line;
        if (!format) {
          format = detectFormat(record.cells);
          summary.format = format.name;
          columns = record.cells.length;
          continue;
        }
        summary.rowsRead++;
        progress.update(bytesRead, summary.rowsRead);
        const outcome = readRow(format, columns, record.cells);
        if (outcome.kind === 'skip') summary.skipped[outcome.reason]++;
        else if (outcome.kind === 'invalid') rowProblem(line, outcome.problems);
        else {
          const { date, country, code, figures } = outcome.row;
          const place = places.place(country, code);
          const filled = filler.fill(place.key, date, figures);
          if (!filled.ok) rowProblem(line, [filled.problem]);
          else {
            const values = { date, country: place.name, ...filled.figures };
            const problems = recordProblems(values);
            if (problems.length) rowProblem(line, problems);
            else {
              filler.accept(place.key, date, filled);
              await writer.add(values, line);
            }
          }
        }
      }
      await (signal?.aborted ? writer.stop() : writer.finish());
    } catch (error) {
      if (error instanceof UnreadableHeader) {
        throw new ImportError(
          `${file} has no readable CSV header (${error.message}); nothing was imported`,
        );
      }
      if (error instanceof ImportError && !format) throw error;
      summary.failure = await stoppedEarly(error, file, line, writer);
    } finally {
      progress.update(bytesRead, summary.rowsRead);
      progress.stop();
      await announcer.finished(summary.inserted + summary.updated > 0);
    }
    summary.interrupted = interruptedBy(signal);
    if (!format && !summary.failure && !summary.interrupted) {
      throw new ImportError(`${file} is empty (no CSV header)`);
    }
    if (!summary.failure && !summary.interrupted && (await changedSinceOpened(input))) {
      // What was read may mix the old content and the new: upserts make a second run safe.
      summary.failure =
        `${file} was written to while it was imported: the rows read were imported, they may ` +
        'mix its content before and after; importing the file again makes the data its own';
    }
    return summary;
  }
}

/**
 * Why the import stopped before the end of the file, once what could still be written is: a
 * batch failed (an ImportError; nothing after it is written), or reading stopped early (what was read
 * before is written). Reading stops early at a record far too long, or when the file changed since
 * checkImportFile read it to its end, or when the disk fails.
 */
async function stoppedEarly(
  error: unknown,
  file: string,
  line: number,
  writer: BatchWriter,
): Promise<string> {
  if (error instanceof ImportError) {
    await writer.settled();
    return `${error.message}; the import stopped there`;
  }
  const reason =
    error instanceof RecordTooLong
      ? `${file}: ${error.message}`
      : `reading ${file} failed after line ${line}: ${describeError(error)}`;
  return writer.finish().then(
    () => `${reason}; the import stopped there, every row up to line ${line} was imported`,
    (failed: Error) => `${reason}; ${failed.message}`,
  );
}

/** A data row as `format` reads it, unless it has another number of cells than the header. */
function readRow(format: CsvFormat, columns: number, cells: string[]): RowOutcome {
  if (cells.length === columns) return format.read(cells);
  return { kind: 'invalid', problems: [`${columns} colonnes attendues, ${cells.length} trouvées`] };
}
