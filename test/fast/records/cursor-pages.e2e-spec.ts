import { MESSAGES, addDays } from '@app/common';
import { TEST_ORIGIN, seedWriter } from '../../support/fixtures';
import {
  COVID_DISEASE,
  LIST_PAGE_SIZE,
  MPOX_DISEASE,
  RecordValues,
  RecordWriter,
} from '@app/diseases';
import { RecordReadsRepository } from '@app/database';
import { TestApp, bootTestApp } from '../../support/test-app';
import { QueryRunner } from 'typeorm';

type Row = { id: number; date: string; country: string };

/** The cursor of a page that ends at `row`, as the API writes it (base64url of `date,id`). */
const cursorOf = (row: Row) => Buffer.from(`${row.date},${row.id}`).toString('base64url');

/** `days` days of records for each country, from `first` on. */
function records(countries: string[], first: string, days: number): RecordValues[] {
  return Array.from({ length: days }, (_, day) =>
    countries.map((country) => ({
      date: addDays(first, day),
      country,
      total_cases: day,
      new_cases: 1,
      total_deaths: 0,
      new_deaths: 0,
    })),
  ).flat();
}

const pick = (rows: Row[]) => rows.map(({ id, date, country }) => ({ id, date, country }));

describe.each([
  ['answers kept in memory', {}],
  ['every answer through Nest', { CACHE_TTL_MS: '0' }],
])('cursor pages of /data (%s)', (_, env: Record<string, string>) => {
  let t: TestApp;
  let covid: RecordWriter;
  beforeAll(async () => {
    t = await bootTestApp(env);
    covid = seedWriter(t.dataSource, COVID_DISEASE);
    // Three countries a day: pages end between records of the same date (the id decides).
    await covid.upsertMany(
      records(['Alpha', 'Bonaire, Sint Eustatius and Saba', 'Gamma'], '2021-01-01', 20),
      TEST_ORIGIN,
    );
  });
  afterAll(() => t.close());

  const page = async (url: string) => {
    const res = await t.http.get(url).set(t.auth());
    expect({ url, status: res.status }).toEqual({ url, status: 200 });
    return { rows: pick(res.body as Row[]), link: res.headers.link as string | undefined };
  };
  const all = async (key = 'covid') => (await page(`/api/${key}/data?limit=100000000`)).rows;

  it('walks the whole list by Link headers, each exact, none on the last page', async () => {
    const expected = await all();
    expect(expected).toHaveLength(60);
    const seen: Row[] = [];
    let url: string | undefined = '/api/covid/data?limit=7';
    while (url !== undefined) {
      // Twice: the second may come from memory, Link included.
      const first = await page(url);
      expect(await page(url)).toEqual(first);
      seen.push(...first.rows);
      if (seen.length < expected.length) {
        const last = first.rows[first.rows.length - 1];
        expect(first.link).toBe(`</api/covid/data?limit=7&after=${cursorOf(last)}>; rel="next"`);
        url = /^<([^>]+)>; rel="next"$/.exec(first.link!)![1];
      } else {
        expect(first.link).toBeUndefined();
        url = undefined;
      }
    }
    expect(seen).toEqual(expected);
  });

  it('gives no Link when the page holds the rest exactly, or less', async () => {
    expect((await page('/api/covid/data?limit=60')).link).toBeUndefined();
    expect((await page('/api/covid/data?limit=59')).link).toBeDefined();
    expect((await page('/api/covid/data?limit=1000')).link).toBeUndefined();
  });

  it('keeps country, from, to, limit and format in the Link, drops offset and the rest', async () => {
    const country = encodeURIComponent('bonaire, sint eustatius and saba');
    const url =
      `/api/covid/data?_=1&to=2021-01-15&country=${country}&offset=2` +
      '&from=2021-01-03&limit=4&format=ndjson';
    const res = await t.http.get(url).set(t.auth()).buffer(true).parse(text);
    expect(res.status).toBe(200);
    const rows = (res.body as string)
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line) as Row);
    expect(rows.map((r) => r.date)).toEqual([
      '2021-01-13',
      '2021-01-12',
      '2021-01-11',
      '2021-01-10',
    ]);
    expect(res.headers.link).toBe(
      `</api/covid/data?country=${country}&from=2021-01-03&to=2021-01-15&limit=4&format=ndjson` +
        `&after=${cursorOf(rows[3])}>; rel="next"`,
    );
    // Without `format`, the Link has none: the client's Accept chooses again.
    const csv = await t.http
      .get('/api/covid/data?limit=2')
      .set(t.auth())
      .set('Accept', 'text/csv')
      .buffer(true)
      .parse(text);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lastId = (csv.body as string).split('\r\n')[2].split(',')[0];
    const last = (await page('/api/covid/data?limit=2')).rows[1];
    expect(String(last.id)).toBe(lastId);
    expect(csv.headers.link).toBe(`</api/covid/data?limit=2&after=${cursorOf(last)}>; rel="next"`);
  });

  it('neither repeats nor skips a record that existed when page 1 was read, whatever is written between', async () => {
    const before = await all();
    const first = await page('/api/covid/data?limit=10');
    expect(first.rows).toEqual(before.slice(0, 10));
    // Newer records (before page 1), records among those of page 2's dates, older ones, and
    // deletions on both sides of the cursor.
    await covid.upsertMany(
      [
        ...records(['Newland'], '2021-02-01', 3),
        ...records(['Delta', 'Epsilon'], '2021-01-17', 2),
        ...records(['Oldland'], '2020-06-01', 2),
      ],
      TEST_ORIGIN,
    );
    const deleted = [before[2], before[11], before[12], before[40]];
    for (const row of deleted) {
      expect((await t.http.delete(`/api/covid/data/${row.id}`).set(t.auth())).status).toBe(200);
    }
    const rest: Row[] = [];
    let url: string | undefined = /^<([^>]+)>/.exec(first.link!)![1];
    while (url !== undefined) {
      const next = await page(url);
      rest.push(...next.rows);
      url = next.link === undefined ? undefined : /^<([^>]+)>/.exec(next.link)![1];
    }
    const ids = [...first.rows, ...rest].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const gone = new Set(deleted.map((r) => r.id));
    const existed = before.filter((r) => !gone.has(r.id)).map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining(existed));
    // Page 2 on is exactly what now follows page 1's last record.
    const now = await all();
    const after = now.findIndex((r) => r.id === first.rows[9].id);
    const lastOfPage1 = first.rows[9];
    expect(rest).toEqual(
      now.filter(
        (r) => r.date < lastOfPage1.date || (r.date === lastOfPage1.date && r.id < lastOfPage1.id),
      ),
    );
    expect(after).toBeGreaterThanOrEqual(0);
    // Undo: the next tests see the 60 records again.
    await t.dataSource.query(
      `DELETE FROM covid_data WHERE country IN ('Newland', 'Delta', 'Epsilon', 'Oldland')`,
    );
    await covid.upsertMany(
      deleted.map(({ date, country }) => ({ ...records([country], date, 1)[0] })),
      TEST_ORIGIN,
    );
  });

  it('reads a deep page by keyset: no OFFSET, whatever its depth', async () => {
    const list = await all();
    // Every statement, whichever way it reaches the database (MySQL's reads take a query runner
    // of their own, to be killed at their deadline).
    const runner = t.dataSource.createQueryRunner();
    const prototype = Object.getPrototypeOf(runner) as { query: QueryRunner['query'] };
    await runner.release();
    const query = jest.spyOn(prototype, 'query');
    try {
      const deep = await page(`/api/covid/data?limit=5&after=${cursorOf(list[50])}`);
      expect(deep.rows).toEqual(list.slice(51, 56));
      const sql = query.mock.calls.filter(([text]) => /FROM covid_data/.test(text));
      expect(sql).toHaveLength(1);
      const [text, params] = sql[0] as [string, unknown[]];
      expect(text).toMatch(/ORDER BY date DESC, id DESC LIMIT \? OFFSET \?$/);
      // One record more than the page, to know whether another follows; skipping none.
      expect(params.slice(-2)).toEqual([6, 0]);
    } finally {
      query.mockRestore();
    }
  });

  it('refuses a malformed cursor, and after with offset, with a 400 naming after', async () => {
    const notCursor = {
      error: MESSAGES.invalidQuery,
      details: ['after : doit être un curseur reçu dans l\'en-tête Link (rel="next")'],
    };
    const bad = [
      'abc',
      '',
      'not*base64',
      Buffer.from('2021-02-30,5').toString('base64url'),
      Buffer.from('2021-01-01,0').toString('base64url'),
      Buffer.from('2021-01-01,x').toString('base64url'),
      Buffer.from('2021-01-01,99999999999999999').toString('base64url'),
      `${Buffer.from('2021-01-01,5').toString('base64url')}=`,
    ];
    for (const after of bad) {
      const res = await t.http
        .get(`/api/covid/data?after=${encodeURIComponent(after)}`)
        .set(t.auth());
      expect({ after, status: res.status, body: res.body as unknown }).toEqual({
        after,
        status: 400,
        body: notCursor,
      });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    const cursor = Buffer.from('2021-01-05,3').toString('base64url');
    const both = await t.http.get(`/api/covid/data?after=${cursor}&offset=0`).set(t.auth());
    expect(both.status).toBe(400);
    expect(both.body).toEqual({
      error: MESSAGES.invalidQuery,
      details: ['after : ne peut pas être combiné avec offset'],
    });
    // A cursor past every record: an empty last page.
    const end = await page(
      `/api/covid/data?after=${Buffer.from('1999-01-01,1').toString('base64url')}`,
    );
    expect(end).toEqual({ rows: [], link: undefined });
  });

  describe('a list that streams', () => {
    const DAYS = 700;
    let list: Row[];
    beforeAll(async () => {
      await seedWriter(t.dataSource, MPOX_DISEASE).upsertMany(
        records(['North', 'South'], '2001-01-01', DAYS),
        TEST_ORIGIN,
      );
      list = await all('mpox');
      expect(list).toHaveLength(2 * DAYS);
    });

    it('sends the Link before the body, and ends the body at the record it names', async () => {
      const limit = LIST_PAGE_SIZE + 100;
      const seen: Row[] = [];
      let url: string | undefined = `/api/mpox/data?limit=${limit}`;
      const links: Array<string | undefined> = [];
      while (url !== undefined) {
        const res = await t.http.get(url).set(t.auth());
        expect(res.status).toBe(200);
        const rows = pick(res.body as Row[]);
        if (rows.length > LIST_PAGE_SIZE) expect(res.headers['transfer-encoding']).toBe('chunked');
        seen.push(...rows);
        const link = res.headers.link as string | undefined;
        links.push(link);
        if (link !== undefined) {
          expect(link).toBe(
            `</api/mpox/data?limit=${limit}&after=${cursorOf(rows[rows.length - 1])}>; rel="next"`,
          );
        }
        url = link === undefined ? undefined : /^<([^>]+)>/.exec(link)![1];
      }
      expect(seen).toEqual(list);
      expect(links.map((l) => l !== undefined)).toEqual([true, true, false]);
    });

    it('ends at the record its Link names when records are written while it streams', async () => {
      const mpox = seedWriter(t.dataSource, MPOX_DISEASE);
      const boundary = RecordReadsRepository.prototype.boundary;
      const spy = jest
        .spyOn(RecordReadsRepository.prototype, 'boundary')
        .mockImplementation(async function (this: RecordReadsRepository, ...args) {
          const found = await boundary.apply(this, args);
          // Once the Link is decided and before the pages after the first are read: records
          // among them, which would push a list bounded by a count past the cursor.
          await mpox.upsertMany(records(['Midland'], '2002-02-20', 10), TEST_ORIGIN);
          return found;
        });
      try {
        const limit = LIST_PAGE_SIZE + 100;
        const res = await t.http.get(`/api/mpox/data?limit=${limit}`).set(t.auth());
        const rows = pick(res.body as Row[]);
        const last = rows[rows.length - 1];
        expect(res.headers.link).toBe(
          `</api/mpox/data?limit=${limit}&after=${cursorOf(last)}>; rel="next"`,
        );
        // Every record of before, up to the one the cursor names, once.
        expect(rows.filter((r) => r.country !== 'Midland')).toEqual(list.slice(0, limit));
        expect(last).toEqual(list[limit - 1]);
      } finally {
        spy.mockRestore();
        await t.dataSource.query(`DELETE FROM mpox_data WHERE country = 'Midland'`);
      }
    });

    it('gives no Link to a streamed list that holds every record', async () => {
      const res = await t.http.get(`/api/mpox/data?limit=${2 * DAYS}`).set(t.auth());
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect(res.headers.link).toBeUndefined();
      expect(pick(res.body as Row[])).toEqual(list);
      const short = await t.http
        .get(`/api/mpox/data?limit=${2 * DAYS - 1}&format=csv`)
        .set(t.auth());
      expect(short.headers.link).toBe(
        `</api/mpox/data?limit=${2 * DAYS - 1}&format=csv&after=${cursorOf(list[2 * DAYS - 2])}>; rel="next"`,
      );
    });
  });
});

function text(
  res: import('supertest').Response,
  done: (error: Error | null, body: string) => void,
): void {
  const stream = res as unknown as import('node:http').IncomingMessage;
  let body = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (body += chunk));
  stream.on('end', () => done(null, body));
}
