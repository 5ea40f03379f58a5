/**
 * Decision 0049: a CSV or NDJSON list without `limit` is the whole selection, streamed; it equals
 * the JSON pages walked by their `Link` headers. With `limit`, CSV and NDJSON keep their pages.
 */
import { stringify } from 'csv-stringify/sync';
import { IncomingMessage } from 'node:http';
import { Response } from 'supertest';
import { addDays, todayUtc } from '@app/common';
import { COVID_DISEASE, LIST_PAGE_SIZE, RecordValues } from '@app/diseases';
import { RECORD_KEYS, TEST_ORIGIN, seedWriter } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';

type Row = Record<string, unknown>;

/** Countries of the store, and days per country: more rows than a streamed page holds. */
const COUNTRIES = ['France', 'Germany', 'Bonaire, Sint Eustatius and Saba'];
const DAYS = 240;
const DISEASE_KEYS = [
  'date',
  'country',
  'iso_code',
  'total_cases',
  'new_cases',
  'total_deaths',
  'new_deaths',
  'new_cases_smoothed',
  'new_deaths_smoothed',
  'total_cases_per_million',
  'new_cases_per_million',
  'new_cases_smoothed_per_million',
  'total_deaths_per_million',
  'new_deaths_per_million',
  'new_deaths_smoothed_per_million',
  'flags',
];

const CHANGE_KEYS = ['cursor', 'at', 'actor', 'change', ...RECORD_KEYS];
const CORRECTION_KEYS = ['at', 'date', 'country', 'field', 'old', 'new', 'change', 'source'];

/** A change as its CSV row: the record's fields beside the change's. */
const flatChange = ({ record, ...change }: Row): Row => ({ ...change, ...(record as Row | null) });

function records(): RecordValues[] {
  return COUNTRIES.flatMap((country, c) =>
    Array.from({ length: DAYS }, (_, day) => ({
      date: addDays('2022-01-01', day),
      country,
      total_cases: (day + 1) * (c + 2),
      new_cases: c + 2,
      total_deaths: day,
      new_deaths: 1,
    })),
  );
}

/** Keeps every body as text; superagent hands its parsers Node's response stream. */
const text = (res: Response, done: (error: Error | null, body: string) => void) => {
  const stream = res as unknown as IncomingMessage;
  let body = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (body += chunk));
  stream.on('end', () => done(null, body));
};

const parseNdjson = (body: string): Row[] => {
  expect(body.endsWith('\n')).toBe(true);
  return body
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as Row);
};

const csvOf = (items: Row[], keys: string[]) =>
  stringify(items, { header: true, columns: keys, record_delimiter: 'windows' });

const nextOf = (res: Response) => {
  const link = res.headers.link as string | undefined;
  return link === undefined ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)![1];
};

describe.each([
  ['answers kept in memory', {}],
  ['every answer through Nest', { CACHE_TTL_MS: '0' }],
])('whole downloads (%s)', (_, env: Record<string, string>) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp(env);
    await seedWriter(t.dataSource, COVID_DISEASE).upsertMany(records(), TEST_ORIGIN);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.http.get(url).set(t.auth()).buffer(true).parse(text);

  /** Every row of a list, JSON page after JSON page by `Link`; each page short of the whole. */
  async function jsonPages(url: string): Promise<{ rows: Row[]; pages: number }> {
    const rows: Row[] = [];
    let pages = 0;
    for (let next: string | undefined = url; next !== undefined; pages++) {
      const res = await t.http.get(next).set(t.auth());
      expect({ next, status: res.status }).toEqual({ next, status: 200 });
      rows.push(...(res.body as Row[]));
      next = nextOf(res);
    }
    return { rows, pages };
  }

  it.each([
    ['/api/covid/data', RECORD_KEYS, 'covid'],
    ['/api/covid/series', DISEASE_KEYS, 'covid-series'],
  ])('%s: CSV and NDJSON without limit equal the JSON pages', async (url, keys, name) => {
    const { rows, pages } = await jsonPages(url);
    expect(rows).toHaveLength(COUNTRIES.length * DAYS);
    expect(rows.length).toBeGreaterThan(LIST_PAGE_SIZE);
    expect(pages).toBeGreaterThan(1);

    const csv = await get(`${url}?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="${name}-${todayUtc()}.csv"`,
    );
    expect(csv.headers.link).toBeUndefined();
    expect(csv.headers.etag).toBeUndefined();
    expect(csv.headers.vary).toContain('Accept');
    expect(csv.body).toBe(csvOf(rows, keys));

    for (const request of [`${url}?format=ndjson`, url]) {
      const ndjson =
        request === url
          ? await t.http
              .get(url)
              .set({ ...t.auth(), Accept: 'application/x-ndjson' })
              .buffer(true)
              .parse(text)
          : await get(request);
      expect(ndjson.status).toBe(200);
      expect(ndjson.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      expect(ndjson.headers.link).toBeUndefined();
      expect(parseNdjson(ndjson.body as string)).toEqual(rows);
    }
  });

  it('/series pages of a date range, or by week, follow their cursor to the whole selection', async () => {
    // The page ends are worked out from each country's kept count, or its range's count.
    for (const query of ['from=2022-01-20&to=2022-02-10', 'to=2022-01-05', 'period=week']) {
      const { rows, pages } = await jsonPages(`/api/covid/series?${query}&limit=4`);
      expect(pages).toBeGreaterThan(2);
      const whole = await get(`/api/covid/series?${query}&format=ndjson`);
      expect([query, parseNdjson(whole.body as string)]).toEqual([query, rows]);
      expect(new Set(rows.map((row) => row.country)).size).toBe(COUNTRIES.length);
    }
  });

  it('keeps the filters: a country and a range, whole', async () => {
    const url = '/api/covid/data?country=germany&from=2022-02-01&to=2022-06-30';
    const { rows } = await jsonPages(url);
    expect(rows).toHaveLength(150);
    const csv = await get(`${url}&format=csv`);
    expect(csv.body).toBe(csvOf(rows, RECORD_KEYS));
  });

  it('keeps the pages of CSV and NDJSON with an explicit limit', async () => {
    const csv = await get('/api/covid/data?format=csv&limit=100');
    expect((csv.body as string).split('\r\n')).toHaveLength(102);
    expect(nextOf(csv)).toMatch(/^\/api\/covid\/data\?limit=100&format=csv&after=/);
    const series = await get('/api/covid/series?format=ndjson&limit=50');
    expect(parseNdjson(series.body as string)).toHaveLength(50);
    expect(nextOf(series)).toMatch(/^\/api\/covid\/series\?limit=50&format=ndjson&after=/);
  });

  it('keeps JSON in pages of 100 with its Link', async () => {
    const res = await t.http.get('/api/covid/data').set(t.auth());
    expect(res.body).toHaveLength(100);
    expect(nextOf(res)).toMatch(/^\/api\/covid\/data\?after=/);
    const series = await t.http.get('/api/covid/series').set(t.auth());
    expect(series.body).toHaveLength(100);
    expect(nextOf(series)).toMatch(/^\/api\/covid\/series\?after=/);
  });

  it('answers a small selection whole, as one text with its ETag', async () => {
    const res = await get(
      '/api/covid/data?format=csv&country=France&from=2022-01-01&to=2022-01-03',
    );
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeDefined();
    expect((res.body as string).split('\r\n')).toHaveLength(5);
    const again = await t.http
      .get('/api/covid/data?format=csv&country=France&from=2022-01-01&to=2022-01-03')
      .set({ ...t.auth(), 'If-None-Match': res.headers.etag });
    expect(again.status).toBe(304);
  });

  it('downloads the whole change feed and every correction, past one page of 1,000', async () => {
    // Every record revised: 720 creations and 720 updates, two corrected figures each.
    const revised = records().map((r) => ({ ...r, total_cases: r.total_cases + 1, new_cases: 9 }));
    // Through the API, so that the answers kept in memory are dropped as for any write.
    const bulk = await t.http.post('/api/covid/data/bulk').set(t.auth()).send(revised);
    expect([bulk.status, bulk.body]).toEqual([200, { success: true, inserted: 0, updated: 720 }]);
    for (const [url, key, columns, flatten] of [
      ['/api/covid/changes', 'changes', CHANGE_KEYS, flatChange],
      ['/api/covid/corrections', 'corrections', CORRECTION_KEYS, (row: Row) => row],
    ] as const) {
      const items: Row[] = [];
      for (let next: string | undefined = `${url}?limit=300`; next !== undefined;) {
        const res: Response = await t.http.get(next).set(t.auth());
        expect(res.status).toBe(200);
        const page: Row[] = (res.body as Record<string, Row[]>)[key];
        items.push(...page);
        next = page.length === 0 ? undefined : nextOf(res);
      }
      expect(items.length).toBeGreaterThan(1000);
      const csv = await get(`${url}?format=csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers.link).toBeUndefined();
      expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="covid-/);
      expect(csv.body).toBe(csvOf(items.map(flatten), [...columns]));
      const ndjson = await get(`${url}?format=ndjson`);
      expect(ndjson.headers.link).toBeUndefined();
      expect(parseNdjson(ndjson.body as string)).toEqual(items);
      // From a cursor on: the rest.
      const first = await t.http.get(`${url}?limit=10`).set(t.auth());
      const after = new URL(nextOf(first)!, 'http://x').searchParams.get('after')!;
      const rest = await get(`${url}?format=ndjson&after=${after}`);
      expect(parseNdjson(rest.body as string)).toEqual(items.slice(10));
      // An explicit limit keeps the pages.
      const paged = await get(`${url}?format=ndjson&limit=5`);
      expect(parseNdjson(paged.body as string)).toEqual(items.slice(0, 5));
      expect(nextOf(paged)).toBeDefined();
    }
  });

  it('follows a cursor to the end of the selection', async () => {
    const first = await t.http.get('/api/covid/data?limit=10').set(t.auth());
    const after = new URL(nextOf(first)!, 'http://x').searchParams.get('after')!;
    const { rows } = await jsonPages('/api/covid/data');
    const rest = await get(`/api/covid/data?format=ndjson&after=${after}`);
    expect(parseNdjson(rest.body as string)).toEqual(rows.slice(10));
  });
});
