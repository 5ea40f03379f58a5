import { SchedulerRegistry } from '@nestjs/schedule';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { eventually } from '../../support/cli';
import { flushRedisDb } from '../../support/cli-test-bed';
import { SourceServer, V1, V2, csv, fileRoute } from '../../support/source-server';
import { snapshot } from '../../support/table-snapshot';
import { TestApp, bootTestApp } from '../../support/test-app';
import { SyncService } from '@api/sync/sync.service';

/** Our own Redis logical database (the lock of SQLite instances), flushed at the start. */
const REDIS_URL = 'redis://127.0.0.1:6379/13';
const INTERVAL_S = 30;

const MPOX = csv('2024-01-01,Germany,3,3,0,0');

/** Moves every source's last attempt (and success) back by `intervals`: as if time had passed. */
async function age(dataSource: DataSource, intervals: number): Promise<void> {
  const ms = intervals * INTERVAL_S * 1000;
  await dataSource.query(
    `UPDATE sources SET last_attempt_at = last_attempt_at - ?,
     last_success_at = CASE WHEN last_success_at IS NULL THEN NULL ELSE last_success_at - ? END`,
    [ms, ms],
  );
}

describe('scheduled sync (SYNC_SOURCES, SYNC_INTERVAL)', () => {
  const sources = new SourceServer();
  let covid = { body: V1, etag: '"v1"', modified: 'Mon, 01 Jan 2024 00:00:00 GMT' };
  let t: TestApp;
  let sync: SyncService;
  const covidUrl = () => sources.url('/covid.csv');
  const mpoxUrl = () => sources.url('/mpox.csv');
  const listed = async () => {
    const res = await t.http.get('/api/sources').set(t.auth());
    expect(res.status).toBe(200);
    return res.body as { sync: Record<string, unknown>; sources: Record<string, unknown>[] };
  };
  const covidSource = async () => (await listed()).sources.find((s) => s.dataset === 'covid')!;
  const totals = async () => (await t.http.get('/api/covid/public/totals')).body as unknown;

  beforeAll(async () => {
    await flushRedisDb(REDIS_URL);
    sources.routes['/covid.csv'] = fileRoute(() => covid);
    sources.routes['/mpox.csv'] = fileRoute(() => ({
      body: MPOX,
      etag: '"m1"',
      modified: 'Mon, 01 Jan 2024 00:00:00 GMT',
    }));
    await sources.start();
    t = await bootTestApp({
      REDIS_URL,
      SYNC_SOURCES: `covid=${covidUrl()},mpox=${mpoxUrl()}`,
      SYNC_INTERVAL: `${INTERVAL_S}s`,
    });
    sync = t.app.get(SyncService);
  });
  afterAll(async () => {
    await t?.close();
    await sources.stop();
  });

  it('runs shortly after start-up and /api/sources tells what it did', async () => {
    const before = await listed();
    expect(before.sync).toEqual({
      enabled: true,
      interval: '30s',
      interval_seconds: 30,
      running: expect.any(Boolean),
      next_run_at: expect.any(String),
    });
    let seen: unknown;
    const done = async () => {
      const now = await listed();
      seen = now;
      return !now.sync.running && now.sources.every((s) => s.outcome === 'updated');
    };
    // The first run is due 3 s after start-up; a loaded CI host has taken longer than 15 s, so
    // the wait is long and a failure shows what the sources said last (outcome, last_error).
    if (!(await eventually(done, { attempts: 350 }))) {
      throw new Error(`the first sync did not finish: ${JSON.stringify(seen)}`);
    }
    const body = await listed();
    expect(body.sources).toEqual([
      {
        dataset: 'covid',
        url: covidUrl(),
        scheduled: true,
        last_attempt_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        last_success_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        outcome: 'updated',
        rows_inserted: 2,
        rows_updated: 0,
        rows_unchanged: 0,
        rows_skipped: 0,
        figures_corrected: 0,
        last_import_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        last_error: null,
        next_run_at: body.sync.next_run_at,
      },
      expect.objectContaining({ dataset: 'mpox', outcome: 'updated', rows_inserted: 1 }),
    ]);
    // Its revisions name the sync and carry the import's id.
    const carried = await t.dataSource.query<{ actor: string; request_id: string }[]>(
      'SELECT DISTINCT actor, request_id FROM covid_revisions',
    );
    expect(carried).toEqual([
      { actor: `sync:${covidUrl()}`, request_id: body.sources[0].last_import_id },
    ]);
    // Runs fall on the interval's slots, the same on every instance.
    expect(Date.parse(body.sync.next_run_at as string) % (INTERVAL_S * 1000)).toBe(0);
    expect(await totals()).toEqual({ total_cases: 15, total_deaths: 2 });
    const health = await t.http.get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({
      status: 'ok',
      database: 'up',
      redis: 'up',
      data: 'fresh',
      data_age_seconds: expect.any(Number),
    });
  });

  it('runs once per slot: a second run in the same slot does nothing', async () => {
    const requests = sources.routes['/covid.csv'].seen.length;
    expect(await sync.runOnce()).toBe('done-elsewhere');
    expect(sources.routes['/covid.csv'].seen.length).toBe(requests);
  });

  it('writes nothing when the source answers 304', async () => {
    await age(t.dataSource, 1);
    const stored = await snapshot(t.dataSource);
    expect(await sync.runOnce()).toBe('ran');
    expect(sources.routes['/covid.csv'].seen.at(-1)).toMatchObject({ 'if-none-match': '"v1"' });
    expect(await snapshot(t.dataSource)).toBe(stored);
    expect(await covidSource()).toMatchObject({
      outcome: 'unchanged',
      rows_inserted: 0,
      rows_updated: 0,
      rows_unchanged: 0,
      last_error: null,
    });
  });

  it('writes only the changed rows when the file changes, served at once', async () => {
    expect(await totals()).toEqual({ total_cases: 15, total_deaths: 2 });
    covid = { body: V2, etag: '"v2"', modified: 'Wed, 03 Jan 2024 00:00:00 GMT' };
    await age(t.dataSource, 1);
    expect(await sync.runOnce()).toBe('ran');
    expect(await covidSource()).toMatchObject({
      outcome: 'updated',
      rows_inserted: 1,
      rows_updated: 1,
      rows_unchanged: 1,
    });
    expect(await totals()).toEqual({ total_cases: 20, total_deaths: 3 });
  });

  it('records a failure, writes nothing, keeps serving, and health stays 200', async () => {
    sources.routes['/covid.csv'] = {
      seen: [],
      answer: (res) => void res.writeHead(404).end('gone'),
    };
    const stored = await snapshot(t.dataSource);
    await age(t.dataSource, 1);
    expect(await sync.runOnce()).toBe('ran');
    const source = await covidSource();
    expect(source).toMatchObject({
      outcome: 'failed',
      last_error: `${covidUrl()} answered HTTP 404 Not Found`,
    });
    expect(source.last_success_at).not.toBe(source.last_attempt_at);
    expect(await snapshot(t.dataSource)).toBe(stored);
    expect((await t.http.get('/api/health')).body).toMatchObject({ status: 'ok', data: 'fresh' });
  });

  it('reports stale data once the last success is older than three intervals', async () => {
    await age(t.dataSource, 4);
    const health = await t.http.get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', data: 'stale' });
    expect(health.body.data_age_seconds).toBeGreaterThanOrEqual(4 * INTERVAL_S);
  });

  it('skips the run while another instance holds the lock', async () => {
    // No scheduled run in the count: on a slow host the suite outlasts an interval.
    const scheduler = t.app.get(SchedulerRegistry);
    for (const name of scheduler.getTimeouts()) scheduler.deleteTimeout(name);
    expect(await eventually(async () => (await listed()).sync.running === false)).toBe(true);
    await age(t.dataSource, 1);
    const requests = sources.routes['/mpox.csv'].seen.length;
    const release = await holdLock(t);
    try {
      expect(await sync.runOnce()).toBe('busy');
    } finally {
      await release();
    }
    expect(sources.routes['/mpox.csv'].seen.length).toBe(requests);
    expect(await sync.runOnce()).toBe('ran');
    expect(sources.routes['/mpox.csv'].seen.length).toBe(requests + 1);
  });

  it('asks for a token', async () => {
    const res = await t.http.get('/api/sources');
    expect(res.status).toBe(401);
  });
});

/** Takes the sync lock as another instance would: MySQL's named lock, or the Redis key. */
async function holdLock(t: TestApp): Promise<() => Promise<void>> {
  const { db } = t.config;
  if (db.type === 'mysql') {
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    const name = `covid-api-sync:${db.name}`.slice(0, 64);
    await runner.query('SELECT GET_LOCK(?, 0)', [name]);
    return async () => {
      await runner.query('SELECT RELEASE_LOCK(?)', [name]);
      await runner.release();
    };
  }
  const redis = new Redis(REDIS_URL);
  const key = `covid-api-sync:${db.path}`.slice(0, 64);
  await redis.set(key, 'someone-else', 'PX', 60_000);
  return async () => {
    await redis.del(key);
    await redis.quit();
  };
}

describe('an instance without scheduled sync', () => {
  it('logs once how to load data when the store is empty, and not otherwise', async () => {
    const lines: string[] = [];
    const hint = () => lines.filter((line) => line.includes('the store is empty')).length;
    const t = await bootTestApp(
      { LOG_LEVEL: 'info' },
      { logDestination: { write: (line: string) => void lines.push(line) } },
    );
    try {
      expect(hint()).toBe(1);
      expect(lines.find((line) => line.includes('the store is empty'))).toContain(
        'npm run cli -- import covid|mpox <file-or-URL>',
      );
      await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .send({
          date: '2024-01-01',
          country: 'France',
          total_cases: 1,
          new_cases: 1,
          total_deaths: 0,
          new_deaths: 0,
        })
        .expect(201);
      const again = await bootTestApp(
        { LOG_LEVEL: 'info' },
        { logDestination: { write: (line: string) => void lines.push(line) } },
        t,
      );
      await again.close();
      expect(hint()).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('lists no sources and says nothing of the data in health', async () => {
    const t = await bootTestApp();
    try {
      const res = await t.http.get('/api/sources').set(t.auth());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        sync: {
          enabled: false,
          interval: null,
          interval_seconds: null,
          running: false,
          next_run_at: null,
        },
        sources: [],
      });
      expect((await t.http.get('/api/health')).body).toEqual({ status: 'ok', database: 'up' });
    } finally {
      await t.close();
    }
  });
});
