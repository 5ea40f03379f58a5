import { describeError } from '@app/common';
import { SyncSource } from '@app/config';
import {
  DEFAULT_DOWNLOAD,
  PopulationImportService,
  QUIET_PROGRESS,
  UrlImportService,
} from '@app/importer';
import { COVID_SERIES, MPOX_SERIES } from '@app/series';

/** How one source's import went in a sync run (its `sources` row holds the details). */
export interface SourceRun {
  dataset: SyncSource['dataset'];
  url: string;
  outcome: 'updated' | 'unchanged' | 'failed';
  /** Data rows read from the file (0 when it had not changed). */
  read: number;
  /** Records inserted or changed (none when the import failed: a file applies whole or not at all). */
  written: number;
  /** Stored figures the import corrected (docs/corrections.md); 0 unless it was applied. */
  corrected: number;
  error?: string;
}

const SERIES = { covid: COVID_SERIES, mpox: MPOX_SERIES };

/**
 * Imports each source in turn, exactly as `import <dataset> <url>` does (`population`: `import population <url>`) (conditional download,
 * whole-file checks, the `sources` row written after every attempt). One failing source does not
 * stop the others; once `signal` is aborted, the import under way stops and writes nothing.
 */
/** The importers a sync runs: the records' and the population table's. */
export interface SyncImporters {
  records: UrlImportService;
  population: PopulationImportService;
}

export async function runSources(
  importers: SyncImporters,
  sources: SyncSource[],
  signal: AbortSignal,
): Promise<SourceRun[]> {
  const runs: SourceRun[] = [];
  for (const { dataset, url } of sources) {
    if (signal.aborted) break;
    try {
      if (dataset === 'population') {
        const result = await importers.population.run(url, DEFAULT_DOWNLOAD, signal);
        runs.push(
          result.kind === 'unchanged'
            ? { dataset, url, outcome: 'unchanged', read: 0, written: 0, corrected: 0 }
            : {
                dataset,
                url,
                outcome: 'updated',
                read: result.summary.rowsRead,
                written: result.summary.inserted + result.summary.updated,
                corrected: 0,
              },
        );
        continue;
      }
      const result = await importers.records.run(
        SERIES[dataset],
        url,
        DEFAULT_DOWNLOAD,
        QUIET_PROGRESS,
        signal,
        'sync',
      );
      if (result.kind === 'unchanged') {
        runs.push({ dataset, url, outcome: 'unchanged', read: 0, written: 0, corrected: 0 });
        continue;
      }
      const { summary } = result;
      const stopped =
        summary.failure ?? (summary.interrupted && `interrupted by ${summary.interrupted}`);
      runs.push({
        dataset,
        url,
        outcome: stopped ? 'failed' : 'updated',
        read: summary.rowsRead,
        written: stopped ? 0 : summary.inserted + summary.updated,
        corrected: stopped ? 0 : (summary.corrected ?? 0),
        ...(stopped && { error: stopped }),
      });
    } catch (error) {
      runs.push({
        dataset,
        url,
        outcome: 'failed',
        read: 0,
        written: 0,
        corrected: 0,
        // Any error may quote the URL (a database's duplicate key too): named before it is cut.
        error: describeError(error, [url]),
      });
    }
  }
  return runs;
}
