import { MESSAGES } from '@app/common';
import { AllExceptionsFilter } from '@api/common/all-exceptions.filter';
import { Response } from 'supertest';
import { TokenService } from '@api/auth/token.service';
import { databaseEnv, runCli } from '../../support/cli';
import { flushRedisDb } from '../../support/cli-test-bed';
import { recordBody } from '../../support/fixtures';
import { openSqliteFile } from '../../support/sqlite-file';
import { TestApp, bootTestApp } from '../../support/test-app';
import { ClientThrottlerGuard } from '@api/rate-limit/client-throttler.guard';

interface LogLine {
  requestId?: string;
  status?: number;
  cache?: string;
  client?: string | null;
  level?: string;
  context?: string;
  msg?: string;
}

const record = (date: string, country: string, totalCases: number) =>
  recordBody({ date, country, total_cases: totalCases, total_deaths: 1 });

/** Boots the app with its request log lines captured. */
async function bootLogged(env: Record<string, string>) {
  const raw: string[] = [];
  const t = await bootTestApp(
    { LOG_LEVEL: 'info', ...env },
    { logDestination: { write: (line: string) => raw.push(line) } },
  );
  const lines = (): LogLine[] =>
    raw
      .flatMap((chunk) => chunk.split('\n').filter(Boolean))
      .map((line) => JSON.parse(line) as LogLine);
  /** The log line of the request that `response` answered. */
  const lineOf = (response: Response): LogLine | undefined =>
    lines().find((line) => line.requestId === response.headers['x-request-id']);
  /** Whether the answer came from the response cache (its log line says `cache: "hit"`). */
  const fromMemory = (response: Response): boolean => {
    const line = lineOf(response);
    if (line === undefined) throw new Error('no log line for this request');
    return line.cache === 'hit';
  };
  return { t, fromMemory, lineOf, lines };
}

/** The headers of an answer, without those that differ on every request. */
const stableHeaders = (response: Response): Record<string, string> => {
  const headers = { ...(response.headers as Record<string, string>) };
  delete headers.date;
  delete headers['x-request-id'];
  delete headers['x-ratelimit-remaining'];
  // Seconds left in the caller's window: another caller's, or a second later, may differ by one.
  delete headers['x-ratelimit-reset'];
  return headers;
};

const ORIGIN = 'https://dashboard.example.com';
const REDIS_URL = 'redis://127.0.0.1:6379/7';

describe('response cache (public answers served before Nest)', () => {
  describe('with the defaults', () => {
    let t: TestApp;
    let fromMemory: (response: Response) => boolean;
    let lineOf: (response: Response) => LogLine | undefined;
    beforeAll(async () => {
      ({ t, fromMemory, lineOf } = await bootLogged({ CORS_ORIGINS: ORIGIN }));
      for (const body of [record('2021-01-01', 'France', 10), record('2021-01-02', 'Chile', 20)]) {
        expect((await t.http.post('/api/covid/data').set(t.auth()).send(body)).status).toBe(201);
      }
      const mpox = record('2022-06-01', 'Peru', 5);
      expect((await t.http.post('/api/mpox/data').set(t.auth()).send(mpox)).status).toBe(201);
    });
    afterAll(() => t.close());

    it.each([
      '/api/covid/public/latest',
      '/api/covid/public/totals',
      '/api/covid/public/country/France',
      '/api/covid/public/country/%20chile%20',
      '/api/mpox/public/summary',
      '/api/covid/public/latest?_=2',
    ])('answers %s again from memory, with the same status, headers and bytes', async (url) => {
      const first = await t.http.get(url).set('Origin', ORIGIN);
      const again = await t.http.get(url).set('Origin', ORIGIN);
      expect(first.status).toBe(200);
      expect(fromMemory(first)).toBe(false);
      expect(fromMemory(again)).toBe(true);
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text);
      expect(stableHeaders(again)).toEqual(stableHeaders(first));
      expect(Object.keys(again.headers).sort()).toEqual(Object.keys(first.headers).sort());
      expect(again.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(again.headers['x-content-type-options']).toBe('nosniff');
      expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
      // The hit was counted against the caller's budget like any other request.
      expect(Number(again.headers['x-ratelimit-remaining'])).toBe(
        Number(first.headers['x-ratelimit-remaining']) - 1,
      );
    });

    it('counts answers from memory without a promise (the rate limit decides at once)', async () => {
      const url = '/api/covid/public/country/France?_=immediate';
      const verdicts = jest.spyOn(ClientThrottlerGuard.prototype, 'canActivateNow');
      try {
        await t.http.get(url);
        const again = await t.http.get(url).set(t.auth());
        expect(fromMemory(again)).toBe(true);
        // Not left to the library's promise: the speed device still applies to the public routes.
        expect(verdicts.mock.results.map((result) => result.value as unknown)).toEqual([true]);
      } finally {
        verdicts.mockRestore();
      }
    });

    it.each([
      '/api/covid/data?country=France&limit=100',
      '/api/covid/data',
      '/api/mpox/data?limit=5&offset=0',
    ])('answers the list %s again from memory to a caller with a token', async (url) => {
      const first = await t.http.get(url).set(t.auth()).set('Origin', ORIGIN);
      const again = await t.http.get(url).set(t.auth('bob')).set('Origin', ORIGIN);
      expect(first.status).toBe(200);
      expect((first.body as unknown[]).length).toBeGreaterThan(0);
      expect([fromMemory(first), fromMemory(again)]).toEqual([false, true]);
      expect([lineOf(first)?.client, lineOf(again)?.client]).toEqual(['alice', 'bob']);
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text);
      expect(stableHeaders(again)).toEqual(stableHeaders(first));
      expect(Object.keys(again.headers).sort()).toEqual(Object.keys(first.headers).sort());
      expect(again.headers['access-control-allow-origin']).toBe(ORIGIN);
    });

    it('asks every caller of a kept list for a token: the same 401s as through Nest', async () => {
      const url = '/api/covid/data?country=Chile';
      const kept = await t.http.get(url).set(t.auth());
      expect([kept.status, fromMemory(kept)]).toEqual([200, false]);
      expect(fromMemory(await t.http.get(url).set(t.auth()))).toBe(true);

      for (const [headers, message] of [
        [{}, MESSAGES.noToken],
        [{ Authorization: 'Bearer wrong-token-0123456789' }, MESSAGES.invalidToken],
        [{ Authorization: t.auth().Authorization.slice(0, -1) }, MESSAGES.invalidToken],
      ] as const) {
        const refused = await t.http.get(url).set(headers);
        // The same refusal on a list never answered, hence through Nest's router.
        const throughNest = await t.http.get('/api/covid/data?country=Peru').set(headers);
        expect(refused.status).toBe(401);
        expect(refused.body).toEqual({ error: message });
        expect(refused.headers['www-authenticate']).toBe('Bearer');
        expect(refused.text).toBe(throughNest.text);
        expect(stableHeaders(refused)).toEqual(stableHeaders(throughNest));
        expect([fromMemory(refused), fromMemory(throughNest)]).toEqual([false, false]);
      }
      const again = await t.http.get(url).set(t.auth());
      expect([again.status, fromMemory(again), again.text]).toEqual([200, true, kept.text]);
    });

    it('refuses a kept list to a token revoked meanwhile (admin command line)', async () => {
      // An instance of its own that keeps answers long enough for two runs of the command line.
      const own = await bootLogged({ CACHE_TTL_MS: '600000' });
      try {
        const env = databaseEnv(own.t.config.db);
        const created = await runCli(['tokens', 'create', 'kept-list'], env);
        expect(created.code).toBe(0);
        const bearer = { Authorization: `Bearer ${created.stdout.trim()}` };
        const tokens = own.t.app.get(TokenService);
        await tokens.refresh();
        const url = '/api/covid/data?limit=3';
        await own.t.http.get(url).set(own.t.auth());
        const served = await own.t.http.get(url).set(bearer);
        expect([served.status, own.fromMemory(served)]).toEqual([200, true]);

        expect((await runCli(['tokens', 'revoke', 'kept-list'], env)).code).toBe(0);
        await tokens.refresh();
        const refused = await own.t.http.get(url).set(bearer);
        expect(refused.status).toBe(401);
        expect(refused.body).toEqual({ error: MESSAGES.invalidToken });
        expect(own.fromMemory(refused)).toBe(false);
        expect(own.fromMemory(await own.t.http.get(url).set(own.t.auth()))).toBe(true);
      } finally {
        await own.t.close();
      }
    });

    it('never keeps a list longer than 100 records (read from the database every time)', async () => {
      for (const url of ['/api/covid/data?limit=101', '/api/covid/data?limit=100000000']) {
        const answers = [await t.http.get(url).set(t.auth()), await t.http.get(url).set(t.auth())];
        expect(answers.map((a) => [a.status, fromMemory(a)])).toEqual([
          [200, false],
          [200, false],
        ]);
        expect(answers[1].text).toBe(answers[0].text);
      }
    });

    it("shows this instance's writes at once in a kept list", async () => {
      const url = '/api/covid/data?country=france';
      const ids = async () => {
        const response = await t.http.get(url).set(t.auth());
        return {
          fromMemory: fromMemory(response),
          ids: (response.body as { id: number }[]).map((r) => r.id),
        };
      };
      // Until kept: an answer that expired is served once more, through Nest, while it is read again.
      let kept = await ids();
      for (let i = 0; i < 3 && !kept.fromMemory; i++) kept = await ids();
      expect(kept.fromMemory).toBe(true);
      const before = kept.ids;
      const created = await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .send(record('2021-02-01', 'France', 40));
      expect(created.status).toBe(201);
      expect(await ids()).toEqual({ fromMemory: false, ids: [created.body.id, ...before] });
      expect((await t.http.delete(`/api/covid/data/${created.body.id}`).set(t.auth())).status).toBe(
        200,
      );
      expect(await ids()).toEqual({ fromMemory: false, ids: before });
    });

    it("shows this instance's writes at once", async () => {
      let before = await t.http.get('/api/covid/public/totals');
      for (let i = 0; i < 3 && !fromMemory(before); i++) {
        before = await t.http.get('/api/covid/public/totals');
      }
      expect(fromMemory(before)).toBe(true);
      expect(before.body).toEqual({ total_cases: 30, total_deaths: 2 });

      const created = await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .send(record('2021-01-03', 'France', 15));
      expect(created.status).toBe(201);
      const after = await t.http.get('/api/covid/public/totals');
      expect(fromMemory(after)).toBe(false);
      expect(after.body).toEqual({ total_cases: 35, total_deaths: 2 });
      const latest = await t.http.get('/api/covid/public/latest');
      expect((latest.body as { id: number }[])[0].id).toBe(created.body.id);

      const deleted = await t.http.delete(`/api/covid/data/${created.body.id}`).set(t.auth());
      expect(deleted.status).toBe(200);
      expect((await t.http.get('/api/covid/public/totals')).body).toEqual({
        total_cases: 30,
        total_deaths: 2,
      });
      // The MPOX write changed nothing of COVID's, but is seen on its own route.
      await t.http.get('/api/mpox/public/summary');
      await t.http
        .post('/api/mpox/data')
        .set(t.auth())
        .send(record('2022-06-02', 'Peru', 7));
      const summary = await t.http.get('/api/mpox/public/summary');
      expect(fromMemory(summary)).toBe(false);
      expect(summary.body).toMatchObject({ total_cases: 7 });
    });

    it('keeps no error: a bad or unknown country is refused every time, through Nest', async () => {
      for (const url of [
        `/api/covid/public/country/${'x'.repeat(101)}`,
        '/api/covid/public/country/Atlantis',
      ]) {
        const first = await t.http.get(url);
        const again = await t.http.get(url);
        expect([first.status, again.status]).toEqual(
          url.includes('Atlantis') ? [404, 404] : [400, 400],
        );
        expect(again.body).toEqual(first.body);
        expect([fromMemory(first), fromMemory(again)]).toEqual([false, false]);
      }
      expect((await t.http.get('/api/covid/public/country/Atlantis')).body).toEqual({
        error: MESSAGES.countryNotFound,
      });
    });

    it('answers HEAD through Nest, with the headers of the GET and no body', async () => {
      const get = await t.http.get('/api/covid/public/latest');
      const head = await t.http.head('/api/covid/public/latest');
      expect(head.status).toBe(200);
      expect(fromMemory(head)).toBe(false);
      expect(head.text).toBeUndefined();
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['content-length']).toBe(get.headers['content-length']);
    });
  });

  it.each([
    ['in memory', {}],
    ['in Redis (REDIS_URL)', { REDIS_URL }],
  ])(
    'counts answers from memory in the rate limit (counters %s), and refuses them like any other',
    async (_counters, env: Record<string, string>) => {
      if (env.REDIS_URL) await flushRedisDb(REDIS_URL);
      const { t, fromMemory, lineOf } = await bootLogged({ THROTTLE_LIMIT: '3', ...env });
      try {
        const answers: Response[] = [];
        for (let i = 0; i < 3; i++) answers.push(await t.http.get('/api/covid/public/latest'));
        expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
        expect(answers.map(fromMemory)).toEqual([false, true, true]);
        expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0']);

        const refused = await t.http.get('/api/covid/public/latest');
        const refusedElsewhere = await t.http.get('/api/covid/public/country/Atlantis');
        for (const response of [refused, refusedElsewhere]) {
          expect(response.status).toBe(429);
          expect(response.body).toEqual({ error: MESSAGES.tooManyRequests });
          expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
          expect(response.headers['x-content-type-options']).toBe('nosniff');
          expect(lineOf(response)).toMatchObject({ status: 429 });
          expect(fromMemory(response)).toBe(false);
        }
        expect(stableHeaders(refused)).toEqual({
          ...stableHeaders(refusedElsewhere),
          'retry-after': refused.headers['retry-after'],
        });
      } finally {
        await t.close();
      }
    },
  );

  it("counts a kept list against its caller's own budget, and answers HEAD through Nest", async () => {
    const { t, fromMemory, lineOf } = await bootLogged({ THROTTLE_LIMIT: '3' });
    try {
      const url = '/api/covid/data?limit=10';
      const answers: Response[] = [];
      for (let i = 0; i < 3; i++) answers.push(await t.http.get(url).set(t.auth()));
      expect(
        answers.map((a) => [a.status, fromMemory(a), a.headers['x-ratelimit-remaining']]),
      ).toEqual([
        [200, false, '2'],
        [200, true, '1'],
        [200, true, '0'],
      ]);
      const refused = await t.http.get(url).set(t.auth());
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: MESSAGES.tooManyRequests });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(lineOf(refused)).toMatchObject({ status: 429, client: 'alice' });
      expect(fromMemory(refused)).toBe(false);

      // Another client has its own budget, and gets the kept answer.
      const other = await t.http.get(url).set(t.auth('bob'));
      expect([other.status, fromMemory(other), other.headers['x-ratelimit-remaining']]).toEqual([
        200,
        true,
        '2',
      ]);
      const head = await t.http.head(url).set(t.auth('bob'));
      expect([head.status, fromMemory(head), head.text]).toEqual([200, false, undefined]);
      expect(head.headers['content-length']).toBe(other.headers['content-length']);
    } finally {
      await t.close();
    }
  });

  it('answers a bare 500 and logs it if the exception filter itself fails on a refusal', async () => {
    const { t, fromMemory, lineOf, lines } = await bootLogged({ THROTTLE_LIMIT: '1' });
    try {
      const first = await t.http.get('/api/covid/public/latest');
      expect([first.status, fromMemory(first)]).toEqual([200, false]);
      // Fault injected into the one filter instance the app uses; the refusal it was to answer
      // is the rate limit's 429 of an answer kept in memory.
      const filter = t.app.get(AllExceptionsFilter);
      jest.spyOn(filter, 'catch').mockImplementation(() => {
        throw new Error('filter down');
      });
      const failed = await t.http.get('/api/covid/public/latest');
      expect(failed.status).toBe(500);
      expect(failed.body).toEqual({ error: MESSAGES.internal });
      expect(failed.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(lineOf(failed)).toMatchObject({ status: 500 });
      expect(lines().filter((line) => line.context === 'ResponseCache')).toEqual([
        expect.objectContaining({
          level: 'error',
          msg: `Cached answer failed (request ${failed.headers['x-request-id']}): Error filter down`,
        }),
      ]);
      // The process goes on serving.
      jest.restoreAllMocks();
      const after = await t.http.get('/api/covid/public/latest');
      expect(after.status).toBe(429);
      expect(after.body).toEqual({ error: MESSAGES.tooManyRequests });
    } finally {
      jest.restoreAllMocks();
      await t.close();
    }
  });

  it('follows the read cache: gone when CACHE_TTL_MS runs out, never kept with the cache off', async () => {
    const short = await bootLogged({ CACHE_TTL_MS: '1000' });
    try {
      const { t, fromMemory } = short;
      await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .send(record('2021-01-01', 'France', 10));
      await t.http.get('/api/covid/public/totals');
      // A write this instance does not hear of (another instance without Redis, the CLI): on its
      // own connection, as theirs, which SQLite's version of the records sees.
      const insert = `INSERT INTO covid_data (date, country, country_key, total_cases, new_cases, total_deaths, new_deaths)
         VALUES ('2021-01-01', 'Peru', 'peru', 1000, 0, 0, 0)`;
      if (t.config.db.type === 'mysql') {
        await t.dataSource.query(insert);
      } else {
        const other = openSqliteFile(t.config.db.path);
        other.exec(insert);
        other.close();
      }
      const stale = await t.http.get('/api/covid/public/totals');
      expect(fromMemory(stale)).toBe(true);
      expect(stale.body).toEqual({ total_cases: 10, total_deaths: 1 });
      await new Promise((resolve) => setTimeout(resolve, 1100));
      // Expired: read again, through Nest; the expired answer is served while that read is slow.
      let fresh = await t.http.get('/api/covid/public/totals');
      expect(fromMemory(fresh)).toBe(false);
      for (let i = 0; i < 20 && fresh.body.total_cases !== 1010; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        fresh = await t.http.get('/api/covid/public/totals');
      }
      expect(fresh.body).toEqual({ total_cases: 1010, total_deaths: 1 });
    } finally {
      await short.t.close();
    }

    const off = await bootLogged({ CACHE_TTL_MS: '0' });
    try {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await off.t.http.get('/api/covid/public/latest'));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers.map(off.fromMemory)).toEqual([false, false, false]);
    } finally {
      await off.t.close();
    }
  });
});
