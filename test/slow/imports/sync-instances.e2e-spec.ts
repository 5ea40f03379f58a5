import Redis from 'ioredis';
import { REDIS_LOCK_TTL_MS } from '@api/sync/sync-lock.service';
import { ApiProcess, databaseEnv, getJson as getJsonAs, startApi } from '../../support/built-api';
import { eventually, runCli } from '../../support/cli';
import { flushRedisDb } from '../../support/cli-test-bed';
import { SourceServer, V1, csv, fileRoute } from '../../support/source-server';
import { TestDatabase, createTestDatabase } from '../../support/test-database';

/** Our own Redis logical database, flushed at the start. */
const REDIS_URL = 'redis://127.0.0.1:6379/14';
const PORTS = [3261, 3262];
const TAKEOVER_PORTS = [3263, 3264];
const TOKEN = 'sync-token-0123456789abcdef';
const INTERVAL_MS = 30_000;

const V2_ONLY = csv('2024-01-02,France,16,6,2,1', '2024-01-03,France,20,4,3,1');

const getJson = (port: number, path: string) => getJsonAs(port, path, TOKEN);

/** The sync lines of an instance's JSON log about one data set's import. */
const syncRuns = (api: ApiProcess, dataset: string) =>
  api
    .output()
    .split('\n')
    .filter((line) => line.includes(`"sync ${dataset} http`));

/** Sync runs of COVID so far across the instances. */
const covidRuns = (apis: ApiProcess[]) =>
  apis.reduce((sum, api) => sum + syncRuns(api, 'covid').length, 0);

/** Waits until the current slot of the interval has at least `margin` ms left. */
async function atSlotStart(margin: number): Promise<void> {
  const left = INTERVAL_MS - (Date.now() % INTERVAL_MS);
  if (left < margin) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

/** The environment of an instance that syncs COVID from `url` every 30 s. */
const syncEnv = (database: TestDatabase, url: string): Record<string, string> => ({
  ...databaseEnv(database.config),
  REDIS_URL,
  API_TOKENS: `ops:${TOKEN}`,
  SYNC_SOURCES: `covid=${url}`,
  SYNC_INTERVAL: '30s',
  LOG_LEVEL: 'info',
});

/** Stops the instances, then the source server, and drops the database. */
async function tearDown(apis: ApiProcess[], sources: SourceServer, database: TestDatabase) {
  for (const api of apis) {
    api.child.kill('SIGTERM');
    await api.exited;
  }
  await sources.stop();
  await database.drop();
}

describe('scheduled sync on two instances (built API, worker thread, shared store)', () => {
  const sources = new SourceServer();
  let covid = { body: V1, etag: '"v1"', modified: 'Mon, 01 Jan 2024 00:00:00 GMT' };
  let database: TestDatabase;
  let env: Record<string, string>;
  const apis: ApiProcess[] = [];

  beforeAll(async () => {
    await flushRedisDb(REDIS_URL);
    sources.routes['/covid.csv'] = fileRoute(() => covid);
    await sources.start();
    database = await createTestDatabase();
    env = syncEnv(database, sources.url('/covid.csv'));
  });
  afterAll(() => tearDown(apis, sources, database));

  it('runs one sync per interval, and both instances serve the new figures at once', async () => {
    // Both start-up runs fall in one slot (they start within seconds of each other).
    await atSlotStart(20_000);
    for (const port of PORTS) apis.push(await startApi({ ...env, PORT: String(port) }));
    const skipped = (api: ApiProcess) => api.output().includes('sync skipped');
    const firstDone = () => Promise.resolve(covidRuns(apis) > 0 && apis.some(skipped));
    expect(await eventually(firstDone, { attempts: 200 })).toBe(true);
    expect(sources.routes['/covid.csv'].seen.length).toBe(1);
    expect(covidRuns(apis)).toBe(1);
    for (const port of PORTS) {
      expect((await getJson(port, '/api/covid/public/totals')).body).toEqual({
        total_cases: 15,
        total_deaths: 2,
      });
    }
    // The imports ran off the API thread.
    expect(apis.map((api) => api.output().includes('in a worker thread'))).toEqual([true, true]);

    covid = { body: V2_ONLY, etag: '"v2"', modified: 'Wed, 03 Jan 2024 00:00:00 GMT' };
    const { body } = await getJson(PORTS[0], '/api/sources');
    const next = Date.parse(body.sync.next_run_at as string);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
    const secondDone = async () =>
      (await getJson(PORTS[0], '/api/sources')).body.sources[0].rows_inserted === 1 &&
      covidRuns(apis) === 2;
    expect(await eventually(secondDone, { attempts: 150 })).toBe(true);
    // Give the other instance time to have run too, if it wrongly did.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(sources.routes['/covid.csv'].seen.length).toBe(2);
    expect(covidRuns(apis)).toBe(2);
    for (const port of PORTS) {
      expect((await getJson(port, '/api/covid/public/totals')).body).toEqual({
        total_cases: 20,
        total_deaths: 3,
      });
    }
    const source = (await getJson(PORTS[1], '/api/sources')).body.sources[0];
    expect(source).toMatchObject({
      outcome: 'updated',
      rows_inserted: 1,
      rows_updated: 1,
      rows_unchanged: 0,
    });

    // The command line tells the same, with the next run.
    const cli = await runCli(['sources'], env);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(`covid ${sources.url('/covid.csv')}\n`);
    expect(cli.stdout).toContain(
      '  rows:         1 inserted, 1 updated, 0 unchanged, 0 skipped\n' +
        '  corrected:    2 figure(s) (docs/corrections.md)\n',
    );
    expect(cli.stdout).toMatch(/ {2}last import: {2}[0-9a-f-]{36}\n/);
    expect(cli.stdout).toMatch(/ {2}next run: {5}\d{4}-\d\d-\d\dT\d\d:\d\d:[03]0\.000Z\n/);
  });
});

describe('an instance killed in the middle of a sync', () => {
  const sources = new SourceServer();
  const file = { body: V1, etag: '"v1"', modified: 'Mon, 01 Jan 2024 00:00:00 GMT' };
  const served = fileRoute(() => file);
  let database: TestDatabase;
  const apis: ApiProcess[] = [];

  beforeAll(async () => {
    // The first download never ends (the instance dies during it); later ones get the file.
    sources.routes['/stalls.csv'] = {
      seen: [],
      answer(res, headers, count) {
        if (count > 1) return served.answer(res, headers, count);
        res.writeHead(200, { 'content-length': Buffer.byteLength(V1) * 10 });
        res.write(V1);
      },
    };
    await sources.start();
    database = await createTestDatabase();
  });
  afterAll(() => tearDown(apis, sources, database));

  it('frees the lock: the next instance syncs (MySQL at once, Redis when the lease ends)', async () => {
    await flushRedisDb(REDIS_URL);
    const env = syncEnv(database, sources.url('/stalls.csv'));
    const route = sources.routes['/stalls.csv'];
    // Killed while it holds the lock and downloads, with time left in the slot for the next one.
    await atSlotStart(20_000);
    const dying = await startApi({ ...env, PORT: String(TAKEOVER_PORTS[0]) });
    apis.push(dying);
    expect(await eventually(() => Promise.resolve(route.seen.length === 1))).toBe(true);
    dying.child.kill('SIGKILL');
    expect((await dying.exited).signal).toBe('SIGKILL');

    if (database.config.type !== 'mysql') {
      // A Redis lease, never renewed again: it ends by itself within REDIS_LOCK_TTL_MS. (On MySQL,
      // GET_LOCK belongs to a connection, and the dead instance's connection went with it.)
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys('covid-api-sync:*');
      const left = keys.length === 1 ? await redis.pttl(keys[0]) : undefined;
      redis.disconnect();
      expect(keys).toHaveLength(1);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(REDIS_LOCK_TTL_MS);
    }

    const next = await startApi({ ...env, PORT: String(TAKEOVER_PORTS[1]) });
    apis.push(next);
    // Asked once a second, well within the default rate limit.
    const synced = async () =>
      (await getJson(TAKEOVER_PORTS[1], '/api/sources')).body.sources?.[0]?.outcome === 'updated';
    // MySQL: the start-up run, a few seconds on; Redis: the first slot after the lease ended.
    const attempts = database.config.type === 'mysql' ? 15 : 100;
    expect(await eventually(synced, { attempts, everyMs: 1000 })).toBe(true);
    expect(route.seen.length).toBe(2);
    expect((await getJson(TAKEOVER_PORTS[1], '/api/covid/public/totals')).body).toEqual({
      total_cases: 15,
      total_deaths: 2,
    });
    const skippedAsBusy = next.output().includes('sync skipped: another instance is syncing');
    expect(skippedAsBusy).toBe(database.config.type !== 'mysql');
  }, 150_000);
});
