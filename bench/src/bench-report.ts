import { cpus, totalmem, type, release } from 'node:os';
import { AsOfResult, formatAsOf } from './as-of-run';
import { CliHelpStats } from './cli-help-run';
import { ImportResult } from './bench-database';
import { DumpStats, GzipDumpStats, MAX_GZIP_TIME_RATIO, MIN_GZIP_SIZE_RATIO } from './dump-run';
import { FairnessStats } from './fairness-run';
import { RestateStats } from './restate-run';
import { RevisedFileStats } from './revised-run';
import { SyncReadStats, WriteLatencies } from './sync-run';
import { CursorPagesStats, formatCursorPages } from './cursor-run';
import { SeriesStats, formatSeries } from './series-run';
import { formatCorrections } from './corrections-run';
import { formatVintages } from './vintages-run';
import { FeedPageStats, formatFeedPage } from './feed-run';
import { RecordHistoryStats, formatRecordHistory } from './history-run';
import { LoadStats } from './load-run';
import { YearOfSyncsStats } from './year-run';
import { formatYearOfSyncs } from './year-report';
import { markdownTable } from './markdown-table';

export interface RouteResult {
  name: string;
  method: string;
  path: string;
  api: LoadStats;
  baseline: LoadStats;
  /**
   * API requests/s divided by the baseline's, each summed over the rounds (`api` and `baseline`
   * are the sums; older results, whose load figures have no `seconds`, hold the median round).
   */
  ratio: number;
  /** The ratio of every round, in the order run. */
  ratios: number[];
  minRatio: number;
  maxP99Ms?: number;
  met: boolean;
}

export interface BenchResult {
  date: string;
  db: string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; os: string; node: string };
  options: {
    apiEnv: Record<string, string>;
    apiMain: string;
    /** Node's flags the API ran with (since the tenth round; absent before: none). */
    apiNodeFlags?: string[];
    /** The API's command line, read from /proc once it answered (since the tenth round). */
    apiCommandLine?: string[];
    connections: number;
    duration: number;
    warmup: number;
    dumpRuns: number;
    rounds?: number;
  };
  imports: ImportResult[];
  routes: RouteResult[];
  /** Small reads while full dumps stream (since the fairness issue; absent before). */
  fairness?: FairnessStats[];
  /** Reads as of an instant (since the history's `as_of`; absent before). */
  asOf?: AsOfResult;
  /** Small reads while the scheduled sync imports the COVID file (since the sync issue). */
  syncReads?: SyncReadStats;
  /** Writes while a source restates its whole series (since the history issue; absent before). */
  restate?: RestateStats;
  /** A source revising 1% of its rows over the loaded store (section "revised file"). */
  revisedFile?: RevisedFileStats;
  /** The reads after a year of revised imports beside the fresh store's (issue 51). */
  yearOfSyncs?: YearOfSyncsStats;
  /** The last page of the change feed (since the change feed issue). */
  feedPage?: FeedPageStats;
  /** One record's history (since the history issue; absent before). */
  recordHistory?: RecordHistoryStats;
  /** Cursor pages of the list, shallow and deep (since the list formats issue; absent before). */
  cursorPages?: CursorPagesStats;
  /** `GET /api/covid/series` (issue 44). */
  series?: SeriesStats;
  /** `covid-cli --help` on the built checkout (issue 52; absent before). */
  cliHelp?: CliHelpStats;
  create: { api: LoadStats; baseline: LoadStats; minCreatedPerSecond?: number; met?: boolean };
  dump: {
    runs: DumpStats[];
    baseline: DumpStats;
    bestSeconds: number;
    maxRssGrowthMb: number;
    met: boolean;
  };
  /** The same full dump with `Accept-Encoding: gzip` (since compression; absent before). */
  gzipDump?: GzipDumpStats;
  /** The same full dump as CSV, same targets (since the list formats issue; absent before). */
  csvDump?: {
    runs: DumpStats[];
    bestSeconds: number;
    maxRssGrowthMb: number;
    met: boolean;
  };
}

export function machine(): BenchResult['machine'] {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    os: `${type()} ${release()}`,
    node: process.version,
  };
}

const num = (value: number, digits = 0): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The one table of a run, in Markdown (pasted as is in docs/performance.md). */
export function formatResult(result: BenchResult): string {
  const header = [
    'route',
    'API req/s',
    'p50 ms',
    'p99 ms',
    'CPU µs/req',
    'baseline req/s',
    'p50 ms',
    'p99 ms',
    'CPU µs/req',
    'API/baseline',
    'target',
  ];
  const loadRow = (
    name: string,
    api: LoadStats,
    baseline: LoadStats,
    ratio: string,
    target: string,
  ): string[] => [
    name,
    num(api.requestsPerSecond),
    num(api.p50Ms),
    num(api.p99Ms),
    num(api.cpuUsPerRequest),
    num(baseline.requestsPerSecond),
    num(baseline.p50Ms),
    num(baseline.p99Ms),
    num(baseline.cpuUsPerRequest),
    ratio,
    target,
  ];
  const rows = [
    header,
    ...result.routes.map((r) =>
      loadRow(
        `${r.method} ${r.name}`,
        r.api,
        r.baseline,
        (r.ratios?.length ?? 1) > 1
          ? `${num(r.ratio * 100)} % (${num(Math.min(...r.ratios) * 100)} to ${num(Math.max(...r.ratios) * 100)})`
          : `${num(r.ratio * 100)} %`,
        `${r.met ? 'met' : 'MISSED'} (>= ${num(r.minRatio * 100)} %${r.maxP99Ms ? `, p99 < ${r.maxP99Ms} ms` : ''})`,
      ),
    ),
    loadRow(
      'POST covid data (created/s)',
      { ...result.create.api, requestsPerSecond: result.create.api.okPerSecond },
      result.create.baseline,
      `${num((result.create.api.okPerSecond / result.create.baseline.requestsPerSecond) * 100)} %`,
      result.create.met === undefined
        ? '(MariaDB only)'
        : `${result.create.met ? 'met' : 'MISSED'} (>= ${num(result.create.minCreatedPerSecond ?? 0)}/s)`,
    ),
  ];
  const imports = result.imports
    .map(
      (i) =>
        `${i.file.split('/').pop()}: ${num(i.rows)} rows in ${num(i.seconds, 1)} s = ${num(i.rowsPerSecond)} rows/s`,
    )
    .join('; ');
  const dump = result.dump;
  const first = dump.runs[0];
  return [
    `## ${result.db} — ${result.date} — ${result.machine.cpus} x ${result.machine.cpuModel}, Node ${result.machine.node}`,
    `${result.options.connections} connections, ${result.options.duration} s per route (warm-up ${result.options.warmup} s)` +
      ((result.options.rounds ?? 1) > 1
        ? ` and round: ${result.options.rounds} rounds (API then baseline each), requests summed over the rounds ` +
          `(p50 the median round's, p99 the worst round's; the range of single rounds' ratios in brackets); POST one run of ` +
          `${(result.options.rounds ?? 1) * result.options.duration} s per server`
        : '') +
      Object.entries(result.options.apiEnv)
        .map(([name, value]) => `, ${name}=${value}`)
        .join('') +
      `; API started as node ${[...(result.options.apiNodeFlags ?? []), '<main.js>'].join(' ')}`,
    '',
    markdownTable(rows),
    '',
    `Import: ${imports}`,
    `Full dump (${num(first?.rows ?? 0)} rows, ${num((first?.bytes ?? 0) / 1024 ** 2, 1)} MB): best ${num(dump.bestSeconds, 2)} s over ${dump.runs.length} run(s) ` +
      `(baseline ${num(dump.baseline.seconds, 2)} s), server RSS growth max ${num(dump.maxRssGrowthMb, 1)} MB — ` +
      `${dump.met ? 'met' : 'MISSED'} (< 3 s, < 64 MB)`,
    ...(result.gzipDump
      ? [
          `Full dump with Accept-Encoding: gzip (${num((result.gzipDump.runs[0]?.bytes ?? 0) / 1024 ** 2, 1)} MB on the wire): ` +
            `best ${num(result.gzipDump.bestSeconds, 2)} s over ${result.gzipDump.runs.length} run(s), ` +
            `${num(result.gzipDump.sizeRatio, 1)}x smaller in ${num(result.gzipDump.timeRatio, 2)}x the time as it is — ` +
            `${result.gzipDump.met ? 'met' : 'MISSED'} (>= ${MIN_GZIP_SIZE_RATIO}x smaller, <= ${MAX_GZIP_TIME_RATIO}x the time)`,
        ]
      : []),
    ...(result.csvDump
      ? [
          `Full dump as CSV (${num(result.csvDump.runs[0]?.rows ?? 0)} rows, ${num((result.csvDump.runs[0]?.bytes ?? 0) / 1024 ** 2, 1)} MB): ` +
            `best ${num(result.csvDump.bestSeconds, 2)} s over ${result.csvDump.runs.length} run(s), server RSS growth max ` +
            `${num(result.csvDump.maxRssGrowthMb, 1)} MB — ${result.csvDump.met ? 'met' : 'MISSED'} (< 3 s, < 64 MB)`,
        ]
      : []),
    ...(result.asOf ? [formatAsOf(result.asOf)] : []),
    ...(result.cursorPages ? formatCursorPages(result.cursorPages) : []),
    ...(result.series ? formatSeries(result.series) : []),
    ...(result.fairness ?? []).map(
      (f) =>
        `Fairness, ${f.dumps} full ${f.format === 'csv' ? 'CSV ' : ''}dumps at once: ${num(f.reads)} small reads at ${f.readsPerSecond}/s, ` +
        `p50 ${num(f.p50Ms, 1)} ms, p99 ${num(f.p99Ms, 1)} ms, max ${num(f.maxMs, 1)} ms, ${f.failedReads} failed ` +
        `(${f.dumpsCompleted} dumps completed) — ${f.met ? 'met' : 'MISSED'} (p99 < ${f.maxP99Ms} ms, max < ${f.maxMaxMs} ms)`,
    ),
    ...(result.syncReads
      ? [
          `Reads during a scheduled sync (${num(result.syncReads.rows)} rows inserted in ${num(result.syncReads.syncSeconds, 1)} s): ` +
            `${num(result.syncReads.reads)} small reads at ${result.syncReads.readsPerSecond}/s, p50 ${num(result.syncReads.p50Ms, 1)} ms, ` +
            `p99 ${num(result.syncReads.p99Ms, 1)} ms, max ${num(result.syncReads.maxMs, 1)} ms, ${result.syncReads.failedReads} failed — ` +
            `${result.syncReads.met ? 'met' : 'MISSED'} (p99 < ${result.syncReads.maxP99Ms} ms)`,
          ...(result.syncReads.writes ? [formatSyncWrites(result.syncReads.writes)] : []),
        ]
      : []),
    ...(result.restate ? [formatRestate(result.restate)] : []),
    ...(result.revisedFile ? [formatRevisedFile(result.revisedFile)] : []),
    ...(result.revisedFile?.corrections ? [formatCorrections(result.revisedFile.corrections)] : []),
    ...(result.revisedFile?.vintages ? formatVintages(result.revisedFile.vintages) : []),
    ...(result.recordHistory ? [formatRecordHistory(result.recordHistory)] : []),
    ...(result.feedPage ? [formatFeedPage(result.feedPage)] : []),
    ...(result.yearOfSyncs ? formatYearOfSyncs(result.yearOfSyncs) : []),
    ...(result.cliHelp ? [formatCliHelp(result.cliHelp)] : []),
  ].join('\n');
}

function formatCliHelp(c: CliHelpStats): string {
  return (
    `Command line: covid-cli --help (bin/covid-cli.js on the built checkout) in ${num(c.medianSeconds, 2)} s ` +
    `median, ${num(c.maxSeconds, 2)} s max over ${c.runs.length} runs — ` +
    `${c.met ? 'met' : 'MISSED'} (median < ${c.maxMedianSeconds} s)`
  );
}

function formatRestate({ restate, writes: w }: RestateStats): string {
  return (
    `Writes during an import restating the COVID file over the loaded store (${num(restate.updated)} ` +
    `records updated in ${num(restate.seconds, 1)} s): ${num(w.writes)} POSTs at ${w.writesPerSecond}/s, ` +
    `p50 ${num(w.p50Ms, 1)} ms, p99 ${num(w.p99Ms, 1)} ms, max ${num(w.maxMs, 1)} ms, ${w.unavailable} answered 503, ` +
    `${w.failed} failed — ${w.met ? 'met' : 'MISSED'} (p99 < ${w.maxP99Ms} ms, no 503)`
  );
}

function formatRevisedFile(r: RevisedFileStats): string {
  const w = r.writes;
  return (
    `Revised file: the COVID file with 1% of its rows revised (${num(r.revisedRows)} scattered), imported ` +
    `over the loaded store in ${num(r.revise.seconds, 1)} s (first load: ${num(r.firstLoad.seconds, 1)} s), ` +
    `${num(r.revise.updated)} updated, ${num(r.verified)} read back revised and in the history; ` +
    `${num(w.writes)} POSTs at ${w.writesPerSecond}/s meanwhile, p50 ${num(w.p50Ms, 1)} ms, p99 ${num(w.p99Ms, 1)} ms, ` +
    `max ${num(w.maxMs, 1)} ms, ${w.unavailable} answered 503, ${w.failed} failed — ` +
    `${w.met && r.verified === r.revisedRows ? 'met' : 'MISSED'} (every revised record updated, p99 < ${w.maxP99Ms} ms, no 503)`
  );
}

function formatSyncWrites(w: WriteLatencies): string {
  return (
    `Writes during another sync: ${num(w.writes)} POSTs at ${w.writesPerSecond}/s, p50 ${num(w.p50Ms, 1)} ms, ` +
    `p99 ${num(w.p99Ms, 1)} ms, max ${num(w.maxMs, 1)} ms, ${w.unavailable} answered 503, ${w.failed} failed — ` +
    `${w.met ? 'met' : 'MISSED'} (p99 < ${w.maxP99Ms} ms, no 503)`
  );
}
