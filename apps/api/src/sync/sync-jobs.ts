import { describeError } from '@app/common';
import { SyncSource } from '@app/config';
import {
  DEFAULT_DOWNLOAD,
  PopulationImportService,
  QUIET_PROGRESS,
  UrlImportService,
} from '@app/importer';
import { COVID_DISEASE, MPOX_DISEASE } from '@app/diseases';

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

const DISEASES = { covid: COVID_DISEASE, mpox: MPOX_DISEASE };

/** The importers a sync runs: the records' and the population table's. */
export interface SyncImporters {
  records: UrlImportService;
  population: PopulationImportService;
}

/** Told as each source starts (its index) and ends (the sync worker passes them on). */
export interface SourceProgress {
  started(index: number): void;
  ended(run: SourceRun): void;
}

/**
 * Imports each source in turn, exactly as `import <dataset> <url>` does (`population`: `import population <url>`) (conditional download,
 * whole-file checks, the `sources` row written after every attempt). One failing source does not
 * stop the others; once `signal` is aborted, the import under way stops and writes nothing.
 */
export async function runSources(
  importers: SyncImporters,
  sources: SyncSource[],
  signal: AbortSignal,
  progress?: SourceProgress,
): Promise<SourceRun[]> {
  const runs: SourceRun[] = [];
  for (const [index, source] of sources.entries()) {
    if (signal.aborted) break;
    progress?.started(index);
    const run = await runSource(importers, source, signal);
    runs.push(run);
    progress?.ended(run);
  }
  return runs;
}

/** One source's import; never throws (a failure is its run's `error`). */
async function runSource(
  importers: SyncImporters,
  { dataset, url }: SyncSource,
  signal: AbortSignal,
): Promise<SourceRun> {
  try {
    if (dataset === 'population') {
      const result = await importers.population.run(url, DEFAULT_DOWNLOAD, signal);
      return result.kind === 'unchanged'
        ? { dataset, url, outcome: 'unchanged', read: 0, written: 0, corrected: 0 }
        : {
            dataset,
            url,
            outcome: 'updated',
            read: result.summary.rowsRead,
            written: result.summary.inserted + result.summary.updated,
            corrected: 0,
          };
    }
    const result = await importers.records.run(
      DISEASES[dataset],
      url,
      DEFAULT_DOWNLOAD,
      QUIET_PROGRESS,
      signal,
      'sync',
    );
    if (result.kind === 'unchanged') {
      return { dataset, url, outcome: 'unchanged', read: 0, written: 0, corrected: 0 };
    }
    const { summary } = result;
    const stopped =
      summary.failure ?? (summary.interrupted && `interrupted by ${summary.interrupted}`);
    return {
      dataset,
      url,
      outcome: stopped ? 'failed' : 'updated',
      read: summary.rowsRead,
      written: stopped ? 0 : summary.inserted + summary.updated,
      corrected: stopped ? 0 : (summary.corrected ?? 0),
      ...(stopped && { error: stopped }),
    };
  } catch (error) {
    // Any error may quote the URL (a database's duplicate key too): named before it is cut.
    return failedRun({ dataset, url }, describeError(error, [url]));
  }
}

/** A source that failed: nothing of it was written. */
export function failedRun({ dataset, url }: SyncSource, error: string): SourceRun {
  return { dataset, url, outcome: 'failed', read: 0, written: 0, corrected: 0, error };
}
