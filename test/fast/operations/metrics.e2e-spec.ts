/**
 * GET /api/metrics: the Prometheus text format, for a token with `metrics:read` only, never
 * rate-limited; requests counted under their route template (answers from the response cache
 * included), a bounded label set whatever URLs are sent, cache, database and sync metrics.
 */
import { eventually } from '../../support/cli';
import { recordBody } from '../../support/fixtures';
import { SourceServer, V1, csv, fileRoute } from '../../support/source-server';
import { DEFAULT_API_TOKENS, TestApp, bootTestApp } from '../../support/test-app';

const SCRAPER = 'scraper-token-0123456789abcdef';
const API_TOKENS = `${DEFAULT_API_TOKENS},scraper:${SCRAPER}:scopes=metrics:read`;
const PROMETHEUS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const LATEST = '/api/covid/public/latest';

/** The lines of a scrape that are samples (not `# HELP` or `# TYPE`). */
const samples = (text: string) => text.split('\n').filter((line) => line && !line.startsWith('#'));

/** The value of one sample, given its name and labels exactly as written; undefined if absent. */
function valueOf(text: string, sample: string): number | undefined {
  const line = samples(text).find((l) => l.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}

const requests = (route: string, method: string, statusClass: string) =>
  `http_requests_total{route="${route}",method="${method}",status_class="${statusClass}"}`;

async function scrape(t: TestApp): Promise<string> {
  const res = await t.http.get('/api/metrics').set('Authorization', `Bearer ${SCRAPER}`);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe(PROMETHEUS_TYPE);
  return res.text;
}

describe('GET /api/metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Answers stay kept for the whole test, so which ones come from memory is known exactly.
    t = await bootTestApp({ API_TOKENS, CACHE_TTL_MS: '600000' });
    const seeded = await t.http
      .post('/api/covid/data')
      .set(t.auth())
      .send(recordBody({ date: '2024-01-01' }));
    expect(seeded.status).toBe(201);
  });
  afterAll(() => t.close());

  it('counts requests by route template, method and status class, answers from memory included', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.http.get(LATEST)).status);
    statuses.push((await t.http.get('/api/no-such-route')).status);
    statuses.push((await t.http.get('/api/covid/data')).status);
    expect(statuses).toEqual([200, 200, 200, 404, 401]);

    const text = await scrape(t);
    expect(samples(text)).toEqual(
      expect.arrayContaining([
        `${requests(LATEST, 'GET', '2xx')} 3`,
        `${requests('unmatched', 'GET', '4xx')} 1`,
        `${requests('/api/covid/data', 'GET', '4xx')} 1`,
        `${requests('/api/covid/data', 'POST', '2xx')} 1`,
        // The first answer came from the controller and was kept; the next two from memory.
        `http_response_cache_requests_total{route="${LATEST}",result="miss"} 1`,
        `http_response_cache_requests_total{route="${LATEST}",result="hit"} 2`,
        `http_request_duration_seconds_count{route="${LATEST}",method="GET"} 3`,
        `http_request_duration_seconds_bucket{le="+Inf",route="${LATEST}",method="GET"} 3`,
      ]),
    );
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE http_requests_total counter');
    // The scrape itself is counted once it is answered: not in its own text.
    expect(valueOf(text, requests('/api/metrics', 'GET', '2xx'))).toBeUndefined();
    const again = await scrape(t);
    expect(valueOf(again, requests('/api/metrics', 'GET', '2xx'))).toBe(1);
    expect(valueOf(again, requests(LATEST, 'GET', '2xx'))).toBe(3);
  });

  it("has Node's process and event-loop metrics and the database's query time", async () => {
    const text = await scrape(t);
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(text).toContain('# TYPE process_resident_memory_bytes gauge');
    expect(valueOf(text, 'db_query_duration_seconds_count')).toBeGreaterThan(0);
    expect(valueOf(text, 'db_query_errors_total')).toBe(0);
    if (t.config.db.type === 'mysql') {
      expect(valueOf(text, 'db_pool_max_connections')).toBe(10);
      expect(valueOf(text, 'db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(1);
      expect(valueOf(text, 'db_pool_connections{state="active"}')).toBeGreaterThanOrEqual(0);
      expect(valueOf(text, 'db_pool_waiting_requests')).toBe(0);
    } else {
      // SQLite has no pool: nothing is reported rather than a made-up figure.
      expect(text).not.toContain('db_pool_');
    }
    // Never SQL, never a token.
    expect(text).not.toMatch(/\b(SELECT|INSERT INTO|UPDATE) /);
    expect(text).not.toContain(SCRAPER);
  });

  it('moves the read cache hit and miss counters', async () => {
    const before = await scrape(t);
    const read = (text: string, result: string) =>
      valueOf(text, `read_cache_requests_total{cache="covid",result="${result}"}`) ?? 0;
    // Another URL: not in the response cache, so the controller reads the read cache, which holds
    // the latest records since the first test.
    expect((await t.http.get(`${LATEST}?_=read-cache-1`)).status).toBe(200);
    // A change drops the read cache: the next read is a miss.
    const changed = await t.http
      .post('/api/covid/data')
      .set(t.auth())
      .send(recordBody({ date: '2024-01-02' }));
    expect(changed.status).toBe(201);
    expect((await t.http.get(`${LATEST}?_=read-cache-2`)).status).toBe(200);
    const after = await scrape(t);
    expect(read(after, 'hit') - read(before, 'hit')).toBe(1);
    expect(read(after, 'miss') - read(before, 'miss')).toBe(1);
    const responseCache = (text: string, result: string) =>
      valueOf(text, `http_response_cache_requests_total{route="${LATEST}",result="${result}"}`);
    expect(responseCache(after, 'miss')! - responseCache(before, 'miss')!).toBe(2);
    expect(responseCache(after, 'hit')).toBe(responseCache(before, 'hit'));
  });

  it('answers 401 without a token and 403 to a token without metrics:read', async () => {
    const none = await t.http.get('/api/metrics');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: 'Accès refusé. Aucun jeton fourni.' });
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const reader = await t.http.get('/api/metrics').set(t.auth('reader'));
    expect(reader.status).toBe(403);
    expect(reader.body).toEqual({ error: 'Ce jeton ne permet pas cette opération.' });
    expect(reader.headers['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", scope="metrics:read"',
    );
    expect(reader.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('keeps one series per route template, whatever 1,000 distinct URLs are sent', async () => {
    const series = (text: string) =>
      samples(text).filter((l) => l.startsWith('http_') && !l.includes('"/api/metrics"'));
    const urls = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => {
        const i = from + k;
        if (i % 3 === 0) return `/api/unknown-${i}/x`;
        if (i % 3 === 1) return `/api/covid/public/country/Nowhere-${i}`;
        return `${LATEST}?_=${i}`;
      });
    const send = async (list: string[]) => {
      for (let i = 0; i < list.length; i += 20) {
        const statuses = await Promise.all(
          list.slice(i, i + 20).map(async (url) => (await t.http.get(url)).status),
        );
        expect(statuses.every((s) => s === 200 || s === 404)).toBe(true);
      }
    };
    await send(urls(0, 30));
    const first = series(await scrape(t));
    await send(urls(30, 1000));
    const text = await scrape(t);
    expect(series(text)).toHaveLength(first.length);
    expect(text).not.toMatch(/Nowhere|unknown-|\?n=/);
    expect(valueOf(text, requests('unmatched', 'GET', '4xx'))).toBe(1 + 334);
    expect(valueOf(text, requests('/api/covid/public/country/:country', 'GET', '4xx'))).toBe(333);
  });
});

describe('GET /api/metrics: scrapes are not rate-limited', () => {
  it('answers the scraper every time while other clients get 429, and counts those refusals', async () => {
    const t = await bootTestApp({ API_TOKENS, THROTTLE_LIMIT: '2' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await t.http.get(LATEST)).status);
      expect(statuses).toEqual([200, 200, 429]);
      let text = '';
      for (let i = 0; i < 10; i++) {
        const res = await t.http.get('/api/metrics').set('Authorization', `Bearer ${SCRAPER}`);
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
        text = res.text;
      }
      expect(samples(text)).toEqual(
        expect.arrayContaining([
          `http_rate_limit_refusals_total{route="${LATEST}"} 1`,
          `${requests(LATEST, 'GET', '4xx')} 1`,
          `${requests(LATEST, 'GET', '2xx')} 2`,
          `${requests('/api/metrics', 'GET', '2xx')} 9`,
        ]),
      );
    } finally {
      await t.close();
    }
  });

  it('still counts callers without metrics:read, so guessing tokens there is limited', async () => {
    const t = await bootTestApp({ API_TOKENS, THROTTLE_LIMIT: '2' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await t.http.get('/api/metrics').set('Authorization', `Bearer guess-${i}`);
        statuses.push(res.status);
        if (res.status === 401) expect(res.headers['x-ratelimit-limit']).toBe('2');
      }
      for (let i = 0; i < 2; i++) {
        statuses.push((await t.http.get('/api/metrics').set(t.auth('reader'))).status);
      }
      expect(statuses).toEqual([401, 401, 429, 403, 403]);
      const text = await scrape(t);
      expect(valueOf(text, `http_rate_limit_refusals_total{route="/api/metrics"}`)).toBe(1);
    } finally {
      await t.close();
    }
  });
});

describe('GET /api/metrics: scheduled sync', () => {
  const sources = new SourceServer();
  afterAll(() => sources.stop());

  it('counts the runs by source and result, the rows, and the last success', async () => {
    sources.routes['/covid.csv'] = fileRoute(() => ({
      body: V1,
      etag: '"v1"',
      modified: 'Mon, 01 Jan 2024 00:00:00 GMT',
    }));
    sources.routes['/mpox.csv'] = {
      seen: [],
      answer: (res) => void res.writeHead(500).end(csv()),
    };
    await sources.start();
    const started = Date.now();
    const t = await bootTestApp({
      API_TOKENS,
      SYNC_SOURCES: `covid=${sources.url('/covid.csv')},mpox=${sources.url('/mpox.csv')}`,
      SYNC_INTERVAL: '1h',
    });
    try {
      let text = '';
      const synced = async () => {
        text = await scrape(t);
        return valueOf(text, 'sync_runs_total{source="mpox",result="failed"}') === 1;
      };
      expect(await eventually(synced, { attempts: 150 })).toBe(true);
      expect(samples(text)).toEqual(
        expect.arrayContaining([
          'sync_runs_total{source="covid",result="updated"} 1',
          'sync_import_rows_read_total{source="covid"} 2',
          'sync_import_rows_written_total{source="covid"} 2',
          'sync_last_success_rows_written{source="covid"} 2',
          'sync_import_rows_read_total{source="mpox"} 0',
        ]),
      );
      const last = valueOf(text, 'sync_last_success_timestamp_seconds{source="covid"}')!;
      expect(last * 1000).toBeGreaterThanOrEqual(started);
      expect(last * 1000).toBeLessThanOrEqual(Date.now());
      expect(valueOf(text, 'sync_last_success_timestamp_seconds{source="mpox"}')).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
