import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BenchResult } from './bench-report';
import { DATA_ROWS } from './bench-database';
import { productionStartCommand } from './start-command';
import { yearOfSyncsProblems } from './year-report';

/**
 * Checks that a bench run wrote well-formed results (used by CI after a short run): the API ran as
 * `npm run start:prod` (its command line, read from /proc), every route measured on both servers
 * with no failed request, the dump complete. Asserts no speed.
 * `node check-results.js <dir> <db>...`
 */
function check(result: BenchResult): string[] {
  const problems: string[] = [];
  const expect = (ok: boolean, what: string): void => void (ok || problems.push(what));
  const positive = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n) && n > 0;
  // The process as the kernel ran it: node, then exactly start:prod's flags and entry.
  const production = productionStartCommand();
  expect(
    JSON.stringify(result.options.apiCommandLine?.slice(1)) ===
      JSON.stringify([...production.nodeFlags, production.main]),
    'the API ran as npm run start:prod (its Node flags, then its entry)',
  );
  expect(result.routes.length === 5, 'five read routes');
  for (const route of result.routes) {
    for (const [server, stats] of [
      ['API', route.api],
      ['baseline', route.baseline],
    ] as const) {
      expect(positive(stats.requestsPerSecond), `${route.path}: ${server} requests/s`);
      expect(stats.non2xx === 0 && stats.errors === 0, `${route.path}: ${server} failed requests`);
      expect(Number.isFinite(stats.p50Ms) && stats.p99Ms >= stats.p50Ms, `${route.path}: latency`);
      expect(positive(stats.cpuUsPerRequest), `${route.path}: ${server} CPU per request`);
    }
    expect(positive(route.ratio), `${route.path}: ratio`);
    expect(
      route.ratios.length === (result.options.rounds ?? 1) && route.ratios.every(positive),
      `${route.path}: one ratio per round`,
    );
    // The ratio of the sums is a weighted mean of the rounds' ratios (equal durations).
    expect(
      route.ratio >= Math.min(...route.ratios) * 0.99 &&
        route.ratio <= Math.max(...route.ratios) * 1.01,
      `${route.path}: the ratio lies within the rounds' ratios`,
    );
    expect(
      Math.abs(route.ratio - route.api.requestsPerSecond / route.baseline.requestsPerSecond) < 1e-9,
      `${route.path}: the ratio is the API's requests/s over the baseline's`,
    );
  }
  expect(positive(result.create.api.okPerSecond), 'POST created/s');
  expect(result.create.api.non2xx === 0, 'POST: every request created a record');
  const imported = result.imports.map((i) => i.rows);
  expect(
    JSON.stringify(imported) === JSON.stringify([DATA_ROWS.covid, DATA_ROWS.mpox]),
    'rows imported',
  );
  expect(
    result.imports.every((i) => positive(i.rowsPerSecond)),
    'import rate',
  );
  for (const dump of [...result.dump.runs, result.dump.baseline]) {
    expect(dump.status === 200 && dump.rows === DATA_ROWS.covid, 'full dump: every row');
  }
  expect(positive(result.dump.bestSeconds), 'full dump time');
  expect(Number.isFinite(result.dump.maxRssGrowthMb), 'full dump memory');
  const gzip = result.gzipDump;
  expect(gzip !== undefined && gzip.runs.length > 0, 'gzip full dump');
  for (const dump of gzip?.runs ?? []) {
    expect(
      dump.status === 200 && dump.encoding === 'gzip' && dump.rows === DATA_ROWS.covid,
      'gzip full dump: compressed, every row',
    );
  }
  expect(
    gzip !== undefined && positive(gzip.sizeRatio) && positive(gzip.timeRatio),
    'gzip full dump: size and time ratios',
  );
  const csv = result.csvDump;
  expect(csv !== undefined && csv.runs.length > 0, 'CSV full dump');
  for (const dump of csv?.runs ?? []) {
    expect(dump.status === 200 && dump.rows === DATA_ROWS.covid, 'CSV full dump: every row');
  }
  expect(csv !== undefined && positive(csv.bestSeconds), 'CSV full dump time');
  expect(csv !== undefined && Number.isFinite(csv.maxRssGrowthMb), 'CSV full dump memory');
  expect(
    (result.fairness ?? []).some((f) => f.format === 'csv'),
    'fairness scenarios with CSV dumps',
  );
  expect((result.fairness ?? []).length > 0, 'fairness scenarios');
  for (const f of result.fairness ?? []) {
    const which = `fairness (${f.dumps} ${f.format ?? 'json'} dumps)`;
    expect(f.reads > 0 && f.failedReads === 0, `${which}: every small read answered`);
    expect(positive(f.p99Ms) && f.maxMs >= f.p99Ms, `${which}: latencies`);
  }
  const sync = result.syncReads;
  expect(sync !== undefined && sync.rows > 0, 'sync scenario: the sync imported the file');
  expect(
    sync !== undefined && sync.reads > 0 && sync.failedReads === 0 && positive(sync.p99Ms),
    'sync scenario: every small read answered',
  );
  const restate = result.restate;
  expect(
    restate !== undefined && restate.restate.updated === DATA_ROWS.covid,
    'restating import: every record updated',
  );
  expect(
    restate !== undefined && restate.writes.writes > 0 && restate.writes.failed === 0,
    'restating import: every write answered',
  );
  const revised = result.revisedFile;
  expect(revised !== undefined, 'the section "revised file"');
  expect(
    revised !== undefined &&
      revised.revisedRows > 0 &&
      revised.revise.updated === revised.revisedRows &&
      revised.verified === revised.revisedRows,
    'revised file: every revised record updated, read back and in the history',
  );
  expect(
    revised !== undefined && revised.firstLoad.rows === DATA_ROWS.covid,
    'revised file: the first load read the whole file',
  );
  expect(
    revised !== undefined && revised.writes.writes > 0 && revised.writes.failed === 0,
    'revised file: every write answered',
  );
  expect(
    revised?.corrections !== undefined &&
      revised.corrections.listed > 0 &&
      revised.corrections.country.failedReads === 0,
    "revised file: a country's corrections listed, every read answered",
  );
  expect(
    revised?.vintages !== undefined &&
      revised.vintages.listed > 0 &&
      revised.vintages.country.failedReads === 0 &&
      revised.vintages.lagSeries.failedReads === 0,
    "revised file: a country's versions listed, its series 7 days on, every read answered",
  );
  problems.push(...yearOfSyncsProblems(result.yearOfSyncs));
  const history = result.recordHistory;
  expect(
    history !== undefined && history.reads > 0 && history.failedReads === 0,
    "one record's history: every read answered",
  );
  const feed = result.feedPage;
  expect(
    feed !== undefined && feed.pageChanges > 0 && feed.failedReads === 0,
    'change feed: every read of its last page answered',
  );
  expect(
    result.cliHelp !== undefined &&
      result.cliHelp.runs.length === 5 &&
      result.cliHelp.runs.every(positive),
    'covid-cli --help: five runs timed',
  );
  const cursor = result.cursorPages;
  expect(
    cursor !== undefined && cursor.walk.records === DATA_ROWS.covid && cursor.walk.repeated === 0,
    'cursor pages: the walk read every record once',
  );
  expect(
    cursor !== undefined &&
      [cursor.shallow, cursor.deep, cursor.deepByOffset].every(
        (l) => l.reads > 0 && l.failedReads === 0,
      ),
    'cursor pages: every timed page answered',
  );
  const series = result.series;
  expect(
    series !== undefined &&
      [series.country, series.world].every((l) => l.reads > 0 && l.failedReads === 0),
    'series: every timed read answered',
  );
  expect(
    series !== undefined && series.csv.status === 200 && series.csv.rows === DATA_ROWS.covid,
    'series: the CSV of every place has a row per record',
  );
  return problems;
}

function main(): void {
  const [dir, ...dbs] = process.argv.slice(2);
  const files = readdirSync(dir);
  let failed = false;
  for (const db of dbs) {
    const file = files.find((name) => name.endsWith(`-${db}.json`));
    const problems = file
      ? check(JSON.parse(readFileSync(join(dir, file), 'utf8')) as BenchResult)
      : [`no result file for ${db}`];
    for (const problem of problems) process.stderr.write(`[${db}] wrong: ${problem}\n`);
    if (problems.length) failed = true;
    else process.stdout.write(`[${db}] ${file}: well-formed\n`);
  }
  process.exit(failed ? 1 : 0);
}

main();
