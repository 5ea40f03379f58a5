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
import { markdownTable } from './markdown-table';
import { ServerProcess } from './server-process';

/** The targets of issue 51 for a store after a year of syncs. */
export const YEAR_TARGETS = {
  /** Each read's p50 after the imports, at most this many times the fresh store's. */
  maxP50Ratio: 1.5,
  worldP99Ms: 100,
  correctionsP99Ms: 25,
  /** The last import's time, at most this many times the first's. */
  maxImportRatio: 1.5,
};

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
  /** The last revised copy's import time over the first's. */
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

/** The imports' verdict: each updated exactly the rows its copy revised, the last not slower. */
export function judgeImports(imports: YearImport[]): { importRatio: number; importsMet: boolean } {
  const first = imports[0];
  const last = imports[imports.length - 1];
  const importRatio = first && last ? last.seconds / first.seconds : NaN;
  return {
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
      const { importRatio, importsMet } = judgeImports(imports);
      return {
        copies,
        readsPerRoute: reads,
        share: REVISED_SHARE,
        firstLoad,
        asOf,
        historyOf,
        reads: measured,
        imports,
        importRatio,
        importsMet,
        targets: YEAR_TARGETS,
        met: importsMet && measured.every((r) => r.met),
      };
    } finally {
      await api.stop();
    }
  });
}

const ms = (value: number) => value.toFixed(1);

function targetText({ maxP50Ratio, maxP99Ms }: YearTarget): string {
  return [
    ...(maxP50Ratio === undefined ? [] : [`p50 <= ${maxP50Ratio}x fresh`]),
    ...(maxP99Ms === undefined ? [] : [`p99 < ${maxP99Ms} ms`]),
  ].join(', ');
}

/** The section's lines of the bench's Markdown report: a table of the reads, the imports' line. */
export function formatYearOfSyncs(stats: YearOfSyncsStats): string[] {
  const rows = [
    [
      'read (read cache off)',
      'fresh: first ms',
      'p50',
      'p99',
      `after ${stats.copies}: first ms`,
      'p50',
      'p99',
      'p50 after/fresh',
      'target',
      'result',
    ],
    ...stats.reads.map((r) => [
      r.name,
      ms(r.first.fresh),
      ms(r.fresh.p50Ms),
      ms(r.fresh.p99Ms),
      ms(r.first.after),
      ms(r.after.p50Ms),
      ms(r.after.p99Ms),
      `${r.p50Ratio.toFixed(2)}x`,
      targetText(r.target),
      r.met ? 'met' : 'MISSED',
    ]),
  ];
  const first = stats.imports[0];
  const last = stats.imports[stats.imports.length - 1];
  const failed = stats.reads.reduce((n, r) => n + r.fresh.failedReads + r.after.failedReads, 0);
  const updated = stats.imports.filter((i) => i.updated === i.revisedRows).length;
  return [
    '',
    `A year of syncs: the COVID file (first load ${ms(stats.firstLoad.seconds)} s), then ` +
      `${stats.copies} revised copies imported (${stats.share * 100}% of the rows each, scattered, ` +
      `another share each time); ${stats.readsPerRoute} reads per read and store, one at a time ` +
      `(${failed} failed); as_of ${stats.asOf}, the history of record ${stats.historyOf.id} ` +
      `(${stats.historyOf.country}, ${stats.historyOf.date})`,
    '',
    markdownTable(rows),
    '',
    `A year of syncs, imports: first ${ms(first?.seconds ?? 0)} s, last ${ms(last?.seconds ?? 0)} s, ` +
      `last/first ${stats.importRatio.toFixed(2)}x; ${updated} of ${stats.imports.length} updated ` +
      `exactly their revised rows — ${stats.importsMet ? 'met' : 'MISSED'} ` +
      `(every revised row updated, last <= ${stats.targets.maxImportRatio}x first)`,
  ];
}

/** The reads the section times, by name (the country's replaced by `<country>`). */
const READ_NAMES = [
  'series <country>',
  'series World',
  'public weekly',
  'corrections, a page',
  'corrections of <country>',
  'data <country> as_of',
  'history of a revised record',
  'change feed, last page',
];

/**
 * What is wrong with the section's results, for `check-results` (CI): present, every read
 * measured on both stores without a failed read, every copy imported and updating exactly the
 * rows it revised, the verdicts consistent with the figures. Asserts no speed.
 */
export function yearOfSyncsProblems(stats: YearOfSyncsStats | undefined): string[] {
  if (stats === undefined) return ['the section "a year of syncs"'];
  const problems: string[] = [];
  const expect = (ok: boolean, what: string): void => void (ok || problems.push(what));
  const positive = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n) && n > 0;
  const country = stats.historyOf.country;
  expect(
    JSON.stringify(stats.reads.map((r) => r.name.replace(country, '<country>'))) ===
      JSON.stringify(READ_NAMES),
    'a year of syncs: the eight reads, in order',
  );
  for (const r of stats.reads) {
    for (const [store, l] of [
      ['fresh', r.fresh],
      ['after', r.after],
    ] as const) {
      expect(
        l.reads === stats.readsPerRoute && l.failedReads === 0,
        `a year of syncs, ${r.name}: every read on the ${store} store answered`,
      );
      expect(
        positive(l.p50Ms) && l.p99Ms >= l.p50Ms && positive(r.first[store]),
        `a year of syncs, ${r.name}: ${store} latencies`,
      );
    }
    expect(
      Math.abs(r.p50Ratio - r.after.p50Ms / r.fresh.p50Ms) < 1e-9,
      `a year of syncs, ${r.name}: the ratio is the p50 after over the fresh one`,
    );
    const again = judgeRead(r.name, r.paths, r.first, r.target, r.fresh, r.after);
    expect(again.met === r.met, `a year of syncs, ${r.name}: the verdict follows the figures`);
  }
  expect(
    stats.firstLoad.rows > 0 && stats.firstLoad.inserted === stats.firstLoad.rows,
    'a year of syncs: the first load inserted the whole file',
  );
  expect(
    stats.copies > 0 && stats.imports.length === stats.copies,
    'a year of syncs: one import per revised copy',
  );
  expect(
    stats.imports.every(
      (i) => positive(i.seconds) && i.revisedRows > 0 && i.updated === i.revisedRows,
    ),
    'a year of syncs: each import updated exactly the rows its copy revised',
  );
  const imports = judgeImports(stats.imports);
  expect(
    positive(stats.importRatio) && Math.abs(imports.importRatio - stats.importRatio) < 1e-9,
    'a year of syncs: the imports ratio is the last over the first',
  );
  expect(
    imports.importsMet === stats.importsMet &&
      stats.met === (stats.importsMet && stats.reads.every((r) => r.met)),
    'a year of syncs: the verdicts follow the figures',
  );
  return problems;
}
