import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cliTestBed } from '../../support/cli-test-bed';
import { SourceRoute, SourceServer, V1, V2, csv, fileRoute } from '../../support/source-server';

const SPAIN = csv('2024-01-01,Spain,7,7,0,0');

describe('admin command line: import from a URL', () => {
  const bed = cliTestBed('covid-import-url-');
  const server = new SourceServer();
  let base: string;
  let tmp: string;
  let current = { body: V1, etag: '"v1"', modified: 'Mon, 01 Jan 2024 00:00:00 GMT' };
  const routes: Record<string, SourceRoute> = {
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
    Object.assign(server.routes, routes);
    await server.start();
    base = server.base;
    tmp = join(bed.dir, 'tmp');
    mkdirSync(tmp);
  });
  afterAll(() => server.stop());

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
      'format:    trimmed\nrows read: 2\ninserted:  2\nupdated:   0\nunchanged: 0\n',
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
        `last attempt: ${at}  updated\n  last success: ${at}\n  rows:         1 inserted, 1 updated, 1 unchanged, 0 skipped\n  corrected:    2 figure\\(s\\) \\(docs/corrections\\.md\\)\n  last import:  [0-9a-f-]{36}$`,
      ),
    );
    expect(byUrl[`covid ${url('/flaky.csv')}`]).toMatch(
      /updated\n.*\n {2}rows: +1 inserted, 0 updated, 0 unchanged, 0 skipped\n {2}corrected: +0 figure\(s\) \(docs\/corrections\.md\)\n {2}last import: {2}[0-9a-f-]{36}$/,
    );
    expect(byUrl[`covid ${url('/missing.csv')}`]).toMatch(
      /failed\n {2}last success: -\n {2}rows: +0 inserted, 0 updated, 0 unchanged, 0 skipped\n {2}corrected: +0 figure\(s\) \(docs\/corrections\.md\)\n {2}last error: +http:\S+ answered HTTP 404 Not Found$/,
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
