import { mkdirSync, readdirSync } from 'node:fs';
import { IncomingHttpHeaders, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { cliTestBed } from './support/cli-test-bed';

const HEADER = 'date,country,total_cases,new_cases,total_deaths,new_deaths';
const csv = (...rows: string[]) => `${[HEADER, ...rows].join('\n')}\n`;

const V1 = csv('2024-01-01,France,10,10,1,1', '2024-01-02,France,15,5,2,1');
const V2 = csv(
  '2024-01-01,France,10,10,1,1',
  '2024-01-02,France,16,6,2,1',
  '2024-01-03,France,20,4,3,1',
);
const SPAIN = csv('2024-01-01,Spain,7,7,0,0');

/** What the test server answers for one path; `seen` holds the headers of every request. */
interface Route {
  seen: IncomingHttpHeaders[];
  answer(res: ServerResponse, headers: IncomingHttpHeaders, count: number): void;
}

/** Serves `body` with its validators, and 304 to a request that already has them. */
function fileRoute(version: () => { body: string; etag: string; modified: string }): Route {
  return {
    seen: [],
    answer(res, headers) {
      const { body, etag, modified } = version();
      const validators = { etag, 'last-modified': modified };
      if (headers['if-none-match'] === etag) return void res.writeHead(304, validators).end();
      res.writeHead(200, { ...validators, 'content-length': Buffer.byteLength(body) }).end(body);
    },
  };
}

describe('admin command line: import from a URL', () => {
  const bed = cliTestBed('covid-import-url-');
  let server: Server;
  let base: string;
  let tmp: string;
  let current = { body: V1, etag: '"v1"', modified: 'Mon, 01 Jan 2024 00:00:00 GMT' };
  const routes: Record<string, Route> = {
    '/covid.csv': fileRoute(() => current),
    '/flaky.csv': {
      seen: [],
      answer(res, _headers, count) {
        if (count === 1) return void res.writeHead(500).end('busy');
        res.writeHead(200, { etag: '"s1"', 'content-length': Buffer.byteLength(SPAIN) });
        res.end(SPAIN);
      },
    },
    '/short.csv': {
      seen: [],
      answer(res) {
        res.writeHead(200, { etag: '"t1"', 'content-length': Buffer.byteLength(V2) + 100 });
        res.write(V2, () => res.destroy());
      },
    },
    // Cut short once, then a whole body of another version.
    '/moving.csv': {
      seen: [],
      answer(res, _headers, count) {
        const length = Buffer.byteLength(V2);
        if (count === 1) {
          res.writeHead(200, { etag: '"m1"', 'content-length': length + 100 });
          return void res.write(V2, () => res.destroy());
        }
        res.writeHead(200, { etag: '"m2"', 'content-length': length }).end(V2);
      },
    },
    // Never answers: only the client's timeout ends the request.
    '/slow.csv': { seen: [], answer: () => undefined },
    '/missing.csv': { seen: [], answer: (res) => void res.writeHead(404).end('no') },
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const route = routes[req.url ?? ''];
      if (!route) return void res.writeHead(404).end();
      route.seen.push(req.headers);
      route.answer(res, req.headers, route.seen.length);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    tmp = join(bed.dir, 'tmp');
    mkdirSync(tmp);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const importUrl = (path: string, ...options: string[]) =>
    bed.cli('import', 'covid', `${base}${path}`, ...options).then((result) => ({
      ...result,
      // Temporary files go to TMPDIR: none must be left, whatever happened.
      leftovers: readdirSync(tmp),
    }));
  const totals = async () => (await bed.t.http.get('/api/covid/public/totals')).body as unknown;
  beforeAll(() => (bed.env = { ...bed.env, TMPDIR: tmp }));

  it('imports a URL, then sends its validators and writes nothing on 304', async () => {
    expect(await bed.cli('sources')).toEqual({ code: 0, stdout: 'No sources.\n', stderr: '' });
    const first = await importUrl('/covid.csv');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      'format:    trimmed\nrows read: 2\ninserted:  2\nupdated:   0\n',
    );
    expect(first.leftovers).toEqual([]);
    expect(await totals()).toEqual({ total_cases: 15, total_deaths: 2 });

    const again = await importUrl('/covid.csv');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('unchanged: not modified (HTTP 304); nothing written\n');
    expect(routes['/covid.csv'].seen[1]).toMatchObject({
      'if-none-match': '"v1"',
      'if-modified-since': 'Mon, 01 Jan 2024 00:00:00 GMT',
    });
    expect(again.leftovers).toEqual([]);
    expect(await totals()).toEqual({ total_cases: 15, total_deaths: 2 });
  });

  it('says unchanged when new validators come with the same bytes', async () => {
    current = { ...current, etag: '"v1-again"' };
    const result = await importUrl('/covid.csv');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('unchanged: same content as the last import; nothing written\n');
  });

  it('imports the new figures once the file changes', async () => {
    current = { body: V2, etag: '"v2"', modified: 'Wed, 03 Jan 2024 00:00:00 GMT' };
    const result = await importUrl('/covid.csv');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('rows read: 3\ninserted:  1\n');
    expect(await totals()).toEqual({ total_cases: 20, total_deaths: 3 });
  });

  it('retries a 500 and imports the answer that follows', async () => {
    const result = await importUrl('/flaky.csv');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(routes['/flaky.csv'].seen).toHaveLength(2);
    expect(result.stdout).toContain('inserted:  1\n');
    expect(await totals()).toEqual({ total_cases: 27, total_deaths: 3 });
  });

  it('fails on a body shorter than its Content-Length, writing nothing', async () => {
    const result = await importUrl('/short.csv');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^error: http:\/\/127\.0\.0\.1:\d+\/short\.csv: the body ended after \d+ of its \d+ bytes \(Content-Length\)\n$/,
    );
    expect(routes['/short.csv'].seen).toHaveLength(3);
    expect(result.leftovers).toEqual([]);
    expect(await totals()).toEqual({ total_cases: 27, total_deaths: 3 });
  });

  it('fails when the file changes between two download attempts, writing nothing', async () => {
    const result = await importUrl('/moving.csv');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: http:\/\/127\.0\.0\.1:\d+\/moving\.csv changed between two download attempts\n$/,
    );
    expect(routes['/moving.csv'].seen).toHaveLength(2);
    expect(result.leftovers).toEqual([]);
    expect(await totals()).toEqual({ total_cases: 27, total_deaths: 3 });
  });

  it('fails when the server does not answer within --timeout', async () => {
    const result = await importUrl('/slow.csv', '--timeout', '0.2');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: http:\/\/127\.0\.0\.1:\d+\/slow\.csv: no answer from the server within 0\.2 s \(timeout\)\n$/,
    );
    expect(result.leftovers).toEqual([]);
  });

  it('fails at once on a 404, naming the status', async () => {
    const result = await importUrl('/missing.csv');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: http:\/\/127\.0\.0\.1:\d+\/missing\.csv answered HTTP 404 Not Found\n$/,
    );
    expect(routes['/missing.csv'].seen).toHaveLength(1);
    expect(await totals()).toEqual({ total_cases: 27, total_deaths: 3 });
  });

  it('sources: lists each URL with its last outcome', async () => {
    const result = await bed.cli('sources');
    expect(result.code).toBe(0);
    const url = (path: string) => `${base}${path}`;
    const blocks = result.stdout.split(/\n(?=covid )/).map((block) => block.trimEnd());
    const byUrl = Object.fromEntries(blocks.map((b) => [b.split('\n')[0], b]));
    const at = '\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z';
    expect(Object.keys(byUrl).sort()).toEqual(
      ['/covid.csv', '/flaky.csv', '/missing.csv', '/moving.csv', '/short.csv', '/slow.csv']
        .map((p) => `covid ${url(p)}`)
        .sort(),
    );
    expect(byUrl[`covid ${url('/covid.csv')}`]).toMatch(
      new RegExp(
        `last attempt: ${at}  updated\n  last success: ${at}\n  rows:         1 inserted, 2 updated$`,
      ),
    );
    expect(byUrl[`covid ${url('/flaky.csv')}`]).toMatch(
      /updated\n.*\n {2}rows: +1 inserted, 0 updated$/,
    );
    expect(byUrl[`covid ${url('/missing.csv')}`]).toMatch(
      /failed\n {2}last success: -\n {2}rows: +0 inserted, 0 updated\n {2}last error: +http:\S+ answered HTTP 404 Not Found$/,
    );
    expect(byUrl[`covid ${url('/short.csv')}`]).toMatch(
      /failed\n[^]*last error: .*Content-Length\)$/,
    );
    expect(byUrl[`covid ${url('/moving.csv')}`]).toMatch(
      /failed\n[^]*last error: .*changed between two download attempts$/,
    );
    expect(byUrl[`covid ${url('/slow.csv')}`]).toMatch(/failed\n[^]*last error: .*\(timeout\)$/);
  });
});
