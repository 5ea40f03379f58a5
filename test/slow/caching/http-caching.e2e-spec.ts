import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Response } from 'supertest';
import { MESSAGES } from '@app/common';
import { RecordChangeService } from '@app/diseases';
import { databaseEnv, eventually, runCli } from '../../support/cli';
import { flushRedisDb } from '../../support/cli-test-bed';
import { recordBody } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';

/** Our own Redis logical database, flushed at the start. */
const REDIS_URL = 'redis://127.0.0.1:6379/11';
const ORIGIN = 'https://dashboard.example.com';
const PUBLIC = 'public, max-age=10, stale-while-revalidate=30';
const PRIVATE = 'private, no-cache';
/** A strong tag: a base64url SHA-1 digest in quotes. */
const STRONG_TAG = /^"[A-Za-z0-9_-]{27}"$/;

/** Every cached route, whether it needs a token, and its `Cache-Control`. */
const ROUTES: Array<[string, boolean]> = [
  ['/api/covid/public/latest', false],
  ['/api/covid/public/country/France', false],
  ['/api/covid/public/totals', false],
  ['/api/mpox/public/summary', false],
  ['/api/covid/data', true],
  ['/api/mpox/data?limit=5', true],
  ['/api/covid/countries', true],
  ['/api/mpox/countries', true],
  ['/api/covid/stats?country=France', true],
  ['/api/mpox/stats?country=Peru', true],
  ['/api/stats/summary', true],
];

/** The headers of every 304 (besides those that name the request or the time). */
const NOT_MODIFIED_HEADERS = [
  'cache-control',
  'connection',
  'content-security-policy',
  'cross-origin-resource-policy',
  'date',
  'etag',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-request-id',
];

const record = (date: string, country: string, totalCases: number) =>
  recordBody({ date, country, total_cases: totalCases, total_deaths: 1 });

async function seed(t: TestApp): Promise<void> {
  for (const [series, body] of [
    ['covid', record('2021-01-01', 'France', 10)],
    ['covid', record('2021-01-02', 'Chile', 20)],
    ['mpox', record('2022-06-01', 'Peru', 5)],
  ] as const) {
    expect((await t.http.post(`/api/${series}/data`).set(t.auth()).send(body)).status).toBe(201);
  }
}

const get = (t: TestApp, url: string, token: boolean, etag?: string) => {
  const request = t.http.get(url);
  if (token) void request.set(t.auth());
  if (etag !== undefined) void request.set('If-None-Match', etag);
  return request;
};

/** Lists may be CSV or NDJSON as `Accept` asks: their answers vary on it too. */
const isList = (url: string) =>
  /\/(data|countries|public\/latest|public\/country\/\w+)$/.test(url.split('?')[0]);
const varyOf = (url: string, token: boolean) =>
  [...(token ? ['Authorization'] : []), ...(isList(url) ? ['Accept'] : [])].join(', ') || undefined;

function expectNotModified(response: Response, url: string, token: boolean, etag: string) {
  expect({ url, status: response.status, text: response.text }).toEqual({
    url,
    status: 304,
    text: '',
  });
  expect(Object.keys(response.headers).sort()).toEqual(
    (varyOf(url, token) ? [...NOT_MODIFIED_HEADERS, 'vary'] : NOT_MODIFIED_HEADERS).sort(),
  );
  expect(response.headers.etag).toBe(etag);
  expect(response.headers['cache-control']).toBe(token ? PRIVATE : PUBLIC);
  expect(response.headers.vary).toBe(varyOf(url, token));
}

describe('HTTP caching (ETag, 304, Cache-Control)', () => {
  beforeAll(() => flushRedisDb(REDIS_URL));

  // With the response cache (a repeated URL is answered before Nest's router) and without it
  // (every answer through Nest): both pipelines answer alike.
  describe.each([
    ['answers kept in memory', {}],
    ['every answer through Nest', { CACHE_TTL_MS: '0' }],
  ])('%s', (_, env: Record<string, string>) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await bootTestApp(env);
      await seed(t);
    });
    afterAll(() => t.close());

    it.each(ROUTES)('%s: a strong ETag, then 304 without a body', async (url, token) => {
      const first = await get(t, url, token);
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(first.headers.etag).toMatch(STRONG_TAG);
      expect(first.headers['cache-control']).toBe(token ? PRIVATE : PUBLIC);
      expect(first.headers.vary).toBe(varyOf(url, token));
      const etag = first.headers.etag;

      // Twice: the second may be answered from memory.
      for (let i = 0; i < 2; i++)
        expectNotModified(await get(t, url, token, etag), url, token, etag);
      expectNotModified(await get(t, url, token, `"other", W/${etag}`), url, token, etag);

      const stale = await get(t, url, token, '"not-the-tag"');
      expect([stale.status, stale.headers.etag, stale.text]).toEqual([200, etag, first.text]);
    });

    it('refuses a 304 to a caller without a token: the guards run first', async () => {
      const ok = await get(t, '/api/covid/countries', true);
      const refused = await t.http
        .get('/api/covid/countries')
        .set('If-None-Match', ok.headers.etag);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: MESSAGES.noToken });
      expect(refused.headers.etag).toBeUndefined();
    });

    it('changes the ETag as soon as a write through the API changes the answer', async () => {
      const urls: Array<[string, boolean]> = [
        ['/api/covid/public/totals', false],
        ['/api/covid/public/latest', false],
        ['/api/covid/data', true],
        ['/api/covid/countries', true],
        ['/api/stats/summary', true],
      ];
      const before = await Promise.all(urls.map(([url, token]) => get(t, url, token)));
      const created = await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .send(record('2021-01-03', 'Spain', 7));
      expect(created.status).toBe(201);
      for (const [i, [url, token]] of urls.entries()) {
        const etag = before[i].headers.etag;
        const after = await get(t, url, token, etag);
        expect({ url, status: after.status }).toEqual({ url, status: 200 });
        expect(after.headers.etag).toMatch(STRONG_TAG);
        expect(after.headers.etag).not.toBe(etag);
        expect(after.text).not.toBe(before[i].text);
      }
      const id = created.body.id as number;
      expect((await t.http.delete(`/api/covid/data/${id}`).set(t.auth())).status).toBe(200);
      // The same answer as before the write: the same tag again.
      const back = await get(t, '/api/covid/public/totals', false);
      expect(back.headers.etag).toBe(before[0].headers.etag);
    });
  });

  it('changes the ETag after an import of the admin command line', async () => {
    const t = await bootTestApp();
    const dir = mkdtempSync(join(tmpdir(), 'covid-http-caching-'));
    try {
      await seed(t);
      const totals = await get(t, '/api/covid/public/totals', false);
      const countries = await get(t, '/api/covid/countries', true);
      const file = join(dir, 'covid.csv');
      writeFileSync(
        file,
        'date,country,total_cases,new_cases,total_deaths,new_deaths\n2021-01-05,Peru,5,5,0,0\n',
      );
      expect((await runCli(['import', 'covid', file], databaseEnv(t.config.db))).code).toBe(0);
      // Not cached in memory: at once.
      const after = await get(t, '/api/covid/countries', true, countries.headers.etag);
      expect(after.status).toBe(200);
      expect(after.headers.etag).not.toBe(countries.headers.etag);
      // Without Redis, the public answers within CACHE_TTL_MS.
      const etag = totals.headers.etag;
      expect(
        await eventually(
          async () => (await get(t, '/api/covid/public/totals', false, etag)).status === 200,
        ),
      ).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await t.close();
    }
  });

  it('changes the ETag on every instance through Redis, after a write and an import', async () => {
    const env = { CACHE_TTL_MS: '3600000', REDIS_URL };
    const a = await bootTestApp(env);
    const b = await bootTestApp(env, {}, a);
    const dir = mkdtempSync(join(tmpdir(), 'covid-http-caching-'));
    try {
      expect(await b.app.get(RecordChangeService).listening()).toBe(true);
      await seed(a);
      const url = '/api/covid/public/totals';
      const tagOf = async (t: TestApp) => (await get(t, url, false)).headers.etag;
      const first = await tagOf(a);
      // The same answer has the same tag on both instances.
      expect(await tagOf(b)).toBe(first);
      expect((await get(b, url, false, first)).status).toBe(304);

      const created = await a.http
        .post('/api/covid/data')
        .set(a.auth())
        .send(record('2021-01-03', 'Spain', 7));
      expect(created.status).toBe(201);
      const second = await tagOf(a);
      expect(second).not.toBe(first);
      expect(await eventually(async () => (await tagOf(b)) === second)).toBe(true);

      const file = join(dir, 'covid.csv');
      writeFileSync(
        file,
        'date,country,total_cases,new_cases,total_deaths,new_deaths\n2021-01-05,Peru,5,5,0,0\n',
      );
      const cli = { ...databaseEnv(a.config.db), REDIS_URL };
      expect((await runCli(['import', 'covid', file], cli)).code).toBe(0);
      for (const t of [a, b]) {
        expect(
          await eventually(async () => (await get(t, url, false, second)).status === 200),
        ).toBe(true);
      }
      expect(await tagOf(a)).toBe(await tagOf(b));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await b.close();
      await a.close();
    }
  });

  it('counts every 304 against the rate limit', async () => {
    const t = await bootTestApp({ THROTTLE_LIMIT: '4', THROTTLE_TTL: '60' });
    try {
      for (const [url, token] of [
        ['/api/covid/public/latest', false],
        ['/api/covid/countries', true],
      ] as const) {
        const first = await get(t, url, token);
        expect(first.headers['x-ratelimit-remaining']).toBe('3');
        const etag = first.headers.etag;
        for (const remaining of ['2', '1', '0']) {
          const again = await get(t, url, token, etag);
          expect([again.status, again.headers['x-ratelimit-remaining']]).toEqual([304, remaining]);
        }
        const refused = await get(t, url, token, etag);
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual({ error: MESSAGES.tooManyRequests });
        expect(refused.headers.etag).toBeUndefined();
        // The anonymous budget is spent: the token route counts on the client's own.
      }
    } finally {
      await t.close();
    }
  });

  it('takes max-age and stale-while-revalidate from HTTP_CACHE_MAX_AGE and HTTP_CACHE_SWR', async () => {
    const t = await bootTestApp({ HTTP_CACHE_MAX_AGE: '60', HTTP_CACHE_SWR: '0' });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await t.http.get('/api/mpox/public/summary');
        expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=0');
      }
      const token = await t.http.get('/api/mpox/countries').set(t.auth());
      expect(token.headers['cache-control']).toBe(PRIVATE);
    } finally {
      await t.close();
    }
  });

  it('sends no caching headers on writes and streamed answers', async () => {
    const t = await bootTestApp();
    try {
      const created = await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .send(record('2021-01-01', 'France', 1));
      expect(created.status).toBe(201);
      expect([created.headers.etag, created.headers['cache-control']]).toEqual([
        undefined,
        undefined,
      ]);
      const health = await t.http.get('/api/health');
      expect(health.headers.etag).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('lets browsers read the caching and rate-limit headers, and send If-None-Match (CORS)', async () => {
    const t = await bootTestApp({ CORS_ORIGINS: ORIGIN });
    try {
      const preflight = await t.http
        .options('/api/covid/countries')
        .set('Origin', ORIGIN)
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'authorization,if-none-match');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-headers']).toBe(
        'Authorization, Content-Type, X-Request-Id, If-None-Match',
      );
      for (let i = 0; i < 2; i++) {
        const res = await t.http.get('/api/covid/data').set(t.auth()).set('Origin', ORIGIN);
        expect(res.status).toBe(200);
        expect(res.headers['access-control-expose-headers']).toBe(
          'X-Request-Id, Retry-After, WWW-Authenticate, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, ETag, Link, Content-Disposition',
        );
        // CORS's own Vary is kept, Authorization and Accept added.
        expect(res.headers.vary).toBe('Origin, Authorization, Accept');
      }
    } finally {
      await t.close();
    }
  });
});
