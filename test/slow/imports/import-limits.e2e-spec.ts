import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { ApiProcess, databaseEnv, getJson as getJsonAs, startApi } from '../../support/built-api';
import { eventually, runCli } from '../../support/cli';
import { CliTestBed, cliTestBed } from '../../support/cli-test-bed';
import { SourceServer, csv, fileRoute } from '../../support/source-server';
import { historySnapshot, tableRows } from '../../support/table-snapshot';

const TOKEN = 'limits-token-0123456789abcdef';
const PORTS = { limits: 3271, memory: 3272 };
const POPULATION_HEADER = 'entity,iso_code,year,population';

const getJson = (port: number, path: string) => getJsonAs(port, path, TOKEN);

/** A source as `/api/sources` lists it. */
interface Source {
  dataset: string;
  url: string;
  last_attempt_at: string | null;
}

/** Gzips `header` then `blocks(0..times-1)`, streamed: the text is never held whole. */
async function gzipFile(path: string, header: string, block: (i: number) => string, times: number) {
  const gzip = createGzip({ level: 9 });
  const done = once(gzip.pipe(createWriteStream(path)), 'close');
  gzip.write(`${header}\n`);
  for (let i = 0; i < times; i++) {
    if (!gzip.write(block(i))) await once(gzip, 'drain');
  }
  gzip.end();
  await done;
}

/**
 * A population table of 46 MB once gunzipped, a few KB on disk: the same row of 230 bytes (its
 * `source` is long: the byte limit comes before the row limit), 200,000 times.
 */
const bomb = (path: string) =>
  gzipFile(
    path,
    `${POPULATION_HEADER},source`,
    () => `France,FRA,2020,67000000,${'x'.repeat(204)}\n`.repeat(1000),
    200,
  );

/**
 * A population table of `places` distinct places that are no country: each is counted by its
 * name in the summary, so the import's memory grows with them (under the row limit).
 */
const unknownPlaces = (path: string, places: number) =>
  gzipFile(
    path,
    POPULATION_HEADER,
    (i) => Array.from({ length: 1000 }, (_, j) => `Nowhere ${i * 1000 + j},,2020,1\n`).join(''),
    places / 1000,
  );

/** `days` daily trimmed rows for each country, from 1990-01-01: all valid. */
function records(countries: string[], days: number): string {
  return csv(
    ...countries.flatMap((country) =>
      Array.from({ length: days }, (_, day) => {
        const date = new Date(Date.UTC(1990, 0, 1 + day)).toISOString().slice(0, 10);
        return `${date},${country},${day},1,0,0`;
      }),
    ),
  );
}

/**
 * 12,003 rows: past a limit of 12,000, after more than two of the chunks of 5,000 that MySQL's
 * transaction writes as they are parsed (so that its roll-back is what keeps the tables).
 */
const OVER_ROW_LIMIT = records(['Chile', 'Peru', 'Spain'], 4001);

/** What a failed import must leave as it was: each table, and the histories. */
async function stored(bed: CliTestBed): Promise<Record<string, unknown>> {
  const { dataSource } = bed.t;
  return {
    covid: await tableRows(dataSource, 'covid_data'),
    covidHistory: await historySnapshot(dataSource, 'covid'),
    mpox: await tableRows(dataSource, 'mpox_data'),
    population: await dataSource.query('SELECT * FROM population ORDER BY iso3, year'),
  };
}

/** The limits every process of this file runs with: small, so that the tests stay fast. */
const LIMITS = { IMPORT_MAX_BYTES: '1mb', IMPORT_MAX_ROWS: '12000' };

describe('imports in bounded memory (IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, SYNC_WORKER_MEMORY)', () => {
  const bed = cliTestBed('import-limits-');
  const sources = new SourceServer();
  const apis: ApiProcess[] = [];
  const cli = (...args: string[]) => runCli(args, { ...bed.env, ...LIMITS });
  // The server sends bytes as they are (gzip files included): `fileRoute` ends the answer with them.
  const serve = (path: string, body: string | Buffer) =>
    (sources.routes[path] = fileRoute(() => ({
      body: body as string,
      etag: `"${path}"`,
      modified: 'Mon, 01 Jan 2024 00:00:00 GMT',
    })));

  beforeAll(async () => {
    await sources.start();
    // Something stored already, which the refused files must leave as it is.
    const seed = join(bed.dir, 'seed.csv');
    writeFileSync(seed, records(['France'], 3));
    expect((await bed.cli('import', 'covid', seed)).code).toBe(0);
    const table = join(bed.dir, 'seed-population.csv');
    writeFileSync(table, `${POPULATION_HEADER}\nFrance,FRA,2020,67000000\n`);
    expect((await bed.cli('import', 'population', table)).code).toBe(0);
  });
  afterAll(async () => {
    for (const api of apis) {
      api.child.kill('SIGTERM');
      await api.exited;
    }
    await sources.stop();
  });

  it('import population: a gzip bomb stops at IMPORT_MAX_BYTES and writes nothing', async () => {
    const file = join(bed.dir, 'bomb.csv.gz');
    await bomb(file);
    const before = await stored(bed);
    const result = await cli('import', 'population', file);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${file} is larger than 1048576 bytes once decompressed (the limit IMPORT_MAX_BYTES); nothing was imported\n`,
    });
    expect(await stored(bed)).toEqual(before);
  });

  it('import covid: a file past IMPORT_MAX_ROWS stops there and writes nothing', async () => {
    const file = join(bed.dir, 'many.csv');
    writeFileSync(file, OVER_ROW_LIMIT);
    const before = await stored(bed);
    const result = await cli('import', 'covid', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: ${file} has more than 12000 rows (the limit IMPORT_MAX_ROWS); nothing was imported\n`,
    );
    expect(result.stdout).toContain('rows read: 12001\ninserted:  0\nupdated:   0\n');
    expect(await stored(bed)).toEqual(before);
  });

  it('the sync: each source past a limit fails with the limit named; the others and the API go on', async () => {
    const bombFile = join(bed.dir, 'served-bomb.csv.gz');
    await bomb(bombFile);
    serve('/bomb.csv.gz', readFileSync(bombFile));
    serve('/many.csv', OVER_ROW_LIMIT);
    serve('/mpox.csv', csv('2024-01-01,Germany,3,3,0,0'));
    const before = await stored(bed);
    const url = (path: string) => sources.url(path);
    const api = await startApi({
      ...databaseEnv(bed.t.config.db),
      ...LIMITS,
      PORT: String(PORTS.limits),
      API_TOKENS: `ops:${TOKEN}`,
      THROTTLE_LIMIT: '100000',
      SYNC_SOURCES: `population=${url('/bomb.csv.gz')},covid=${url('/many.csv')},mpox=${url('/mpox.csv')}`,
      SYNC_INTERVAL: '1h',
    });
    apis.push(api);
    const listed = async () => {
      const { status, body } = await getJson(PORTS.limits, '/api/sources');
      expect({ status, sources: Array.isArray(body.sources) }).toEqual({
        status: 200,
        sources: true,
      });
      return body.sources as Source[];
    };
    const attempted = async () => (await listed()).every((s) => s.last_attempt_at !== null);
    expect(await eventually(attempted, { attempts: 300, everyMs: 500 })).toBe(true);
    const byUrl = Object.fromEntries((await listed()).map((s) => [s.url, s]));
    expect(byUrl[url('/bomb.csv.gz')]).toMatchObject({
      outcome: 'failed',
      rows_inserted: 0,
      last_error: `${url('/bomb.csv.gz')} is larger than 1048576 bytes once decompressed (the limit IMPORT_MAX_BYTES); nothing was imported`,
    });
    expect(byUrl[url('/many.csv')]).toMatchObject({
      outcome: 'failed',
      rows_inserted: 0,
      last_error: `${url('/many.csv')} has more than 12000 rows (the limit IMPORT_MAX_ROWS); nothing was imported`,
    });
    expect(byUrl[url('/mpox.csv')]).toMatchObject({
      outcome: 'updated',
      rows_inserted: 1,
      last_error: null,
    });
    expect((await getJson(PORTS.limits, '/api/health')).status).toBe(200);
    // Nothing of the refused sources: COVID, its history and the population as they were.
    expect({ ...(await stored(bed)), mpox: before.mpox }).toEqual(before);
  }, 300_000);

  it('a sync worker past SYNC_WORKER_MEMORY fails its source, not the API', async () => {
    apis.shift()?.child.kill('SIGTERM');
    const file = join(bed.dir, 'places.csv.gz');
    await unknownPlaces(file, 1_000_000);
    serve('/places.csv.gz', readFileSync(file));
    serve('/mpox-after.csv', csv('2024-01-01,Germany,3,3,0,0', '2024-01-02,Germany,4,1,0,0'));
    const before = await stored(bed);
    const url = (path: string) => sources.url(path);
    const api = await startApi({
      ...databaseEnv(bed.t.config.db),
      PORT: String(PORTS.memory),
      API_TOKENS: `ops:${TOKEN}`,
      THROTTLE_LIMIT: '100000',
      SYNC_SOURCES: `population=${url('/places.csv.gz')},mpox=${url('/mpox-after.csv')}`,
      SYNC_INTERVAL: '1h',
      SYNC_WORKER_MEMORY: '64mb',
    });
    apis.push(api);
    const listed = async () => {
      const { status, body } = await getJson(PORTS.memory, '/api/sources');
      expect(status).toBe(200);
      return body.sources as Source[];
    };
    const attempted = async () =>
      (await listed())
        .filter((s) => s.url.includes('after') || s.url.includes('places'))
        .every((s) => s.last_attempt_at !== null);
    // Parsing a million rows until the heap gives out takes minutes on a loaded host.
    expect(await eventually(attempted, { attempts: 1100, everyMs: 500 })).toBe(true);
    const byUrl = Object.fromEntries((await listed()).map((s) => [s.url, s]));
    expect(byUrl[url('/places.csv.gz')]).toMatchObject({
      outcome: 'failed',
      rows_inserted: 0,
      last_error:
        'the sync worker ran out of memory (the limit SYNC_WORKER_MEMORY: 64 MB); nothing was imported',
    });
    // The sources after it ran in a new worker.
    expect(byUrl[url('/mpox-after.csv')]).toMatchObject({ outcome: 'updated', last_error: null });
    expect((await getJson(PORTS.memory, '/api/health')).status).toBe(200);
    expect(api.child.exitCode).toBeNull();
    expect({ ...(await stored(bed)), mpox: before.mpox }).toEqual(before);
  }, 600_000);
});
