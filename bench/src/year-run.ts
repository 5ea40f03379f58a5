import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { REVISED_COPY_SEED, RevisedRow, writeRevisedCopy } from '../../test/support/revised-file';
import {
  BenchDb,
  ImportResult,
  importPopulation,
  importWithCli,
  withLoadedCovid,
} from './bench-database';
import { AUTH, apiEnvironment } from './bench-servers';
import { ReadLatencies } from './fairness-run';
import { lastFeedPage, latenciesOf, pacedReads } from './feed-run';
import { ServerProcess } from './server-process';

/** The targets of issue 51 for a store after a year of syncs. */
export const YEAR_TARGETS = {
  /** Each read's p50 after the imports, at most this many times the fresh store's. */
  maxP50Ratio: 1.5,
  worldP99Ms: 100,
  correctionsP99Ms: 25,
  /** The last imports' median time, at most this many times the first ones' (`IMPORT_ENDS`). */
  maxImportRatio: 1.5,
};

/**
 * Imports at each end of the run whose medians are compared (fewer when the run has fewer than
 * twice as many): one import alone is at the mercy of whatever else the machine runs then.
 */
export const IMPORT_ENDS = 3;

/** The share of the rows each revised copy revises, another share each time. */
const REVISED_SHARE = 0.01;

/** Sequential reads are spaced this much, so that one read's garbage is not the next one's wait. */
const READS_PER_SECOND = 10;

/** What a read of the section is held to: a p50 ratio, an absolute p99, or both. */
export interface YearTarget {
  maxP50Ratio?: number;
  maxP99Ms?: number;
}

/** One read measured on the fresh store and after the imports. */
export interface YearRead {
  name: string;
  /** The path read on each store (the feed's last page moves; the others are the same). */
  paths: { fresh: string; after: string };
  fresh: ReadLatencies;
  after: ReadLatencies;
  /**
   * Each store's first read, in ms: the one no memo helps (on SQLite the places' days are kept
   * until the next write, read cache off or not), also in the p99 of a few reads.
   */
  first: { fresh: number; after: number };
  /** The p50 after the imports over the fresh store's. */
  p50Ratio: number;
  target: YearTarget;
  met: boolean;
}

/** One revised copy imported by the CLI. */
export interface YearImport {
  seconds: number;
  updated: number;
  /** Rows the copy revised over the one before (each must be one record updated). */
  revisedRows: number;
}

/** The section "a year of syncs". */
export interface YearOfSyncsStats {
  /** Revised copies imported (`--year-imports`). */
  copies: number;
  /** Sequential reads per read and store (`--year-reads`). */
  readsPerRoute: number;
  share: number;
  /** The COVID file loaded into the empty store. */
  firstLoad: ImportResult;
  /** The instant of the `as_of` read: after the first load, before the first revised copy. */
  asOf: string;
  /** The revised record whose history is read. */
  historyOf: { id: number; country: string; date: string };
  reads: YearRead[];
  imports: YearImport[];
  /** The median times of the first and the last `count` imports (`IMPORT_ENDS`). */
  importMedians: { count: number; first: number; last: number };
  /** The last imports' median time over the first ones'. */
  importRatio: number;
  importsMet: boolean;
  targets: typeof YEAR_TARGETS;
  met: boolean;
}

/** A read's verdict: no failed read on either store, and every target it has kept. */
export function judgeRead(
  name: string,
  paths: YearRead['paths'],
  first: YearRead['first'],
  target: YearTarget,
  fresh: ReadLatencies,
  after: ReadLatencies,
): YearRead {
  const p50Ratio = after.p50Ms / fresh.p50Ms;
  const met =
    fresh.failedReads === 0 &&
    after.failedReads === 0 &&
    (target.maxP50Ratio === undefined || p50Ratio <= target.maxP50Ratio) &&
    (target.maxP99Ms === undefined || after.p99Ms < target.maxP99Ms);
  return { name, paths, fresh, after, first, p50Ratio, target, met };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The imports' verdict: each updated exactly the rows its copy revised, the last ones not slower
 * than the first ones (medians of `IMPORT_ENDS` at each end).
 */
export function judgeImports(
  imports: YearImport[],
): Pick<YearOfSyncsStats, 'importMedians' | 'importRatio' | 'importsMet'> {
  const seconds = imports.map((i) => i.seconds);
  const count = Math.max(1, Math.min(IMPORT_ENDS, Math.floor(seconds.length / 2)));
  const importMedians = {
    count,
    first: median(seconds.slice(0, count)),
    last: median(seconds.slice(-count)),
  };
  const importRatio = importMedians.last / importMedians.first;
  return {
    importMedians,
    importRatio,
    importsMet:
      imports.length > 0 &&
      imports.every((i) => i.revisedRows > 0 && i.updated === i.revisedRows) &&
      importRatio <= YEAR_TARGETS.maxImportRatio,
  };
}

interface YearRoute {
  name: string;
  /** The path, on the store as it is (the feed's last page is looked up). */
  path: (apiUrl: string) => Promise<string>;
  target: YearTarget;
}

const fixed = (path: string) => () => Promise.resolve(path);

/**
 * The reads of the section: each computed at each request, the read cache being off; corrections
 * are held to their absolute target only (the fresh store has none to list: decision 0040).
 */
function yearRoutes(country: string, asOf: string, recordId: number): YearRoute[] {
  const c = encodeURIComponent(country);
  const ratio = { maxP50Ratio: YEAR_TARGETS.maxP50Ratio };
  return [
    { name: `series ${country}`, path: fixed(`/api/covid/series?country=${c}`), target: ratio },
    {
      name: 'series World',
      path: fixed('/api/covid/series?country=World'),
      target: { ...ratio, maxP99Ms: YEAR_TARGETS.worldP99Ms },
    },
    { name: 'public weekly', path: fixed('/api/covid/public/weekly'), target: ratio },
    {
      name: 'corrections, a page',
      path: fixed('/api/covid/corrections?limit=100'),
      target: { maxP99Ms: YEAR_TARGETS.correctionsP99Ms },
    },
    {
      name: `corrections of ${country}`,
      path: fixed(`/api/covid/corrections?country=${c}&limit=100`),
      target: { maxP99Ms: YEAR_TARGETS.correctionsP99Ms },
    },
    {
      name: `data ${country} as_of`,
      path: fixed(`/api/covid/data?country=${c}&as_of=${encodeURIComponent(asOf)}`),
      target: ratio,
    },
    {
      name: 'history of a revised record',
      path: fixed(`/api/covid/data/${recordId}/history`),
      target: ratio,
    },
    {
      name: 'change feed, last page',
      path: async (apiUrl) => (await lastFeedPage(apiUrl, AUTH)).path,
      target: ratio,
    },
  ];
}

/** Each route read `reads` times, one request at a time, the routes in turn. */
async function readRoutes(
  apiUrl: string,
  routes: YearRoute[],
  reads: number,
): Promise<{ path: string; first: number; latencies: ReadLatencies }[]> {
  const measured = [];
  for (const route of routes) {
    const path = await route.path(apiUrl);
    const done = await pacedReads(() => apiUrl + path, AUTH, {
      seconds: reads / READS_PER_SECOND,
      readsPerSecond: READS_PER_SECOND,
    });
    measured.push({ path, first: done[0].ms, latencies: latenciesOf(done, READS_PER_SECOND) });
  }
  return measured;
}

/**
 * The record the first revised copy revises, of `country` when it revises one there: its history
 * grows with the imports that revise it again.
 */
async function revisedRecord(
  apiUrl: string,
  revised: RevisedRow[],
  country: string,
): Promise<YearOfSyncsStats['historyOf']> {
  const row = revised.find((r) => r.country === country) ?? revised[0];
  if (row === undefined) throw new Error('the first revised copy revised no row');
  const query = `country=${encodeURIComponent(row.country)}&from=${row.date}&to=${row.date}&limit=1`;
  const res = await fetch(`${apiUrl}/api/covid/data?${query}`, { headers: AUTH });
  if (res.status !== 200) throw new Error(`GET /api/covid/data?${query}: ${res.status}`);
  const [record] = (await res.json()) as { id: number }[];
  if (record === undefined) throw new Error(`no record of ${row.country} on ${row.date}`);
  return { id: record.id, country: row.country, date: row.date };
}

/**
 * The section "a year of syncs" (issue 51), on a database of its own: the COVID file loaded by
 * the admin CLI, the API started with the read cache off, every read timed `reads` times on the
 * fresh store; then `copies` revised copies imported by the CLI, each revising 1% of the rows
 * (scattered, another 1% each time) of the one before, as a source revising its series week after
 * week; then the same reads again, side by side with the fresh store's, and each import's time.
 */
export async function runYearOfSyncs(
  db: BenchDb,
  port: number,
  apiMain: string,
  { copies, reads, country }: { copies: number; reads: number; country: string },
  log: (message: string) => void,
): Promise<YearOfSyncsStats> {
  return withLoadedCovid(db, async ({ database, env, dir, original, firstLoad }) => {
    await importPopulation(env);
    const asOf = new Date().toISOString();
    // The first copy is written before the fresh reads: the record whose history is read is one
    // it revises.
    let copy = join(dir, 'covid-revised-1.csv.gz');
    let revised = writeRevisedCopy(original, copy, REVISED_SHARE, REVISED_COPY_SEED + 1);
    const api = ServerProcess.start(
      'API (year of syncs)',
      apiMain,
      port,
      apiEnvironment(database.config, port, { CACHE_TTL_MS: '0' }),
    );
    try {
      await api.ready('/api/health');
      const historyOf = await revisedRecord(api.url, revised, country);
      const routes = yearRoutes(country, asOf, historyOf.id);
      log(`a year of syncs: ${routes.length} reads on the fresh store, ${reads} each`);
      const fresh = await readRoutes(api.url, routes, reads);
      const imports: YearImport[] = [];
      for (let n = 1; n <= copies; n++) {
        if (n > 1) {
          const next = join(dir, `covid-revised-${n}.csv.gz`);
          revised = writeRevisedCopy(copy, next, REVISED_SHARE, REVISED_COPY_SEED + n);
          rmSync(copy);
          copy = next;
        }
        const result = await importWithCli('covid', copy, env);
        imports.push({
          seconds: result.seconds,
          updated: result.updated,
          revisedRows: revised.length,
        });
        if (n === 1 || n === copies || n % 10 === 0)
          log(`a year of syncs: revised copy ${n} of ${copies} in ${result.seconds.toFixed(1)} s`);
      }
      log(`a year of syncs: the same reads after ${copies} imports`);
      const after = await readRoutes(api.url, routes, reads);
      const measured = routes.map((route, i) =>
        judgeRead(
          route.name,
          { fresh: fresh[i].path, after: after[i].path },
          { fresh: fresh[i].first, after: after[i].first },
          route.target,
          fresh[i].latencies,
          after[i].latencies,
        ),
      );
      const verdict = judgeImports(imports);
      return {
        copies,
        readsPerRoute: reads,
        share: REVISED_SHARE,
        firstLoad,
        asOf,
        historyOf,
        reads: measured,
        imports,
        ...verdict,
        targets: YEAR_TARGETS,
        met: verdict.importsMet && measured.every((r) => r.met),
      };
    } finally {
      await api.stop();
    }
  });
}
