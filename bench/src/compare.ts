import 'reflect-metadata';
import { Command, InvalidArgumentError, Option } from 'commander';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { positive, withLoadOptions } from './bench-options';
import { BenchDb, prepareDatabase } from './bench-database';
import { machine } from './bench-report';
import { BenchRoute, readRoutes } from './bench-routes';
import {
  ReplayKind,
  apiEnvironment,
  recordAnswersFile,
  routeTarget,
  startReplay,
} from './bench-servers';
import { LoadStats, combineLoads, runLoad } from './load-run';
import { PROJECT_ROOT } from './paths';
import { ServerProcess } from './server-process';
import { productionStartCommand, splitFlags } from './start-command';

/**
 * Compares builds of the API (`npm run bench:compare`): several processes of each build and the
 * baseline, all on one freshly loaded database, driven in turn in short rounds, so that the host's
 * drift and the luck of each process (JIT, heap layout) fall on every build alike. Prints, per
 * route and build, requests/s and CPU µs per request summed over its processes and rounds, and the
 * ratio to the baseline.
 */
interface Options {
  build: Record<string, string>;
  /** Node's flags per build, where not those of `npm run start:prod`. */
  nodeFlags: Record<string, string>;
  /** Extra environment of every API process (e.g. `CACHE_TTL_MS=0`: every request through Nest). */
  apiEnv: Record<string, string>;
  /** Further request headers sent on every route (e.g. `Accept`, as browsers and curl send). */
  header: Record<string, string>;
  procs: number;
  rounds: number;
  duration: number;
  warmup: number;
  connections: number;
  route: string[];
  /** Further GET paths read with the bench token (e.g. a derived series). */
  path: string[];
  db: BenchDb;
  port: number;
  country: string;
  outDir: string;
  label?: string;
  reference: boolean;
}

/** The reference servers of `--reference`, by the name their rows get. */
const REFERENCES: Record<string, ReplayKind> = {
  'ref: node:http + API headers': 'node-headers',
  'ref: Fastify + API headers': 'fastify-headers',
};

/** A repeatable `name=value` option, collected by name (`value` may be empty when `allowEmpty`). */
const named =
  (form: string, allowEmpty = false) =>
  (value: string, previous: Record<string, string>): Record<string, string> => {
    const match = /^([\w.-]+)=(.*)$/.exec(value);
    if (!match || (!allowEmpty && match[2] === '')) throw new InvalidArgumentError(form);
    return { ...previous, [match[1]]: match[2] };
  };

const build = named('name=path/to/main.js');

/** A repeatable `name: value` request header, collected by its lower-case name. */
const header = (value: string, previous: Record<string, string>): Record<string, string> => {
  const match = /^([\w-]+):\s*(.*)$/.exec(value);
  if (!match) throw new InvalidArgumentError('--header name:value');
  return { ...previous, [match[1].toLowerCase()]: match[2] };
};
const nodeFlags = named('name=flags', true);

function parseOptions(argv: string[]): Options {
  const options = withLoadOptions(
    new Command('bench:compare').description(
      'Compares builds of the API, several processes each, in alternating rounds',
    ),
    { help: 'rounds; each drives every process and the baseline once', default: 8 },
  )
    .option('--build <name=main.js>', 'a build to compare (repeatable)', build, {})
    .option(
      '--node-flags <name=flags>',
      "Node's flags for one build, e.g. --node-flags 'plain=' (repeatable; default: those of " +
        'npm run start:prod)',
      nodeFlags,
      {},
    )
    .option('--procs <n>', 'processes per build', positive, 3)
    .option(
      '--route <text>',
      'read routes whose name contains this text (repeatable; default: all five)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .option(
      '--path <path>',
      'a further GET path read with the bench token, e.g. /api/covid/series?country=France ' +
        '(repeatable; alone, only these)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .addOption(new Option('--db <db>', 'database').choices(['sqlite', 'mysql']).default('sqlite'))
    .option('--port <port>', 'first port; one per process, then the baseline', positive, 3400)
    .option('--country <name>', 'country of the per-country routes', 'France')
    .option(
      '--out-dir <dir>',
      'where the JSON results go',
      resolve(PROJECT_ROOT, 'bench/results/ab'),
    )
    .option(
      '--api-env <NAME=value>',
      'extra environment of every API process (repeatable)',
      named('--api-env NAME=value', true),
      {},
    )
    .option(
      '--header <name:value>',
      'a request header sent on every route, e.g. --header "accept: */*" (repeatable)',
      header,
      {},
    )
    .option('--label <label>', 'suffix of the result file name')
    .option(
      '--reference',
      "also drive bare node:http and bare Fastify (no Nest) replaying the API's answers with all " +
        'its headers, one process each: where the time goes between the baseline and the API',
      false,
    )
    .parse(argv)
    .opts<Options>();
  if (Object.keys(options.build).length === 0) {
    options.build = { current: productionStartCommand().main };
  }
  const unknown = Object.keys(options.nodeFlags).filter(
    (name) => !Object.hasOwn(options.build, name),
  );
  if (unknown.length > 0)
    throw new InvalidArgumentError(`--node-flags for no build: ${unknown.join(', ')}`);
  return options;
}

interface Contender {
  build: string;
  server: ServerProcess;
  runs: LoadStats[];
}

export interface CompareRow {
  build: string;
  requestsPerSecond: number;
  cpuUsPerRequest: number;
  ratio: number;
  /** Each process's requests/s over the baseline's, in the order started. */
  processRatios: number[];
}

const num = (value: number, digits = 0): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function summarise(contenders: Contender[], baseline: LoadStats): CompareRow[] {
  const builds = [...new Set(contenders.map((c) => c.build))];
  return builds.map((name) => {
    const own = contenders.filter((c) => c.build === name);
    const all = combineLoads(own.flatMap((c) => c.runs));
    return {
      build: name,
      requestsPerSecond: all.requestsPerSecond,
      cpuUsPerRequest: all.cpuUsPerRequest,
      ratio: all.requestsPerSecond / baseline.requestsPerSecond,
      processRatios: own.map(
        (c) => combineLoads(c.runs).requestsPerSecond / baseline.requestsPerSecond,
      ),
    };
  });
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv);
  const log = (message: string): void => void process.stderr.write(`${message}\n`);
  const listed = options.route.length > 0 || options.path.length === 0;
  const routes = [
    ...readRoutes(options.country).filter(
      (r) =>
        listed && (options.route.length === 0 || options.route.some((t) => r.name.includes(t))),
    ),
    ...options.path.map((path): BenchRoute => ({
      name: path,
      method: 'GET',
      path,
      auth: true,
      minRatio: 0,
    })),
  ];
  if (routes.length === 0) throw new Error('no route matches --route');
  log(`[${options.db}] loading the data sets`);
  const { database } = await prepareDatabase(options.db);
  const work = mkdtempSync(join(tmpdir(), 'covid-compare-'));
  const servers: ServerProcess[] = [];
  const results: Record<string, { baseline: LoadStats; builds: CompareRow[] }> = {};
  try {
    const contenders: Contender[] = [];
    let port = options.port;
    const production = productionStartCommand();
    const flagsOf = (name: string): string[] =>
      Object.hasOwn(options.nodeFlags, name)
        ? splitFlags(options.nodeFlags[name])
        : production.nodeFlags;
    for (let p = 1; p <= options.procs; p++) {
      for (const [name, main] of Object.entries(options.build)) {
        const server = ServerProcess.start(
          `${name} #${p}`,
          resolve(main),
          port,
          apiEnvironment(database.config, port, options.apiEnv),
          [],
          flagsOf(name),
        );
        servers.push(server);
        await server.ready('/api/health');
        contenders.push({ build: name, server, runs: [] });
        port++;
      }
    }
    const answers = await recordAnswersFile(
      contenders[0].server,
      routes.map((r) => r.path),
      work,
    );
    if (options.reference) {
      for (const [name, kind] of Object.entries(REFERENCES)) {
        const server = await startReplay(kind, answers, port++);
        servers.push(server);
        contenders.push({ build: name, server, runs: [] });
      }
    }
    const baselineServer = await startReplay('baseline', answers, port);
    servers.push(baselineServer);

    for (const route of routes) {
      log(`${route.method} ${route.path}`);
      const target = (server: ServerProcess) => {
        const plain = routeTarget(server, route);
        return { ...plain, headers: { ...plain.headers, ...options.header } };
      };
      const load = { connections: options.connections, duration: options.duration };
      const everyone = [...contenders.map((c) => c.server), baselineServer];
      if (options.warmup > 0) {
        for (const server of everyone)
          await runLoad(target(server), { ...load, duration: options.warmup }, server);
      }
      for (const c of contenders) c.runs = [];
      const baselineRuns: LoadStats[] = [];
      for (let round = 0; round < options.rounds; round++) {
        // Each round starts one further along the list, so that no one always runs first.
        for (let i = 0; i < everyone.length; i++) {
          const server = everyone[(i + round) % everyone.length];
          const stats = await runLoad(target(server), load, server);
          if (stats.non2xx || stats.errors) throw new Error(`${server.name}: failed requests`);
          const contender = contenders.find((c) => c.server === server);
          if (contender) contender.runs.push(stats);
          else baselineRuns.push(stats);
        }
      }
      const baseline = combineLoads(baselineRuns);
      const rows = summarise(contenders, baseline);
      results[route.path] = { baseline, builds: rows };
      process.stdout.write(
        [
          '',
          `${route.method} ${route.path} — ${options.procs} process(es) per build, ${options.rounds} rounds of ${options.duration} s, ${options.connections} connections`,
          '',
          '| build | req/s | CPU µs/req | API/baseline | per process |',
          '|:--|--:|--:|--:|:--|',
          ...rows.map(
            (r) =>
              `| ${r.build} | ${num(r.requestsPerSecond)} | ${num(r.cpuUsPerRequest, 1)} | ${num(r.ratio * 100, 1)} % | ${r.processRatios.map((x) => num(x * 100)).join(' / ')} |`,
          ),
          `| baseline | ${num(baseline.requestsPerSecond)} | ${num(baseline.cpuUsPerRequest, 1)} | | |`,
          '',
        ].join('\n'),
      );
    }
    mkdirSync(options.outDir, { recursive: true });
    const date = new Date().toISOString();
    const file = join(
      options.outDir,
      `${date.slice(0, 10)}-compare-${options.db}${options.label ? `-${options.label}` : ''}.json`,
    );
    writeFileSync(
      file,
      `${JSON.stringify({ date, db: options.db, machine: machine(), options, routes: results }, null, 2)}\n`,
    );
    log(`Written to ${file}`);
  } finally {
    for (const server of servers) await server.stop();
    rmSync(work, { recursive: true, force: true });
    await database.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:compare failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
