import { get } from 'node:http';
import { TEST_ORIGIN, seedWriter } from '../../support/fixtures';
import { AddressInfo, Socket, connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { addDays } from '@app/common';
import { CLIENT_TIMEOUTS } from '@api/client-timeouts';
import { COVID_DISEASE, LIST_PAGE_SIZE, MPOX_DISEASE, RecordValues } from '@app/diseases';
import { RecordReadsRepository } from '@app/database';
import { TestApp, bootTestApp } from '../../support/test-app';
import { onlyOn } from '../../support/database-only';

type Row = { id: number; date: string; country: string };

const COUNTRIES = ['Alpha', 'Beta', 'Gamma'];
const DAYS = 4200; // 12,600 records: more than two pages of LIST_PAGE_SIZE

describe('large lists are streamed page by page', () => {
  let t: TestApp;
  let expected: Row[];
  beforeAll(async () => {
    t = await bootTestApp();
    const records: RecordValues[] = [];
    for (let day = 0; day < DAYS; day++) {
      for (const country of COUNTRIES) {
        records.push({
          date: addDays('2000-01-01', day),
          country,
          total_cases: day,
          new_cases: 1,
          total_deaths: 0,
          new_deaths: 0,
        });
      }
    }
    await seedWriter(t.dataSource, COVID_DISEASE).upsertMany(records, TEST_ORIGIN);
    const ids = await t.dataSource.query<{ id: number; date: string; country: string }[]>(
      'SELECT id, date, country FROM covid_data',
    );
    expected = ids
      .map((r) => ({ id: Number(r.id), date: String(r.date), country: r.country }))
      .sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id);
  });
  afterAll(() => t.close());

  const pick = (rows: Row[]) => rows.map(({ id, date, country }) => ({ id, date, country }));

  it('answers limit=100000000 with every record, in order, as chunked JSON', async () => {
    expect(expected.length).toBeGreaterThan(2 * LIST_PAGE_SIZE);
    const res = await t.http.get('/api/covid/data?limit=100000000').set(t.auth());
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(pick(res.body as Row[])).toEqual(expected);
  });

  it('gives a streamed list a connection that closes once idle, and small answers none', async () => {
    // A client that stops reading would hold the stream for ever: Node closes the connection
    // once nothing moved for CLIENT_TIMEOUTS.idleMs (docs/reliability.md gives the measurement). Only
    // streams get the timer: on every connection it cost the cached routes (bench:compare).
    const server = t.app.getHttpServer();
    if (!server.listening) await t.app.listen(0, '127.0.0.1');
    const { port } = server.address() as AddressInfo;
    const timeoutOf = (path: string) =>
      new Promise<number | undefined>((resolve, reject) => {
        const sockets: Socket[] = [];
        const track = (socket: Socket) => sockets.push(socket);
        server.on('connection', track);
        get({ port, path, headers: t.auth(), agent: false }, (res) => {
          // The answer has started: its connection's timer is what a paused client meets.
          server.off('connection', track);
          resolve(sockets[0]?.timeout);
          res.destroy();
        }).on('error', reject);
      });
    expect(await timeoutOf('/api/covid/data?limit=100000000')).toBe(CLIENT_TIMEOUTS.idleMs);
    expect(await timeoutOf('/api/covid/data?limit=10')).toBeFalsy();
  });

  it('stops exactly at a limit that falls inside a page, after an offset', async () => {
    const res = await t.http
      .get(`/api/covid/data?limit=${LIST_PAGE_SIZE + 7}&offset=3`)
      .set(t.auth());
    expect(res.status).toBe(200);
    expect(pick(res.body as Row[])).toEqual(expected.slice(3, 3 + LIST_PAGE_SIZE + 7));
  });

  it('streams one country with a date range', async () => {
    const res = await t.http
      .get('/api/covid/data?country=beta&from=2001-01-01&limit=100000000')
      .set(t.auth());
    expect(pick(res.body as Row[])).toEqual(
      expected.filter((r) => r.country === 'Beta' && r.date >= '2001-01-01'),
    );
  });

  it.each([
    ['a large page', 'limit=100000000'],
    ['a whole NDJSON download (decision 0049)', 'format=ndjson'],
  ])(
    '%s fetches no more pages while a client does not read, others answered meanwhile',
    async (_, query) => {
      // About 10 MB of JSON: more than the sockets' buffers hold.
      const pages = Math.ceil(80_000 / LIST_PAGE_SIZE);
      const records: RecordValues[] = Array.from({ length: pages * LIST_PAGE_SIZE }, (_, i) => ({
        date: addDays('1950-01-01', i % 20000),
        country: `Slow ${Math.floor(i / 20000)}`,
        total_cases: i,
        new_cases: 1,
        total_deaths: 0,
        new_deaths: 0,
      }));
      await seedWriter(t.dataSource, MPOX_DISEASE).upsertMany(records, TEST_ORIGIN);
      const server = t.app.getHttpServer();
      if (!server.listening) await t.app.listen(0, '127.0.0.1');
      const { port } = server.address() as AddressInfo;
      const page = jest.spyOn(RecordReadsRepository.prototype, 'page');
      const reader = connect(port, '127.0.0.1');
      try {
        reader.write(
          `GET /api/mpox/data?${query} HTTP/1.1\r\nHost: test\r\n` +
            `Authorization: ${t.auth().Authorization}\r\n\r\n`,
        );
        reader.pause(); // reads nothing: the kernel's buffers fill, then the server's stream
        let fetched = -1;
        for (let stable = 0; stable < 5;) {
          await sleep(200);
          stable = page.mock.calls.length === fetched ? stable + 1 : 0;
          fetched = page.mock.calls.length;
        }
        // The server stopped at what the socket holds plus one page read ahead.
        // More than one page: a stream, not a page of the default size.
        expect(fetched).toBeGreaterThan(2);
        expect(fetched).toBeLessThan(pages / 2);
        const other = await t.http.get('/api/mpox/public/summary');
        expect(other.status).toBe(200);
        expect(page.mock.calls.length).toBe(fetched);
      } finally {
        reader.destroy();
        page.mockRestore();
        await t.dataSource.query('DELETE FROM mpox_data');
      }
    },
  );

  onlyOn('mysql').it(
    'answers 60 concurrent full dumps in full on a pool of two, health staying ok (MySQL)',
    async () => {
      // Page queries of dumps take their turn (ConcurrencyLimit): every dump still answers in
      // full, and the health probe still gets a connection. (That the dumps would otherwise take
      // the pool shows only with the bench's data: docs/reliability.md.)
      const small = await bootTestApp({ DB_POOL_SIZE: '2', DB_TIMEOUT_MS: '100' }, {}, t);
      try {
        const dumps = Array.from({ length: 60 }, () =>
          small.http
            .get('/api/covid/data?limit=100000000')
            .set(small.auth())
            .then((res) => res),
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        const health = await small.http.get('/api/health');
        const answers = await Promise.all(dumps);
        expect(health.body).toEqual({ status: 'ok', database: 'up' });
        expect(answers.map((res) => res.status)).toEqual(Array(60).fill(200));
        expect(pick(answers[59].body as Row[])).toEqual(expected);
      } finally {
        await small.close();
      }
    },
  );
});
