import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig, InjectConfig } from '@app/config';
import { ChangeOrigin, RecordWriter, DiseaseDefinition, recordProblems } from '@app/diseases';
import { CorrectionsRepository } from '@app/database';
import { ImportError } from './import-error';
import { InjectDisease, describeError, importActor } from '@app/common';
import { interruptedBy } from './import-error';
import { BlankCellFiller, FillCounts } from './blank-cells';
import { BufferedSink, RecordSink, StreamingSink } from './record-sink';
import { CsvFormat, RowOutcome, SkipReason, detectFormat } from './csv-format';
import { RecordTooLong, UnreadableHeader, csvRecords } from './csv-records';
import { checkImportFile } from './file-check';
import { TooLarge, TooManyRows } from './import-limits';
import {
  ImportFile,
  changedSinceOpened,
  closeImportFile,
  fileContent,
  openImportFile,
} from './import-file';
import { ImportProgress } from './import-progress';
import { PlaceNames } from './place-names';

/** What an import did to the records: the file's rows are written all together or not at all. */
export interface WriteCounts {
  inserted: number;
  updated: number;
  /** Records equal to the stored ones: not written again. */
  unchanged: number;
}

export interface ImportSummary extends WriteCounts {
  /** The import's id: each revision it appended carries it. */
  importId: string;
  /** SHA-256 of the file's bytes, hex. */
  contentHash?: string;
  format: string;
  rowsRead: number;
  skipped: Record<SkipReason | 'invalid', number>;
  /** Blank cells filled, by field and rule (`blank-cells.ts`). */
  filled: FillCounts;
  /** Source names stored under a country's canonical name, with their rows. */
  renamed: PlaceNames['renamed'];
  /** Places that are not countries, kept as the source names them, with their rows. */
  unrecognised: PlaceNames['unrecognised'];
  /**
   * Stored figures the import corrected (docs/corrections.md), counted from its revisions once
   * committed; undefined when nothing was written, or the count could not be read.
   */
  corrected?: number;
  /** Set when the import failed (nothing of the file was written): why. */
  failure?: string;
  /** Set when SIGINT or SIGTERM stopped the import (nothing of the file was written). */
  interrupted?: NodeJS.Signals;
}

/**
 * Loads a CSV file (plain or gzip) into one disease's table, insert-or-update by country and
 * date. The file is read once to its end before anything is done (`checkImportFile`), then parsed
 * and validated whole, then written in ONE transaction: a bad row, a read error, an interruption
 * or a database error leaves every record and every revision as they were. Both readings are of
 * the file opened first, even if another one takes its name meanwhile; one written to meanwhile is
 * refused (`changedSinceOpened`). A file past `IMPORT_MAX_BYTES` (in the check) or
 * `IMPORT_MAX_ROWS` (while parsing) stops there (`import-limits.ts`), since the rows kept grow
 * with it.
 */
@Injectable()
export class ImportService {
  /** Each disease's write path and corrections, by key. */
  private readonly diseases: Map<
    string,
    { writer: RecordWriter; corrections: CorrectionsRepository }
  >;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @InjectDisease(RecordWriter, 'covid') covid: RecordWriter,
    @InjectDisease(RecordWriter, 'mpox') mpox: RecordWriter,
    @InjectDisease(CorrectionsRepository, 'covid') covidCorrections: CorrectionsRepository,
    @InjectDisease(CorrectionsRepository, 'mpox') mpoxCorrections: CorrectionsRepository,
  ) {
    this.diseases = new Map([
      ['covid', { writer: covid, corrections: covidCorrections }],
      ['mpox', { writer: mpox, corrections: mpoxCorrections }],
    ]);
  }

  private disease(definition: DiseaseDefinition) {
    const found = this.diseases.get(definition.key);
    if (found === undefined) throw new Error(`no disease ${definition.key}`);
    return found;
  }

  /**
   * Once `signal` is aborted, reading stops or the transaction is rolled back; the summary then
   * says so (`interrupted`), and nothing was written.
   */
  async run(
    disease: DiseaseDefinition,
    file: string,
    progress: ImportProgress,
    signal?: AbortSignal,
    actor = importActor('import', file),
  ): Promise<ImportSummary> {
    const input = await openImportFile(file);
    try {
      const writtenTo = () =>
        new ImportError(`${file} was written to while it was checked; nothing was imported`);
      let hash: string;
      try {
        hash = await checkImportFile(input, this.config.importLimits.maxBytes, signal);
      } catch (error) {
        // A file written to meanwhile may well look damaged: that is not what to tell (an
        // interruption still is).
        throw !signal?.aborted && (await changedSinceOpened(input)) ? writtenTo() : error;
      }
      if (await changedSinceOpened(input)) throw writtenTo();
      // One id per import: every revision it appends carries it.
      const origin = { actor, requestId: randomUUID() };
      const summary = await this.importChecked(input, disease, progress, origin, signal);
      return { ...summary, contentHash: hash };
    } finally {
      await closeImportFile(input);
    }
  }

  private async importChecked(
    input: ImportFile,
    disease: DiseaseDefinition,
    progress: ImportProgress,
    origin: ChangeOrigin,
    signal?: AbortSignal,
  ): Promise<ImportSummary> {
    const file = input.path;
    const summary: ImportSummary = {
      importId: origin.requestId ?? '',
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
    const sink = this.sinkFor(disease, origin, progress, signal);
    const rowProblem = (line: number, problems: string[]) => {
      summary.skipped.invalid++;
      progress.invalidRow(line, problems);
      // Nothing of the file will be written: the transaction under way goes at once.
      void sink.abandon();
    };
    let bytesRead = 0;
    const { maxBytes, maxRows } = this.config.importLimits;
    const rows = csvRecords(
      fileContent(input, maxBytes, (chunk) => (bytesRead += chunk.length)),
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
      for await (const record of rows) {
        if (signal?.aborted) break;
        line = record.line;
        if (!format) {
          format = detectFormat(record.cells);
          summary.format = format.name;
          columns = record.cells.length;
          continue;
        }
        summary.rowsRead++;
        // Fails fast: the rows kept for SQLite's transaction grow with the file.
        if (summary.rowsRead > maxRows) throw new TooManyRows(file, maxRows);
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
              await sink.add(values, summary.rowsRead);
            }
          }
        }
      }
    } catch (error) {
      if (error instanceof UnreadableHeader) {
        throw new ImportError(
          `${file} has no readable CSV header (${error.message}); nothing was imported`,
        );
      }
      if (error instanceof ImportError && !format) throw error;
      summary.failure = `${readFailure(error, file, line)}; nothing was imported`;
    } finally {
      progress.update(bytesRead, summary.rowsRead);
      progress.stop();
    }
    summary.interrupted = interruptedBy(signal);
    const stop = async (failure?: string) => {
      if (failure) summary.failure = failure;
      await sink.abandon();
      return summary;
    };
    if (summary.failure || summary.interrupted) return stop();
    if (!format) {
      await sink.abandon();
      throw new ImportError(`${file} is empty (no CSV header)`);
    }
    if (summary.skipped.invalid > 0) {
      return stop(
        `${summary.skipped.invalid} invalid row(s) (see their line numbers above); nothing was imported`,
      );
    }
    if (await changedSinceOpened(input)) {
      return stop(`${file} was written to while it was imported; nothing was imported`);
    }
    await this.commit(sink, summary, signal);
    if (summary.failure === undefined && !summary.interrupted) {
      summary.corrected = await this.corrected(disease, summary);
    }
    return summary;
  }

  /**
   * Where the file's records go, on their way to the write path (`RecordWriter`). SQLite (one
   * writer): kept until the file is read whole, then written in one transaction, so that the write
   * lock is held for the writing only. MySQL: written as they are parsed, in one transaction (the
   * server writes a chunk while the next is parsed; only the rows written are locked).
   */
  private sinkFor(
    definition: DiseaseDefinition,
    origin: ChangeOrigin,
    progress: ImportProgress,
    signal?: AbortSignal,
  ): RecordSink {
    const { writer } = this.disease(definition);
    return this.config.db.type === 'mysql'
      ? new StreamingSink(writer, origin, progress, signal)
      : new BufferedSink(writer, origin, progress, signal);
  }

  /**
   * The figures the committed import corrected, from the revisions that carry its id (one query;
   * none when it wrote nothing). Undefined when the count fails: the import itself stands.
   */
  private async corrected(
    definition: DiseaseDefinition,
    summary: ImportSummary,
  ): Promise<number | undefined> {
    if (summary.inserted + summary.updated === 0) return 0;
    return this.disease(definition)
      .corrections.countFigures({ requestId: summary.importId })
      .catch(() => undefined);
  }

  /**
   * Commits the file's records; the write path tells the other instances when any changed, once
   * the query plans follow the table's new size.
   */
  private async commit(
    sink: RecordSink,
    summary: ImportSummary,
    signal?: AbortSignal,
  ): Promise<void> {
    try {
      Object.assign(summary, await sink.commit());
    } catch (error) {
      summary.interrupted = interruptedBy(signal);
      if (!summary.interrupted) {
        summary.failure = `writing the records failed, nothing was imported: ${describeError(error)}`;
      }
    }
  }
}

/**
 * Why reading stopped before the end of the file: a record far too long, more rows or bytes than
 * allowed, or the disk failed.
 */
function readFailure(error: unknown, file: string, line: number): string {
  if (error instanceof RecordTooLong) return `${file}: ${error.message}`;
  if (error instanceof TooManyRows || error instanceof TooLarge) return error.message;
  return `reading ${file} failed after line ${line}: ${describeError(error)}`;
}

/** A data row as `format` reads it, unless it has another number of cells than the header. */
function readRow(format: CsvFormat, columns: number, cells: string[]): RowOutcome {
  if (cells.length === columns) return format.read(cells);
  return { kind: 'invalid', problems: [`${columns} colonnes attendues, ${cells.length} trouvées`] };
}
