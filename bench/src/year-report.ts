/** The section "a year of syncs" in the bench's report, and its shape check for CI. */
import { markdownTable } from './markdown-table';
import { YearOfSyncsStats, YearTarget, judgeImports, judgeRead } from './year-run';

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
  const { count, first, last } = stats.importMedians;
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
    `A year of syncs, imports (median of ${count} at each end): first ${ms(first)} s, last ` +
      `${ms(last)} s, last/first ${stats.importRatio.toFixed(2)}x; ${updated} of ` +
      `${stats.imports.length} updated exactly their revised rows — ` +
      `${stats.importsMet ? 'met' : 'MISSED'} (every revised row updated, last <= ` +
      `${stats.targets.maxImportRatio}x first)`,
    '',
    `A year of syncs, each import in order (s): ${stats.imports.map((i) => i.seconds.toFixed(1)).join(' ')}`,
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
    'a year of syncs: the imports ratio is the median of the last over that of the first',
  );
  expect(
    imports.importsMet === stats.importsMet &&
      stats.met === (stats.importsMet && stats.reads.every((r) => r.met)),
    'a year of syncs: the verdicts follow the figures',
  );
  return problems;
}
