import { sourceName, withSourceNames } from '@app/common';
import { SyncConfig } from '@app/config';
import { SourceState } from '@app/database';

export interface SourceStatus {
  dataset: string;
  /** The URL without credentials, query string or fragment (`sourceName`): those stay in the config. */
  url: string;
  /** Listed in `SYNC_SOURCES` (else imported by hand with `import <dataset> <url>`). */
  scheduled: boolean;
  last_attempt_at: string | null;
  last_success_at: string | null;
  /** `updated`, `unchanged` or `failed`; `null` before the first attempt. */
  outcome: string | null;
  rows_inserted: number;
  rows_updated: number;
  rows_unchanged: number;
  /** Rows left out on purpose (aggregates, rows without figures) by the last applied import. */
  rows_skipped: number;
  /** Stored figures the last applied import corrected (docs/corrections.md). */
  figures_corrected: number;
  /** The last applied import's id: its revisions carry it (`request_id` in the history). */
  last_import_id: string | null;
  last_error: string | null;
  next_run_at: string | null;
}

export interface SourcesReport {
  sync: {
    enabled: boolean;
    interval: string | null;
    interval_seconds: number | null;
    running: boolean;
    next_run_at: string | null;
  };
  sources: SourceStatus[];
}

const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

/**
 * Every source known (rows of the `sources` table, and scheduled ones not attempted yet), ordered
 * by dataset then URL: what `/api/sources` answers and `cli sources` prints.
 */
export function sourcesReport(
  states: SourceState[],
  config: SyncConfig | undefined,
  nextRunAt: number | undefined,
  running: boolean,
): SourcesReport {
  const next = iso(nextRunAt);
  const scheduled = (s: { dataset: string; url: string }) =>
    config?.sources.some((c) => c.dataset === s.dataset && c.url === s.url) ?? false;
  const listed: SourceStatus[] = states.map((state) => toStatus(state, scheduled(state), next));
  for (const source of config?.sources ?? []) {
    if (!states.some((s) => s.dataset === source.dataset && s.url === source.url)) {
      listed.push(neverAttempted(source.dataset, source.url, next));
    }
  }
  listed.sort((a, b) => a.dataset.localeCompare(b.dataset) || a.url.localeCompare(b.url));
  return {
    sync: {
      enabled: config !== undefined,
      interval: config?.interval ?? null,
      interval_seconds: config ? config.intervalMs / 1000 : null,
      running,
      next_run_at: next,
    },
    sources: listed,
  };
}

function toStatus(state: SourceState, scheduled: boolean, next: string | null): SourceStatus {
  return {
    dataset: state.dataset,
    url: sourceName(state.url),
    scheduled,
    last_attempt_at: iso(state.lastAttemptAt),
    last_success_at: iso(state.lastSuccessAt),
    outcome: state.outcome,
    rows_inserted: state.rowsInserted,
    rows_updated: state.rowsUpdated,
    rows_unchanged: state.rowsUnchanged,
    rows_skipped: state.rowsSkipped,
    figures_corrected: state.figuresCorrected ?? 0,
    last_import_id: state.lastImportId,
    // Errors are saved named (`withSourceNames`); one kept from before is named on its way out.
    last_error: state.lastError === null ? null : withSourceNames(state.lastError, [state.url]),
    next_run_at: scheduled ? next : null,
  };
}

function neverAttempted(dataset: string, url: string, next: string | null): SourceStatus {
  return {
    dataset,
    url: sourceName(url),
    scheduled: true,
    last_attempt_at: null,
    last_success_at: null,
    outcome: null,
    rows_inserted: 0,
    rows_updated: 0,
    rows_unchanged: 0,
    rows_skipped: 0,
    figures_corrected: 0,
    last_import_id: null,
    last_error: null,
    next_run_at: next,
  };
}
