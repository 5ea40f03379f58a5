/**
 * The database goes away in the middle of a load, then comes back.
 *
 * With `DB_TYPE=mysql` the app runs on a MariaDB server of the test's own (port 3407, temporary
 * data directory; never the shared server), which the test pauses (SIGSTOP: the database hangs),
 * resumes, kills (SIGKILL: connections refused) and restarts. With SQLite (the default suite) the
 * test locks the database file from another connection, as another process would.
 *
 * Every request must answer, 2xx or a 503 JSON error, within a bound (no hang); health turns 503;
 * once the database is back the same process answers 200 again; and every write acknowledged
 * with 201 is in the database afterwards.
 */
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { performance } from 'node:perf_hooks';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { MESSAGES } from '@app/common';
import { loadConfig } from '@app/config';
import { createApp } from '@api/bootstrap';
import { DedicatedMariaDb } from '../../support/dedicated-mariadb';
import { SqliteFile, openSqliteFile } from '../../support/sqlite-file';
import { TEST_DB_TYPE, createTestDatabase } from '../../support/test-database';
import { TOKENS } from '../../support/test-app';

/**
 * The database timeout the app runs with in this test (`DB_TIMEOUT_MS`). SQLite's driver is
 * synchronous: a busy wait blocks the whole process, so the SQLite run keeps it short and the
 * load light.
 */
const DB_TIMEOUT_MS = TEST_DB_TYPE === 'mysql' ? 1000 : 250;
const WORKERS = TEST_DB_TYPE === 'mysql' ? 8 : 3;
/** No request may take longer: the request deadline (2 × DB_TIMEOUT_MS) plus generous slack. */
const REQUEST_BOUND_MS = 2 * DB_TIMEOUT_MS + 3000;
const AUTH = { Authorization: `Bearer ${TOKENS.alice}` };

interface Outcome {
  /** The phase when the request was sent, and when its answer came. */
  phase: string;
  endPhase: string;
  op: string;
  status: number;
  ms: number;
  body: unknown;
}

interface Posted {
  id: number;
  country: string;
  date: string;
  total_cases: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Workers that send a mix of writes and reads until stopped, recording every outcome. */
class Load {
  phase = 'healthy';
  readonly outcomes: Outcome[] = [];
  readonly acknowledged: Posted[] = [];
  private running = false;
  private workers: Promise<void>[] = [];
  private sequence = 0;

  constructor(private readonly http: TestAgent) {}

  start(workers: number): void {
    this.running = true;
    this.workers = Array.from({ length: workers }, (_, i) => this.work(i));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  /** Requests sent during `phase` (with `within`: and answered before it ended). */
  in(phase: string, within = false): Outcome[] {
    return this.outcomes.filter((o) => o.phase === phase && (!within || o.endPhase === phase));
  }

  private async work(worker: number): Promise<void> {
    for (let i = 0; this.running && i < 100_000; i++) {
      const n = this.sequence++;
      const op = ['post', 'latest', 'list', 'stats', 'post'][(worker + i) % 5];
      const phase = this.phase;
      const started = performance.now();
      let status = 0;
      let body: unknown;
      const values = {
        date: '2021-05-01',
        country: `Outage-${n}`,
        total_cases: n,
        new_cases: 1,
        total_deaths: 0,
        new_deaths: 0,
      };
      try {
        const call =
          op === 'post'
            ? this.http.post('/api/covid/data').set(AUTH).send(values)
            : op === 'latest'
              ? this.http.get('/api/covid/public/latest')
              : op === 'list'
                ? this.http.get('/api/covid/data?limit=5').set(AUTH)
                : this.http.get('/api/stats/summary').set(AUTH);
        const res = await call.timeout(REQUEST_BOUND_MS);
        status = res.status;
        body = res.body;
        if (op === 'post' && status === 201) {
          this.acknowledged.push({ id: (body as { id: number }).id, ...values });
        }
      } catch (error) {
        body = String(error); // a hang past the bound, or a dropped connection: status 0
      }
      this.outcomes.push({
        phase,
        endPhase: this.phase,
        op,
        status,
        ms: performance.now() - started,
        body,
      });
      if (status !== 201 && status !== 200) await sleep(20);
    }
  }
}

describe(`database outage (${TEST_DB_TYPE})`, () => {
  let app: NestFastifyApplication;
  let http: TestAgent;
  let load: Load;
  const timings: Record<string, number> = {};
  let cleanup: () => Promise<void> = () => Promise.resolve();
  /** Brings the database back whatever state a failed test left it in. */
  let rescue: () => Promise<void> = () => Promise.resolve();
  /** The database's own view of the records, read without the app. */
  let storedRows: () => Promise<Posted[]>;
  /** How the database goes away and comes back; `healthDown`: health must turn 503 meanwhile. */
  let scenarios: {
    name: string;
    healthDown: boolean;
    break: () => Promise<void>;
    restore: () => Promise<void>;
  }[];

  beforeAll(async () => {
    const env: Record<string, string> = {
      API_TOKENS: `alice:${TOKENS.alice}`,
      THROTTLE_LIMIT: '1000000',
      LOG_LEVEL: 'silent',
      DB_TIMEOUT_MS: String(DB_TIMEOUT_MS),
    };
    if (TEST_DB_TYPE === 'mysql') {
      const server = new DedicatedMariaDb();
      await server.install();
      await server.start();
      await server.query('CREATE DATABASE covid_outage CHARACTER SET utf8mb4');
      Object.assign(env, {
        DB_TYPE: 'mysql',
        DB_HOST: '127.0.0.1',
        DB_PORT: String(server.port),
        DB_NAME: 'covid_outage',
      });
      storedRows = () =>
        server.query<Posted[]>(
          'SELECT id, country, date, total_cases FROM covid_outage.covid_data ORDER BY id',
        );
      scenarios = [
        {
          name: 'hang (SIGSTOP)',
          healthDown: true,
          break: () => Promise.resolve(server.pause()),
          restore: () => Promise.resolve(server.resume()),
        },
        {
          name: 'refuse (SIGKILL)',
          healthDown: true,
          break: () => server.kill(),
          restore: () => server.start(),
        },
      ];
      cleanup = () => server.destroy();
      rescue = () => Promise.resolve(server.resume());
    } else {
      const database = await createTestDatabase('sqlite');
      let locker: SqliteFile | undefined;
      Object.assign(env, { DB_TYPE: 'sqlite', DB_PATH: database.config.path });
      storedRows = () => {
        const reader = openSqliteFile(database.config.path, { readonly: true });
        try {
          return Promise.resolve(
            reader
              .prepare('SELECT id, country, date, total_cases FROM covid_data ORDER BY id')
              .all() as Posted[],
          );
        } finally {
          reader.close();
        }
      };
      // Another process (an import, a backup) holds the write lock: writes cannot go through,
      // reads still can (WAL), so health stays 200.
      const release = () => {
        locker?.exec('ROLLBACK');
        locker?.close();
        locker = undefined;
        return Promise.resolve();
      };
      scenarios = [
        {
          name: 'write lock held',
          healthDown: false,
          break: () => {
            locker = openSqliteFile(database.config.path);
            locker.exec('BEGIN IMMEDIATE');
            return Promise.resolve();
          },
          restore: release,
        },
      ];
      rescue = () => release().catch(() => undefined);
      cleanup = async () => {
        await database.drop();
      };
    }
    app = await createApp(loadConfig(env));
    await app.listen(0, '127.0.0.1');
    http = request(await app.getUrl());
    load = new Load(http);
  });

  afterAll(async () => {
    await rescue().catch(() => undefined);
    await load?.stop();
    await app?.close();
    await cleanup();
  });

  async function health(): Promise<{ status: number; body: unknown; ms: number }> {
    const started = performance.now();
    const res = await http.get('/api/health').timeout(REQUEST_BOUND_MS);
    return { status: res.status, body: res.body, ms: performance.now() - started };
  }

  /** Polls health until it answers `status` (bounded); returns how long that took. */
  async function until(status: number, limitMs = 60_000): Promise<number> {
    const started = performance.now();
    while (performance.now() - started < limitMs) {
      if ((await health()).status === status) return performance.now() - started;
      await sleep(100);
    }
    throw new Error(`health did not answer ${status} within ${limitMs} ms`);
  }

  /** Requests sent and answered within `phase` got only `allowed` statuses. */
  function expectOnly(phase: string, allowed: number[]): void {
    const outcomes = load.in(phase, true);
    expect(outcomes.length).toBeGreaterThan(0);
    const unexpected = outcomes.filter((o) => !allowed.includes(o.status));
    expect({ phase, unexpected: unexpected.slice(0, 5) }).toEqual({ phase, unexpected: [] });
  }

  function expectOutage(phase: string): void {
    expectOnly(phase, [200, 201, 503]);
    const refused = load.in(phase).filter((o) => o.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) expect(o.body).toEqual({ error: MESSAGES.databaseUnavailable });
    timings[`${phase}: slowest request (ms)`] = Math.round(
      Math.max(...load.in(phase).map((o) => o.ms)),
    );
  }

  it('answers 503 quickly while the database is gone and recovers without a restart', async () => {
    load.start(WORKERS);
    await sleep(1500);
    expect((await health()).status).toBe(200);

    for (const scenario of scenarios) {
      const how = scenario.name;
      load.phase = `${how}: database gone`;
      await scenario.break();
      if (scenario.healthDown) {
        timings[`${how}: health turned 503 after (ms)`] = Math.round(await until(503));
        expect(await health()).toMatchObject({
          status: 503,
          body: { status: 'unavailable', database: 'down' },
        });
      }
      await sleep(4 * DB_TIMEOUT_MS + 1000);
      if (!scenario.healthDown) expect((await health()).status).toBe(200);
      if (TEST_DB_TYPE === 'mysql') {
        // A burst far above the pool size (10): requests queue for a connection, and still
        // answer within the bound.
        const burst = await Promise.all(
          Array.from({ length: 60 }, async () => {
            const started = performance.now();
            const res = await http.get('/api/covid/public/totals').timeout(REQUEST_BOUND_MS);
            return { status: res.status, ms: performance.now() - started };
          }),
        );
        expect(burst.filter((r) => r.status !== 503)).toEqual([]);
        timings[`${how}: slowest of a burst of 60 (ms)`] = Math.round(
          Math.max(...burst.map((r) => r.ms)),
        );
      }
      expectOutage(load.phase);

      load.phase = `${how}: coming back`;
      await scenario.restore();
      timings[`${how}: health back to 200 after (ms)`] = Math.round(await until(200));
      load.phase = `${how}: back`;
      await sleep(1500);
      expectOnly(load.phase, [200, 201]);
    }
    await load.stop();

    // No request hung: every one got an HTTP answer within the bound.
    const hung = load.outcomes.filter((o) => o.status === 0);
    expect(hung).toEqual([]);
    expect(load.outcomes.filter((o) => o.status >= 500 && o.status !== 503)).toEqual([]);
    expectOnly('healthy', [200, 201]);

    // Every acknowledged write is stored, as acknowledged.
    const rows = new Map((await storedRows()).map((row) => [Number(row.id), row]));
    const lost = load.acknowledged.filter((posted) => {
      const row = rows.get(posted.id);
      return (
        !row || row.country !== posted.country || Number(row.total_cases) !== posted.total_cases
      );
    });
    expect(lost).toEqual([]);

    const statuses = new Map<string, number>();
    for (const o of load.outcomes)
      statuses.set(`${o.status}`, (statuses.get(`${o.status}`) ?? 0) + 1);
    process.stdout.write(
      `outage (${TEST_DB_TYPE}, DB_TIMEOUT_MS=${DB_TIMEOUT_MS}): ${load.outcomes.length} requests ` +
        `(${[...statuses].map(([s, n]) => `${s}×${n}`).join(' ')}), ` +
        `${load.acknowledged.length} acknowledged writes all stored; ` +
        `${Object.entries(timings)
          .map(([k, v]) => `${k} ${v}`)
          .join('; ')}\n`,
    );
  });
});
