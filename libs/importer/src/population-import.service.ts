import { Injectable } from '@nestjs/common';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AppConfig, InjectConfig } from '@app/config';
import { PopulationRepository, PopulationWriteCounts, SourceRepository } from '@app/database';
import { InjectDisease, describeError, sourceName } from '@app/common';
import { RecordWriter } from '@app/diseases';
import { csvRecords } from './csv-records';
import { ImportError, interruptedBy } from './import-error';
import { closeImportFile, fileContent, openImportFile } from './import-file';
import { PopulationSummary, PopulationTable } from './population-rows';
import { TooLarge, TooManyRows } from './import-limits';
import { DownloadOptions, downloadSource } from './source-download';
import { isUrl, newAttempt } from './url-import.service';

/** The `sources` rows of population tables carry this dataset name. */
export const POPULATION_DATASET = 'population';

export type PopulationImport =
  | { kind: 'unchanged'; reason: string }
  | { kind: 'imported'; summary: PopulationSummary & PopulationWriteCounts };

/** Lines of invalid rows quoted in the error (the count says how many there were). */
const QUOTED_PROBLEMS = 10;

/**
 * Loads a population table (Our World in Data's layout) from a file or an http(s) URL into the
 * `population` table: matched to countries as it is read, then written in one transaction or not
 * at all (any unreadable row, or a file past `IMPORT_MAX_BYTES` or `IMPORT_MAX_ROWS`, refuses it). A URL is downloaded conditionally like the records'
 * sources, and every attempt is recorded in `sources` (dataset `population`).
 */
@Injectable()
export class PopulationImportService {
  constructor(
    private readonly population: PopulationRepository,
    private readonly sources: SourceRepository,
    @InjectConfig() private readonly config: AppConfig,
    @InjectDisease(RecordWriter, 'covid') private readonly covid: RecordWriter,
    @InjectDisease(RecordWriter, 'mpox') private readonly mpox: RecordWriter,
  ) {}

  async run(
    target: string,
    download: DownloadOptions,
    signal?: AbortSignal,
  ): Promise<PopulationImport> {
    const url = isUrl(target) ? target : pathToFileURL(resolve(target)).href;
    const previous = await this.sources.find(POPULATION_DATASET, url);
    const attempt = newAttempt(POPULATION_DATASET, url, previous);
    // Messages name the source as readers see it (`withSourceNames`, before any cut).
    const fail = async (message: string) => {
      await this.sources.save({ ...attempt, lastError: message });
      return new ImportError(message);
    };
    if (!isUrl(target)) {
      const result = await this.importFile(target, sourceName(target), signal);
      await this.sources.save(this.applied(attempt, result.summary, {}, null));
      return result;
    }
    let downloaded;
    try {
      downloaded = await downloadSource(target, { ...download, previous });
    } catch (error) {
      throw await fail(describeError(error, [target]));
    }
    if (downloaded.kind === 'not-modified') {
      await this.sources.save({ ...attempt, outcome: 'unchanged', lastSuccessAt: Date.now() });
      return { kind: 'unchanged', reason: 'not modified (HTTP 304)' };
    }
    try {
      if (previous && downloaded.hash === previous.contentHash) {
        await this.sources.save({
          ...attempt,
          ...downloaded.validators,
          outcome: 'unchanged',
          lastSuccessAt: Date.now(),
        });
        return { kind: 'unchanged', reason: 'same content as the last import' };
      }
      let result;
      try {
        // The table's source as any reader may see it: no credentials, query string or fragment.
        result = await this.importFile(downloaded.path, sourceName(target), signal);
      } catch (error) {
        const known = [{ text: downloaded.path, name: sourceName(target) }, target];
        throw await fail(describeError(error, known));
      }
      await this.sources.save(
        this.applied(attempt, result.summary, downloaded.validators, downloaded.hash),
      );
      return result;
    } finally {
      await downloaded.discard();
    }
  }

  private applied(
    attempt: ReturnType<typeof newAttempt>,
    summary: PopulationSummary & PopulationWriteCounts,
    validators: object,
    hash: string | null,
  ) {
    return {
      ...attempt,
      ...validators,
      contentHash: hash,
      outcome: 'updated' as const,
      rowsInserted: summary.inserted,
      rowsUpdated: summary.updated,
      rowsUnchanged: summary.unchanged,
      rowsSkipped: summary.rowsRead - summary.matched,
      lastSuccessAt: Date.now(),
      lastError: null,
    };
  }

  private async importFile(
    path: string,
    source: string,
    signal?: AbortSignal,
  ): Promise<{ kind: 'imported'; summary: PopulationSummary & PopulationWriteCounts }> {
    const file = await openImportFile(path);
    const table = new PopulationTable(source);
    const malformed: string[] = [];
    const { maxBytes, maxRows } = this.config.importLimits;
    try {
      const records = csvRecords(fileContent(file, maxBytes), (line, problem) =>
        malformed.push(`line ${line}: ${problem}`),
      );
      // Each row is matched as it is parsed: only the matched ones are kept, at most one per
      // country and year. The limits come before any write (the table is written at the end).
      for await (const record of records) {
        const problem = table.add(record);
        if (problem) throw new ImportError(`${path}: ${problem}`);
        if (table.summary.rowsRead + malformed.length > maxRows) {
          throw new TooManyRows(path, maxRows);
        }
        if (signal?.aborted) break;
      }
    } catch (error) {
      if (error instanceof ImportError) throw error;
      if (error instanceof TooLarge || error instanceof TooManyRows) {
        throw new ImportError(`${error.message}; nothing was imported`);
      }
      throw new ImportError(`cannot read ${path}: ${describeError(error)}`);
    } finally {
      await closeImportFile(file);
    }
    const stopped = interruptedBy(signal);
    if (stopped) {
      throw new ImportError(
        `interrupted by ${stopped}: nothing was imported`,
        'interrupted',
        stopped,
      );
    }
    const parsed = table.result();
    if ('problem' in parsed) throw new ImportError(`${path}: ${parsed.problem}`);
    const problems = [...malformed, ...parsed.summary.invalid];
    if (problems.length > 0) {
      throw new ImportError(
        `${path}: ${problems.length} invalid rows, nothing was imported: ` +
          problems.slice(0, QUOTED_PROBLEMS).join('; '),
      );
    }
    const counts = await this.population.upsert(parsed.rows);
    const wrote = counts.inserted + counts.updated > 0;
    // Per-million figures of both diseases depend on the table: made known as their writes are.
    if (wrote) {
      for (const writer of [this.covid, this.mpox]) await writer.written();
    }
    return { kind: 'imported', summary: { ...parsed.summary, ...counts } };
  }
}
