import 'reflect-metadata';
import { Command, InvalidArgumentError, Option } from 'commander';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { count, positive, withLoadOptions } from './bench-options';
import { BenchDb, prepareDatabase } from './bench-database';
import { BenchResult, RouteResult, formatResult, machine } from './bench-report';
import { CREATE_PATH, CSV_DUMP_PATH, DUMP_PATH, createBodies, readRoutes } from './bench-routes';
import { AUTH, apiEnvironment, routeTarget, startBaseline } from './bench-servers';
import { runAsOf } from './as-of-run';
import { gzipDumpStats, runDump } from './dump-run';
import { runFairness } from './fairness-run';
import { runCursorPages } from './cursor-run';
import { runSeries } from './series-run';
import { runFeedPage } from './feed-run';
import { runRecordHistory } from './history-run';
import { runRestateWrites } from './restate-run';
import { runRevisedFile } from './revised-run';
import { runSyncReads } from './sync-run';
import { runYearOfSyncs } from './year-run';
import { runCliHelp } from './cli-help-run';
import { LoadOptions, LoadStats, combineLoads, runLoad } from './load-run';
import { PROJECT_ROOT } from './paths';
import { ServerProcess } from './server-process';
import { productionStartCommand, splitFlags } from './start-command';

interface Options extends LoadOptions {
  db: 'sqlite' | 'mysql' | 'both';
  warmup: number;
  dumpRuns: number;
  fairnessDumps: number[];
  fairnessSeconds: number;
  rounds: number;
  port: number;
  country: string;
  outDir: string;
  apiEnv: Record<string, string>;
  apiMain: string;
  apiNodeFlags: string[];
  label?: string;
  yearImports: number;
  yearReads: number;
}

const MIN_CREATED_PER_SECOND = 1500;

/** The small reads of the fairness scenarios: public answers a dashboard polls. */
const FAIRNESS_READS = (country: string): string[] => [
  '/api/covid/public/totals',
  `/api/covid/public/country/${encodeURIComponent(country)}`,
];

/** Small public reads that answer 200 on a store still being filled (no per-country route). */
const SYNC_READS = ['/api/covid/public/totals', '/api/mpox/public/summary'];

const keyValue = (value: string, previous: Record<string, string>): Record<string, string> => {
  const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(value);
  if (!match) throw new InvalidArgumentError('NAME=value');
  return { ...previous, [match[1]]: match[2] };
};

function parseOptions(argv: string[]): Options {
  const production = productionStartCommand();
  return withLoadOptions(
    new Command('bench').description(
      'Loads the data sets, then benchmarks the built API against a bare node:http baseline',
    ),
    { help: 'API then baseline, this many times per read route; summed up', default: 10 },
  )
    .addOption(
      new Option('--db <db>', 'database').choices(['sqlite', 'mysql', 'both']).default('both'),
    )
    .option('--dump-runs <n>', 'full dumps to time', positive, 3)
    .option(
      '--fairness-dumps <list>',
      'fairness scenarios: how many full dumps stream at once while small reads are timed',
      (value: string) => value.split(',').map((n) => positive(n)),
      [2, 4],
    )
    .option('--fairness-seconds <s>', 'how long each fairness scenario lasts', positive, 10)
    .option('--port <port>', 'API port; the baseline uses the next one', positive, 3300)
    .option('--country <name>', 'country of the per-country routes', 'France')
    .option('--out-dir <dir>', 'where the JSON results go', resolve(PROJECT_ROOT, 'bench/results'))
    .option(
      '--api-env <NAME=value>',
      'extra API environment (repeatable), for A/B runs',
      keyValue,
      {},
    )
    .option('--api-main <file>', 'the built API entry, for A/B runs of two builds', production.main)
    .option(
      '--api-node-flags <flags>',
      "Node's flags for the API, for A/B runs (default: those of npm run start:prod)",
      splitFlags,
      production.nodeFlags,
    )
    .option('--label <label>', 'suffix of the result file name, for A/B runs')
    .option(
      '--year-imports <n>',
      'a year of syncs: revised copies of the COVID file imported (1% of the rows each)',
      count,
      100,
    )
    .option(
      '--year-reads <n>',
      'a year of syncs: sequential reads of each read, on the fresh store and after the imports',
      count,
      30,
    )
    .parse(argv)
    .opts<Options>();
}

interface Round {
  api: LoadStats;
  baseline: LoadStats;
  ratio: number;
}

/**
 * The rounds of a read route summed up (requests over all rounds, p50 the median round's, p99 the
 * worst round's) and the ratio of the two sums. The speed of this shared 2-core host drifts from
 * one second to the next; alternating API and baseline in short rounds puts both under the same
 * drift (bench/README.md: identical builds come much closer to each other this way than with
 * one long run each).
 */
function combineRounds(rounds: Round[]): Round {
  const api = combineLoads(rounds.map((r) => r.api));
  const baseline = combineLoads(rounds.map((r) => r.baseline));
  return { api, baseline, ratio: api.requestsPerSecond / baseline.requestsPerSecond };
}

async function benchDatabase(db: BenchDb, options: Options): Promise<BenchResult> {
  const log = (message: string): void => void process.stderr.write(`[${db}] ${message}\n`);
  log('loading the data sets');
  const { database, imports } = await prepareDatabase(db);
  const work = mkdtempSync(join(tmpdir(), 'covid-bench-'));
  const servers: ServerProcess[] = [];
  try {
    imports.forEach((i) => log(`${i.file}: ${i.rows} rows, ${Math.round(i.rowsPerSecond)} rows/s`));
    const api = ServerProcess.start(
      'API',
      resolve(options.apiMain),
      options.port,
      apiEnvironment(database.config, options.port, options.apiEnv),
      [],
      options.apiNodeFlags,
    );
    servers.push(api);
    await api.ready('/api/health');
    const apiCommandLine = api.commandLine();
    const routes = readRoutes(options.country);
    const baseline = await startBaseline(
      api,
      [...routes.map((r) => r.path), DUMP_PATH],
      options.port + 1,
      work,
    );
    servers.push(baseline);

    const routeResults: RouteResult[] = [];
    for (const route of routes) {
      log(`${route.method} ${route.path}`);
      const target = (server: ServerProcess) => routeTarget(server, route);
      if (options.warmup > 0)
        await runLoad(target(api), { ...options, duration: options.warmup }, api);
      const rounds: Round[] = [];
      for (let i = 0; i < Math.max(1, options.rounds); i++) {
        const apiRound = await runLoad(target(api), options, api);
        const baselineRound = await runLoad(target(baseline), options, baseline);
        rounds.push({
          api: apiRound,
          baseline: baselineRound,
          ratio: apiRound.requestsPerSecond / baselineRound.requestsPerSecond,
        });
      }
      const { api: apiStats, baseline: baselineStats, ratio } = combineRounds(rounds);
      routeResults.push({
        name: route.name,
        method: route.method,
        path: route.path,
        api: apiStats,
        baseline: baselineStats,
        ratio,
        ratios: rounds.map((r) => r.ratio),
        minRatio: route.minRatio,
        maxP99Ms: route.maxP99Ms,
        met:
          apiStats.non2xx === 0 &&
          ratio >= route.minRatio &&
          (route.maxP99Ms === undefined || apiStats.p99Ms < route.maxP99Ms),
      });
    }

    log(`GET ${DUMP_PATH}`);
    const runs = [];
    for (let i = 0; i < options.dumpRuns; i++) runs.push(await runDump(api, DUMP_PATH, AUTH));
    const baselineDump = await runDump(baseline, DUMP_PATH, AUTH);
    const bestSeconds = Math.min(...runs.map((r) => r.seconds));
    const maxRssGrowthMb = Math.max(...runs.map((r) => r.rssGrowthBytes)) / 1024 ** 2;

    log(`GET ${DUMP_PATH} with Accept-Encoding: gzip`);
    const gzipRuns = [];
    for (let i = 0; i < options.dumpRuns; i++) {
      gzipRuns.push(await runDump(api, DUMP_PATH, { ...AUTH, 'accept-encoding': 'gzip' }));
    }

    log(`GET ${CSV_DUMP_PATH}`);
    const csvRuns = [];
    for (let i = 0; i < options.dumpRuns; i++) {
      csvRuns.push(await runDump(api, CSV_DUMP_PATH, AUTH, 'csv'));
    }
    const csvBestSeconds = Math.min(...csvRuns.map((r) => r.seconds));
    const csvMaxRssGrowthMb = Math.max(...csvRuns.map((r) => r.rssGrowthBytes)) / 1024 ** 2;

    log('as of an instant: one country, then full dumps');
    const asOf = await runAsOf(api, options);

    log('GET /api/covid/data by cursor pages: the whole list, then shallow and deep pages');
    const cursorPages = await runCursorPages(api);

    log('GET /api/covid/series: whole series of a country and of World, every place as CSV');
    const series = await runSeries(api);

    const fairness = [];
    for (const format of ['json', 'csv'] as const) {
      for (const dumps of options.fairnessDumps) {
        log(`fairness: ${dumps} full ${format} dumps at once, small public reads at 50/s`);
        const stats = await runFairness(
          api,
          format === 'csv' ? CSV_DUMP_PATH : DUMP_PATH,
          FAIRNESS_READS(options.country),
          AUTH,
          { dumps, seconds: options.fairnessSeconds, readsPerSecond: 50 },
        );
        fairness.push(format === 'csv' ? { ...stats, format } : stats);
      }
    }

    log('GET /api/covid/data/:id/history: one record');
    const recordHistory = await runRecordHistory(api, options.country);

    log('GET /api/covid/changes: the last page of the feed');
    const feedPage = await runFeedPage(api, AUTH);

    log('covid-cli --help, five times, on the built checkout');
    const cliHelp = runCliHelp();

    log('small reads while the scheduled sync imports the COVID file into an empty store');
    const syncReads = await runSyncReads(
      db,
      options.port + 2,
      SYNC_READS,
      resolve(options.apiMain),
    );
    log(
      'writes (POST at 20/s) while the scheduled sync imports the COVID file into an empty store',
    );
    const syncWrites = await runSyncReads(
      db,
      options.port + 2,
      [],
      resolve(options.apiMain),
      0,
      20,
    );
    syncReads.writes = syncWrites.writes;

    log(
      'writes (POST at 20/s) while the CLI imports the COVID file restated over the loaded store',
    );
    const restate = await runRestateWrites(db, options.port + 2, resolve(options.apiMain));

    log(
      'revised file: writes (POST at 20/s) while the CLI imports the COVID file with 1% of its rows revised',
    );
    const revisedFile = await runRevisedFile(db, options.port + 2, resolve(options.apiMain));

    log(`a year of syncs: ${options.yearImports} revised copies imported, reads before and after`);
    const yearOfSyncs = await runYearOfSyncs(
      db,
      options.port + 2,
      resolve(options.apiMain),
      { copies: options.yearImports, reads: options.yearReads, country: options.country },
      log,
    );

    log(`POST ${CREATE_PATH}`);
    const bodies = createBodies();
    const createTarget = (server: ServerProcess) => ({
      url: server.url + CREATE_PATH,
      method: 'POST' as const,
      headers: AUTH,
      body: bodies,
    });
    if (options.warmup > 0)
      await runLoad(createTarget(api), { ...options, duration: options.warmup }, api);
    // Writes are not alternated (each run adds records): one run as long as all rounds together.
    const createOptions = { ...options, duration: options.duration * Math.max(1, options.rounds) };
    const createApi = await runLoad(createTarget(api), createOptions, api);
    const createBaseline = await runLoad(createTarget(baseline), createOptions, baseline);

    return {
      date: new Date().toISOString(),
      db,
      machine: machine(),
      options: {
        apiEnv: options.apiEnv,
        apiMain: options.apiMain,
        apiNodeFlags: options.apiNodeFlags,
        apiCommandLine,
        connections: options.connections,
        duration: options.duration,
        warmup: options.warmup,
        dumpRuns: options.dumpRuns,
        rounds: Math.max(1, options.rounds),
      },
      fairness,
      asOf,
      syncReads,
      restate,
      revisedFile,
      yearOfSyncs,
      feedPage,
      cliHelp,
      recordHistory,
      cursorPages,
      series,
      imports,
      routes: routeResults,
      create: {
        api: createApi,
        baseline: createBaseline,
        ...(db === 'mysql'
          ? {
              minCreatedPerSecond: MIN_CREATED_PER_SECOND,
              met: createApi.non2xx === 0 && createApi.okPerSecond >= MIN_CREATED_PER_SECOND,
            }
          : {}),
      },
      dump: {
        runs,
        baseline: baselineDump,
        bestSeconds,
        maxRssGrowthMb,
        met: runs.every((r) => r.status === 200) && bestSeconds < 3 && maxRssGrowthMb < 64,
      },
      gzipDump: gzipDumpStats(gzipRuns, runs),
      csvDump: {
        runs: csvRuns,
        bestSeconds: csvBestSeconds,
        maxRssGrowthMb: csvMaxRssGrowthMb,
        met: csvRuns.every((r) => r.status === 200) && csvBestSeconds < 3 && csvMaxRssGrowthMb < 64,
      },
    };
  } finally {
    for (const server of servers) await server.stop();
    rmSync(work, { recursive: true, force: true });
    await database.drop();
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv);
  const dbs: BenchDb[] = options.db === 'both' ? ['sqlite', 'mysql'] : [options.db];
  mkdirSync(options.outDir, { recursive: true });
  for (const db of dbs) {
    const result = await benchDatabase(db, options);
    const file = join(
      options.outDir,
      `${result.date.slice(0, 10)}-${db}${options.label ? `-${options.label}` : ''}.json`,
    );
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`\n${formatResult(result)}\n\nWritten to ${file}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
