/**
 * Property-based fuzzing of every route through the real HTTP pipeline: generated bodies, query
 * strings, path parameters and headers. The promise under test, for every single request:
 * - never a 5xx;
 * - every error is JSON with a string `error`;
 * - a refused request (any status other than 2xx) leaves both tables exactly as they were.
 *
 * `FUZZ_RUNS` (default 500) is the number of runs per property; `FUZZ_RUNS=5000 npm test --
 * test/fuzz` is the long run. The number of requests sent is printed at the end.
 */
import fc from 'fast-check';
import { validateHeaderValue } from 'node:http';
import { Socket, connect } from 'node:net';
import { Response } from 'supertest';
import { FIGURE_MAX } from '@app/diseases';
import { TestApp, TOKENS, bootTestApp } from '../../support/test-app';
import { snapshot } from '../../support/table-snapshot';

const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const DISEASES = ['covid', 'mpox'] as const;

interface FuzzRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

const INJECTIONS = [
  "' OR 1=1 --",
  "'; DROP TABLE covid_data; --",
  '" OR ""="',
  '1; DELETE FROM mpox_data',
  "France' UNION SELECT * FROM covid_data --",
  '<script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  '\u202e\u0627\u0644\u0639\u0631\u0628\u064a\u0629',
  'NaN',
  'Infinity',
  '1e400',
  '0x1F',
  ' ',
  '',
  '🦠'.repeat(60),
  'a'.repeat(101),
];

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...INJECTIONS),
);

const numbers = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    -1,
    0,
    -0,
    0.5,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 1,
    2 ** 63,
    1e308,
    -1e308,
    Number.MIN_VALUE,
  ),
);

/** Any JSON value, numbers as JSON text so that huge integers and exponents survive. */
const jsonValue: fc.Arbitrary<string> = fc.oneof(
  numbers.map((n) => JSON.stringify(n)),
  fc.bigInt().map((n) => n.toString()),
  fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '1.0', '-0', '1E2'),
  text.map((s) => JSON.stringify(s)),
  fc.constantFrom('null', 'true', 'false', '[]', '{}', '[1,2]', '{"a":1}', '"12"', '"2021-01-01"'),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
);

const validDate = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date(), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

const badDate = fc.oneof(
  fc.constantFrom(
    '2021-02-30',
    '2021-13-01',
    '1899-12-31',
    '9999-12-31',
    '2021-1-1',
    '20210101',
    '2021-01-01T00:00:00Z',
    ' 2021-01-01',
    '2021-01-01\n',
    '０２０２１-01-01',
  ),
  text,
);

const FIELDS = ['date', 'country', 'total_cases', 'new_cases', 'total_deaths', 'new_deaths'];
const SPECIAL_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'id',
  'Date',
  'country ',
  'total_recovered',
  'active_cases',
  'hasOwnProperty',
  'toString',
];

/** A record body, valid or nearly so, as an ordered list of JSON members (duplicates allowed). */
const members = fc
  .record({
    date: fc.oneof({ weight: 3, arbitrary: validDate.map((d) => JSON.stringify(d)) }, jsonValue),
    country: fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom('"Fuzzland"', '"  fuzzland "', '"FUZZLAND"') },
      jsonValue,
    ),
    total_cases: fc.oneof({ weight: 2, arbitrary: fc.nat().map(String) }, jsonValue),
    new_cases: fc.oneof(
      {
        weight: 2,
        arbitrary: fc
          .double({ noNaN: true, noDefaultInfinity: true })
          .map((n) => JSON.stringify(n)),
      },
      jsonValue,
    ),
    total_deaths: fc.oneof({ weight: 2, arbitrary: fc.nat().map(String) }, jsonValue),
    new_deaths: fc.oneof({ weight: 2, arbitrary: fc.integer().map(String) }, jsonValue),
  })
  .chain((record) =>
    fc
      .record({
        drop: fc.subarray(FIELDS, { maxLength: 2 }),
        extra: fc.array(
          fc.tuple(fc.oneof(fc.constantFrom(...SPECIAL_KEYS, ...FIELDS), fc.string()), jsonValue),
          { maxLength: 3 },
        ),
      })
      .map(({ drop, extra }) => [
        ...Object.entries(record).filter(([key]) => !drop.includes(key)),
        ...extra,
      ]),
  );

function objectText(entries: [string, string][]): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;
}

function deep(depth: number, open: string, close: string, inner = '1'): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/** Raw request bodies: JSON objects, other JSON, malformed text, deep and huge documents. */
const validRecord = fc
  .record({
    date: validDate,
    country: fc.constantFrom('Fuzzland', 'Côte d’Azur', 'Ελλάδα', ' fuzzland ', 'Nowhere'),
    total_cases: fc.nat(),
    // Within the bound of a daily figure (10^12 in magnitude).
    new_cases: fc.double({ noNaN: true, min: -FIGURE_MAX, max: FIGURE_MAX }),
    total_deaths: fc.nat(),
    new_deaths: fc.integer(),
  })
  .map((record) => JSON.stringify(record));

const body: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: validRecord },
  { weight: 8, arbitrary: members.map(objectText) },
  { weight: 2, arbitrary: jsonValue },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.constantFrom(
        '',
        '{',
        '{"date":}',
        "{'date':'2021-01-01'}",
        '{"a":1,}',
        '\u0000',
        '\ufeff{}',
        'undefined',
        'NaN',
        '{"__proto__":{"isAdmin":true}}',
        '{"constructor":{"prototype":{"polluted":1}}}',
        '{"date":"2021-01-01","date":"2021-01-02"}',
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.integer({ min: 10, max: 20_000 }).map((n) => deep(n, '[', ']')),
      fc.integer({ min: 10, max: 20_000 }).map((n) => deep(n, '{"a":', '}')),
      fc
        .integer({ min: 1, max: 4 })
        .map((n) => objectText([['country', JSON.stringify('x'.repeat(n * 250_000))]])),
      fc.constant(`[${Array.from({ length: 20_000 }, () => '{"date":"2021-01-01"}').join(',')}]`),
      fc.constant(JSON.stringify({ country: 'a'.repeat(6 * 1024 * 1024) })),
    ),
  },
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json;;;',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  '*/*',
  'json',
  '',
];
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);

/** A header value that Node's client accepts (control characters go through the raw socket test). */
function headerSafe(value: string): string {
  try {
    validateHeaderValue('x', value);
    return value;
  } catch {
    return encodeURIComponent(value);
  }
}

const authorization: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(`Bearer ${TOKENS.alice}`) },
  fc.constant(undefined),
  fc.constantFrom(
    '',
    'Bearer',
    'Bearer ',
    `bearer ${TOKENS.bob}`,
    `BEARER    ${TOKENS.alice}   `,
    `Bearer ${TOKENS.alice}x`,
    `Bearer ${TOKENS.alice.slice(0, -1)}`,
    `Basic ${Buffer.from(`alice:${TOKENS.alice}`).toString('base64')}`,
    `Token ${TOKENS.alice}`,
    `Bearer ${TOKENS.alice} ${TOKENS.bob}`,
    `Bearer ${'a'.repeat(8000)}`,
    'Bearer null',
    'Bearer undefined',
    "Bearer ' OR 1=1 --",
  ),
  fc.string({ unit: 'binary', maxLength: 60 }).map((s) => headerSafe(`Bearer ${s}`)),
  fc.string({ unit: 'binary', maxLength: 60 }).map(headerSafe),
);

const extraHeaders: fc.Arbitrary<Record<string, string>> = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'X-Forwarded-For',
        'X-Real-IP',
        'Accept',
        'Accept-Encoding',
        'Accept-Language',
        'If-None-Match',
        'Range',
        'Origin',
        'Cookie',
        'X-Http-Method-Override',
        'X-Request-Id',
        'Transfer-Encoding-Hint',
      ),
      fc.oneof(text, fc.constantFrom('*/*', 'gzip, br', 'bytes=0-10', '1.2.3.4, ::1', 'null')),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => Object.fromEntries(pairs.map(([name, value]) => [name, headerSafe(value)])));

/** Path segments: encoded arbitrary text, plus raw malformed or hostile encodings. */
const segment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: text.map(encodeURIComponent) },
  fc.constantFrom(
    '%',
    '%E0%A4%A',
    '%ZZ',
    '%00',
    '%C0%AF',
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e',
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    '9007199254740992',
    '99999999999999999999',
    'NaN',
    '%20',
    'a'.repeat(600),
    '%F0%9F%A6%A0',
  ),
  fc.integer().map(String),
  fc.bigInt().map(String),
);

const QUERY_KEYS = [
  'country',
  'metrics',
  'period',
  'metric',
  'week',
  'date',
  'from',
  'to',
  'limit',
  'offset',
  '__proto__',
  'constructor',
  'country[]',
  'limit[a]',
  'toString',
  '',
];
const queryValue = fc.oneof(
  segment,
  validDate,
  badDate.map(encodeURIComponent),
  fc.constantFrom('1', '0', '100', '100000000', '-1', '1.5', 'abc', '', 'true', '[]', '1,2'),
);
const query: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), segment), queryValue), {
    maxLength: 5,
  })
  .map((pairs) => pairs.map(([key, value]) => `${key}=${value}`).join('&'))
  .chain((q) => fc.constantFrom(q, `${q}&&`, `${q}&=`, `${q}#frag`, q.replace(/=/g, '')));

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

const disease = fc.constantFrom(...DISEASES);

function withHeaders(
  request: fc.Arbitrary<Omit<FuzzRequest, 'headers'> & { type?: string }>,
): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(request, authorization, extraHeaders).map(([{ type, ...req }, auth, extra]) => {
    const headers: Record<string, string> = { ...extra };
    if (auth !== undefined) headers.Authorization = auth;
    if (type !== undefined) headers['Content-Type'] = type;
    return { ...req, headers };
  });
}

/** POST /data and PUT /data/:id with generated bodies (`:id` from the records that exist). */
const writeBodies = (ids: () => number[]) =>
  withHeaders(
    fc.tuple(disease, fc.boolean(), body, contentType, fc.nat()).map(([d, put, b, type, pick]) => {
      const existing = ids();
      const id = existing.length ? existing[pick % existing.length] : 1;
      return put
        ? { method: 'PUT' as const, path: `/api/${d}/data/${id}`, body: b, type }
        : { method: 'POST' as const, path: `/api/${d}/data`, body: b, type };
    }),
  );

/** PUT/DELETE with generated `:id`, and the public country route with generated names. */
const pathParams = withHeaders(
  fc
    .tuple(disease, fc.constantFrom('PUT', 'DELETE', 'COUNTRY'), segment, body)
    .map(([d, kind, param, b]) =>
      kind === 'COUNTRY'
        ? { method: 'GET' as const, path: `/api/${d}/public/country/${param}` }
        : kind === 'PUT'
          ? {
              method: 'PUT' as const,
              path: `/api/${d}/data/${param}`,
              body: b,
              type: 'application/json',
            }
          : { method: 'DELETE' as const, path: `/api/${d}/data/${param}` },
    ),
);

const READ_PATHS = [
  '/api/covid/public/latest',
  '/api/covid/public/totals',
  '/api/mpox/public/summary',
  '/api/mpox/public/latest',
  '/api/covid/data',
  '/api/mpox/data',
  '/api/covid/countries',
  '/api/mpox/countries',
  '/api/covid/stats',
  '/api/mpox/stats',
  '/api/stats/summary',
  '/api/health',
  '/api/covid/public/country/fuzzland',
  '/api/covid/series',
  '/api/mpox/series',
  '/api/covid/public/map',
  '/api/mpox/public/weekly',
  '/api/population',
  '/api/regions',
  '/api/nowhere',
  '/api',
];

/** Every read route with generated query strings. */
const queries = withHeaders(
  fc.tuple(fc.constantFrom(...READ_PATHS), query).map(([path, q]) => ({
    method: 'GET' as const,
    path: q ? `${path}?${q}` : path,
  })),
);

/** Every route and method, with generated headers (and a body on any method). */
const headers = withHeaders(
  fc
    .tuple(
      fc.constantFrom(...READ_PATHS, '/api/covid/data/1', '/api/mpox/data/1'),
      fc.constantFrom<FuzzRequest['method'][]>('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
      fc.option(body, { nil: undefined }),
      contentType,
    )
    .map(([path, method, b, type]) => ({ method, path, body: b, type })),
);

// ---------------------------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------------------------

describe('fuzzing every route', () => {
  let t: TestApp;
  let baseline: string;
  let ids: number[] = [];
  let sent = 0;
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    // TRUST_PROXY (supertest calls from loopback) so that generated X-Forwarded-For headers are
    // parsed too.
    t = await bootTestApp({ TRUST_PROXY: 'loopback' });
    for (const d of DISEASES) {
      for (const [date, country] of [
        ['2021-01-01', 'Fuzzland'],
        ['2021-01-02', 'Fuzzland'],
        ['2021-01-01', 'Côte d’Azur'],
      ]) {
        await t.http
          .post(`/api/${d}/data`)
          .set(t.auth())
          .send({ date, country, total_cases: 10, new_cases: 1, total_deaths: 1, new_deaths: 0 })
          .expect(201);
      }
    }
    await refresh();
  });

  afterAll(async () => {
    const summary = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    process.stdout.write(`fuzz: ${sent} requests (${RUNS} runs per property); ${summary}\n`);
    await t?.close();
  });

  async function refresh(): Promise<void> {
    baseline = await snapshot(t.dataSource);
    const rows = await t.dataSource.query<{ id: number }[]>('SELECT id FROM covid_data');
    ids = rows.map((row) => Number(row.id));
  }

  function send(req: FuzzRequest): Promise<Response> {
    const methods = {
      GET: t.http.get.bind(t.http),
      POST: t.http.post.bind(t.http),
      PUT: t.http.put.bind(t.http),
      DELETE: t.http.delete.bind(t.http),
      PATCH: t.http.patch.bind(t.http),
      OPTIONS: t.http.options.bind(t.http),
    };
    let call = methods[req.method](req.path).set(req.headers);
    if (req.body !== undefined) call = call.send(req.body);
    return call;
  }

  /** The invariant of every request: no 5xx, JSON errors, refused requests change nothing. */
  async function check(req: FuzzRequest): Promise<void> {
    const res = await send(req);
    sent++;
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const where = `${req.method} ${req.path.slice(0, 200)} -> ${res.status} ${res.text?.slice(0, 300)}`;
    if (res.status >= 500) throw new Error(`5xx: ${where}`);
    if (res.status >= 400) {
      expect({ where, type: res.headers['content-type'] }).toEqual({
        where,
        type: 'application/json; charset=utf-8',
      });
      expect({ where, error: typeof (res.body as { error?: unknown }).error }).toEqual({
        where,
        error: 'string',
      });
    }
    if (res.status >= 200 && res.status < 300) {
      if (req.method !== 'GET') await refresh();
      return;
    }
    const after = await snapshot(t.dataSource);
    if (after !== baseline) throw new Error(`a refused request changed the data: ${where}`);
  }

  const run = (arbitrary: fc.Arbitrary<FuzzRequest>) =>
    fc.assert(fc.asyncProperty(arbitrary, check), { numRuns: RUNS, seed: SEED });

  it('survives generated record bodies on POST and PUT', () => run(writeBodies(() => ids)));

  it('survives generated path parameters', () => run(pathParams));

  it('survives generated query strings on every read route', () => run(queries));

  it('survives generated headers, methods and content types on every route', () => run(headers));

  it('answers JSON 4xx to raw requests that a client library would not send', async () => {
    const raw = [
      `GET /api/covid/public/latest HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n`,
      `GET /api/covid/data HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.alice}\u0000\r\n\r\n`,
      `GET /api/covid/public/country/a b HTTP/1.1\r\nHost: x\r\n\r\n`,
      `POST /api/covid/data HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.alice}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      `POST /api/covid/data HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.alice}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      `GET /api/covid/public/latest HTTP/1.1\r\n${'X-Long: '.padEnd(20_000, 'a')}\r\n\r\n`,
      `GET /api/covid/public/latest HTTP/1.1\r\n\r\n`,
      `POST /api/covid/data HTTP/1.1\r\nAuthorization: Bearer ${TOKENS.alice}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
    ];
    const server = t.app.getHttpServer();
    if (!server.listening)
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    for (const request of raw) {
      const answer = await rawExchange(port, request);
      sent++;
      const [head, text = ''] = answer.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      expect({ request: request.slice(0, 80), status: status >= 400 && status < 500 }).toEqual({
        request: request.slice(0, 80),
        status: true,
      });
      expect(head).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
      expect(head).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);
      expect(head).toMatch(
        /\r\nContent-Security-Policy: default-src 'none'; frame-ancestors 'none'\r\n/i,
      );
      expect(head).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/i);
      expect(JSON.parse(text)).toEqual({ error: expect.any(String) as string });
    }
    expect(await snapshot(t.dataSource)).toBe(baseline);
    // HTTP/1.0 needs no Host.
    const old = await rawExchange(port, 'GET /api/covid/public/latest HTTP/1.0\r\n\r\n');
    expect(old).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });
});

/** Sends raw bytes and returns whatever comes back before the server closes (or 2 s pass). */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(done, 2000);
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (/\r\n\r\n/.test(answer)) setTimeout(done, 50);
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(request, 'latin1');
  });
}
