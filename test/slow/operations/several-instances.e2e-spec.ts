import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { MESSAGES } from '@app/common';
import { CHANGE_CHANNELS, RedisConnections } from '@app/messaging';
import { RecordChangeService } from '@app/diseases';
import { databaseEnv, eventually, runCli } from '../../support/cli';
import { flushRedisDb } from '../../support/cli-test-bed';
import { TestApp, bootTestApp } from '../../support/test-app';

/** Our own Redis logical database, flushed at the start. */
const REDIS_URL = 'redis://127.0.0.1:6379/2';
const LIMIT = 12;

async function statusesAcross(instances: TestApp[], requests: number) {
  const responses = await Promise.all(
    Array.from({ length: requests }, (_, i) =>
      instances[i % instances.length].http
        .get('/api/covid/data?limit=1')
        .set(instances[0].auth('alice')),
    ),
  );
  for (const res of responses.filter((r) => r.status === 429)) {
    expect(res.body).toEqual({ error: MESSAGES.tooManyRequests });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  }
  return {
    ok: responses.filter((r) => r.status === 200).length,
    limited: responses.filter((r) => r.status === 429).length,
  };
}

describe('several instances', () => {
  beforeAll(() => flushRedisDb(REDIS_URL));

  it('share one rate-limit budget per client through Redis (REDIS_URL)', async () => {
    const env = { REDIS_URL, THROTTLE_LIMIT: String(LIMIT), THROTTLE_TTL: '60' };
    const instances = [await bootTestApp(env), await bootTestApp(env)];
    try {
      const { ok, limited } = await statusesAcross(instances, 3 * LIMIT);
      expect(ok).toBe(LIMIT);
      expect(limited).toBe(2 * LIMIT);
      // Each instance served part of the budget and refuses now.
      for (const t of instances) {
        expect((await t.http.get('/api/stats/summary').set(t.auth('alice'))).status).toBe(429);
        // Another client has its own budget.
        expect((await t.http.get('/api/stats/summary').set(t.auth('bob'))).status).toBe(200);
      }
    } finally {
      await Promise.all(instances.map((t) => t.close()));
    }
  });

  it('without REDIS_URL each instance counts alone (what Redis prevents)', async () => {
    const env = { THROTTLE_LIMIT: String(LIMIT), THROTTLE_TTL: '60' };
    const instances = [await bootTestApp(env), await bootTestApp(env)];
    try {
      const { ok } = await statusesAcross(instances, 3 * LIMIT);
      expect(ok).toBe(2 * LIMIT);
    } finally {
      await Promise.all(instances.map((t) => t.close()));
    }
  });

  it('hold two Redis connections each, named after the instance, closed when it stops', async () => {
    const t = await bootTestApp({ REDIS_URL });
    const prefix = `covid-api:${t.app.get(RedisConnections).instance}:`;
    const redis = new Redis(REDIS_URL);
    // Rate-limit counters, health probe and announcements share one; both channels the other.
    const connections = async () =>
      String(await redis.client('LIST'))
        .split('\n')
        .map((line) => /\bname=(\S*)/.exec(line)?.[1] ?? '')
        .filter((name) => name.startsWith(prefix))
        .sort();
    try {
      expect(await t.app.get(RecordChangeService).listening()).toBe(true);
      expect(await connections()).toEqual([`${prefix}commands`, `${prefix}events`]);
      // The health probe asks Redis on the commands connection.
      expect((await t.http.get('/api/health')).body).toEqual({
        status: 'ok',
        database: 'up',
        redis: 'up',
      });
    } finally {
      await t.close();
    }
    expect(await eventually(async () => (await connections()).length === 0)).toBe(true);
    await redis.quit();
  });

  describe('cached reads (CACHE_TTL_MS of an hour)', () => {
    // A Redis database of their own: the tests above leave alice's budget spent in theirs.
    const REDIS_URL = 'redis://127.0.0.1:6379/3';
    beforeAll(() => flushRedisDb(REDIS_URL));

    const record = (date: string, totalCases: number) => ({
      date,
      country: 'Chile',
      total_cases: totalCases,
      new_cases: 1,
      total_deaths: 1,
      new_deaths: 0,
    });
    const totalsOf = async (t: TestApp) =>
      ((await t.http.get('/api/covid/public/totals')).body as { total_cases: number }).total_cases;
    const listedOn = async (t: TestApp) =>
      ((await t.http.get('/api/covid/data').set(t.auth())).body as unknown[]).length;

    const create = (t: TestApp, totalCases: number) =>
      t.http.post('/api/covid/data').set(t.auth()).send(record('2021-01-01', totalCases));
    /** Polls (every 20 ms, 2 s at most): true once `t` answers these totals. */
    const totalsBecome = (t: TestApp, totalCases: number) =>
      eventually(async () => (await totalsOf(t)) === totalCases, { everyMs: 20, attempts: 100 });

    /**
     * Two instances on one database; the second one has read (and cached) the empty tables
     * before `run`. Both are closed afterwards.
     */
    async function withPair(
      env: Record<string, string>,
      run: (a: TestApp, b: TestApp) => Promise<void>,
    ): Promise<void> {
      const a = await bootTestApp({ CACHE_TTL_MS: '3600000', ...env });
      const b = await bootTestApp({ CACHE_TTL_MS: '3600000', ...env }, {}, a);
      try {
        expect(await b.app.get(RecordChangeService).listening()).toBe('REDIS_URL' in env);
        expect(await totalsOf(b)).toBe(0);
        expect(await listedOn(b)).toBe(0);
        await run(a, b);
      } finally {
        await b.close();
        await a.close();
      }
    }

    it("show another instance's writes at once through Redis (REDIS_URL)", () =>
      withPair({ REDIS_URL }, async (a, b) => {
        const created = await create(a, 10);
        expect(created.status).toBe(201);
        expect(await totalsBecome(b, 10)).toBe(true);
        expect(await listedOn(b)).toBe(1);

        const id = created.body.id as number;
        expect((await a.http.delete(`/api/covid/data/${id}`).set(a.auth())).status).toBe(200);
        expect(await totalsBecome(b, 0)).toBe(true);
        expect(await listedOn(b)).toBe(0);
      }));

    it("show the admin command line's imports at once through Redis (REDIS_URL)", () =>
      withPair({ REDIS_URL }, async (a, b) => {
        const dir = mkdtempSync(join(tmpdir(), 'covid-instances-'));
        try {
          const file = join(dir, 'covid.csv');
          writeFileSync(
            file,
            'date,country,total_cases,new_cases,total_deaths,new_deaths\n' +
              '2021-01-01,Chile,7,7,0,0\n2021-01-01,Peru,5,5,0,0\n',
          );
          const env = { ...databaseEnv(a.config.db), REDIS_URL };
          expect((await runCli(['import', 'covid', file], env)).code).toBe(0);
          expect(await totalsBecome(b, 12)).toBe(true);
          expect(await listedOn(b)).toBe(2);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }));

    it('hear announcements once a Redis that was down at start-up comes up', async () => {
      // Our port range; a Redis server of this test's own, started after the instance.
      const port = 3296;
      const url = `redis://127.0.0.1:${port}`;
      const t = await bootTestApp({ CACHE_TTL_MS: '3600000', REDIS_URL: url });
      let server: ReturnType<typeof spawn> | undefined;
      const dir = mkdtempSync(join(tmpdir(), 'covid-late-redis-'));
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      probe.on('error', () => undefined);
      try {
        // The first subscription was refused: Redis is down.
        expect(await t.app.get(RecordChangeService).listening()).toBe(false);
        expect((await t.http.get('/api/health')).body).toEqual({
          status: 'degraded',
          database: 'up',
          redis: 'down',
        });
        expect(await totalsOf(t)).toBe(0);

        server = spawn(
          'redis-server',
          ['--port', String(port), '--save', '', '--appendonly', 'no'],
          {
            stdio: 'ignore',
          },
        );
        const subscribers = async () => {
          if (probe.status !== 'ready') await probe.connect().catch(() => undefined);
          const counts = (await probe
            .pubsub('NUMSUB', CHANGE_CHANNELS.records, CHANGE_CHANNELS.tokens)
            .catch(() => [])) as (string | number)[];
          return counts.filter((_, i) => i % 2 === 1).map(Number);
        };
        expect(await eventually(async () => JSON.stringify(await subscribers()) === '[1,1]')).toBe(
          true,
        );
        expect(
          await eventually(async () => (await t.http.get('/api/health')).body.status === 'ok'),
        ).toBe(true);

        const file = join(dir, 'covid.csv');
        writeFileSync(
          file,
          'date,country,total_cases,new_cases,total_deaths,new_deaths\n2021-01-01,Chile,7,7,0,0\n',
        );
        const env = { ...databaseEnv(t.config.db), REDIS_URL: url };
        expect((await runCli(['import', 'covid', file], env)).code).toBe(0);
        expect(await totalsBecome(t, 7)).toBe(true);
      } finally {
        probe.disconnect();
        await t.close();
        server?.kill();
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('without REDIS_URL, keep serving what they cached (what Redis prevents)', () =>
      withPair({}, async (a, b) => {
        expect((await create(a, 10)).status).toBe(201);
        expect(await totalsOf(a)).toBe(10);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(await totalsOf(b)).toBe(0);
        expect(await listedOn(b)).toBe(0);
      }));
  });
});
