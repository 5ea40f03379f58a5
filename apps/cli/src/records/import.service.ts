import { Injectable } from '@nestjs/common';
import { CsvError, parse } from 'csv-parse';
import { DataSource } from 'typeorm';
import { AppConfig, InjectConfig } from '@app/config';
import { CHANGE_CHANNELS, announceChange } from '@app/database';
import { RecordValues, SeriesDefinition, SeriesRepository } from '@app/series';
import { CliError } from '../cli-error';
import { describe } from '../cli-context';
import { CsvFormat, SkipReason, detectFormat } from './csv-format';
import { checkImportFile } from './file-check';
import { fileContent, openImportFile } from './import-file';
import { ImportProgress } from './import-progress';

/** Records per write (one transaction; `upsertMany` sends 1000 rows per statement). */
export const IMPORT_BATCH = 5000;

export interface ImportSummary {
  format: string;
  rowsRead: number;
  inserted: number;
  updated: number;
  skipped: Record<SkipReason | 'invalid', number>;
  /** Set when a write failed: the rows from that batch on were not written. */
  failure?: string;
}

interface Batch {
  records: RecordValues[];
  firstLine: number;
  lastLine: number;
}

/**
 * Loads a CSV file (plain or gzip) into one disease's table, insert-or-update by country and
 * date, in batches of `IMPORT_BATCH` records, each batch in one transaction. The file is read
 * once to its end before anything is written (`checkImportFile`). Bad rows are reported with their
 * line number and left out; they never stop the import. While one batch is written the next one
 * is parsed.
 */
@Injectable()
export class ImportService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async run(
    series: SeriesDefinition,
    file: string,
    progress: ImportProgress,
  ): Promise<ImportSummary> {
    const input = openImportFile(file);
    await checkImportFile(input);
    const size = input.size;
    const repository = new SeriesRepository(this.dataSource, series);
    const summary: ImportSummary = {
      format: '',
      rowsRead: 0,
      inserted: 0,
      updated: 0,
      skipped: { aggregate: 0, 'not-reported': 0, invalid: 0 },
    };
    let bytesRead = 0;
    const source = fileContent(input, (bytes) => (bytesRead += bytes));
    const parser = source.pipe(
      parse({
        bom: true,
        info: true,
        relax_column_count: true,
        skip_empty_lines: true,
        skip_records_with_error: true,
        on_skip: (error: CsvError | undefined) => {
          // Before the first record, it is the header that cannot be read: no row to report, and
          // nothing to import. Thrown here, it ends the parsing.
          if (error?.records === 0) throw new UnreadableHeader(error.message);
          summary.rowsRead++;
          summary.skipped.invalid++;
          const line = (error as { lines?: number } | undefined)?.lines ?? 0;
          progress.invalidRow(line, [error?.message ?? 'ligne CSV illisible']);
          return undefined;
        },
      }),
    );
    source.on('error', (error) => parser.destroy(error));

    let format: CsvFormat | undefined;
    let columns = 0;
    let batch: Batch = { records: [], firstLine: 0, lastLine: 0 };
    // One batch is written while the next one is parsed; its failure is kept until awaited.
    let writing: Promise<Error | undefined> = Promise.resolve(undefined);
    const write = (b: Batch): Promise<Error | undefined> =>
      repository.upsertMany(b.records).then(
        (counts) => {
          summary.inserted += counts.inserted;
          summary.updated += counts.updated;
          return undefined;
        },
        (error: unknown) =>
          new CliError(
            `writing the batch of lines ${b.firstLine}-${b.lastLine} failed, nothing of it was written: ${describe(error)}`,
          ),
      );
    const flush = async (): Promise<void> => {
      const failed = (await writing) ?? (batch.records.length > 0 ? await write(batch) : undefined);
      batch = { records: [], firstLine: 0, lastLine: 0 };
      if (failed) throw failed;
    };
    let line = 0;

    progress.start(size);
    try {
      for await (const { record, info } of parser as AsyncIterable<{
        record: string[];
        info: { lines: number };
      }>) {
        line = info.lines;
        if (!format) {
          format = detectFormat(record);
          summary.format = format.name;
          columns = record.length;
          continue;
        }
        summary.rowsRead++;
        progress.update(bytesRead, summary.rowsRead);
        const outcome =
          record.length === columns
            ? format.read(record)
            : {
                kind: 'invalid' as const,
                problems: [`${columns} colonnes attendues, ${record.length} trouvées`],
              };
        if (outcome.kind === 'skip') summary.skipped[outcome.reason]++;
        else if (outcome.kind === 'invalid') {
          summary.skipped.invalid++;
          progress.invalidRow(info.lines, outcome.problems);
        } else {
          if (batch.records.length === 0) batch.firstLine = info.lines;
          batch.records.push(outcome.values);
          batch.lastLine = info.lines;
          if (batch.records.length >= IMPORT_BATCH) {
            const failed = await writing;
            if (failed) throw failed;
            writing = write(batch);
            batch = { records: [], firstLine: 0, lastLine: 0 };
          }
        }
      }
      await flush();
    } catch (error) {
      if (error instanceof UnreadableHeader) {
        throw new CliError(
          `${file} has no readable CSV header (${error.message}); nothing was imported`,
        );
      }
      if (error instanceof CliError && !format) throw error;
      if (error instanceof CliError) {
        await writing;
        summary.failure = `${error.message}; the import stopped there`;
      } else {
        // The file read to its end a moment ago (checkImportFile), so it changed meanwhile or the
        // disk failed: what was read before is imported, then reported.
        const reason = `reading ${file} failed after line ${line}: ${describe(error)}`;
        summary.failure = await flush().then(
          () => `${reason}; every row read before was imported`,
          (failed: Error) => `${reason}; ${failed.message}`,
        );
      }
    } finally {
      progress.update(size, summary.rowsRead);
      progress.stop();
    }
    // API instances that share Redis (REDIS_URL) drop their cached reads of this series at once.
    if (this.config.redisUrl && summary.inserted + summary.updated > 0) {
      await announceChange(this.config.redisUrl, CHANGE_CHANNELS.records, series.key);
    }
    if (!format && !summary.failure) throw new CliError(`${file} is empty (no CSV header)`);
    return summary;
  }
}

/** The first record of the file, which should be the header, is not even well-formed CSV. */
class UnreadableHeader extends Error {}
