import { MESSAGES } from '@app/common';
import { TOKENS, TestApp, bootTestApp } from '../../support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WRONG_TOKEN = 'not-a-known-token-5f3c9a1e7d';

interface LogLine {
  level: string;
  time: string;
  msg: string;
  requestId?: string;
  method?: string;
  path?: string;
  status?: number;
  durationMs?: number;
  client?: string | null;
  context?: string;
}

/** Boots the app with its log lines captured; every line must be one JSON object. */
async function bootLogged(env: Record<string, string> = {}) {
  const raw: string[] = [];
  const t = await bootTestApp(env, { logDestination: { write: (line: string) => raw.push(line) } });
  const lines = (): LogLine[] =>
    raw.flatMap((chunk) =>
      chunk
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as LogLine),
    );
  const requestLines = () => lines().filter((line) => line.path !== undefined);
  return { t, raw, lines, requestLines };
}

describe('request logs', () => {
  let t: TestApp;
  let raw: string[];
  let lines: () => LogLine[];
  let requestLines: () => LogLine[];

  beforeAll(async () => {
    ({ t, raw, lines, requestLines } = await bootLogged({ LOG_LEVEL: 'info' }));
  });
  afterAll(() => t.close());

  it("replaces Nest's logger: start-up lines are JSON too, the route lines debug only", () => {
    expect(lines()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 'info',
          context: 'NestFactory',
          msg: 'Starting Nest application...',
        }),
      ]),
    );
    const detail = ['InstanceLoader', 'RoutesResolver', 'RouterExplorer'];
    expect(lines().filter((line) => detail.includes(line.context ?? ''))).toEqual([]);
  });

  it('writes one line per request with method, path, status, duration, client and request id', async () => {
    const before = requestLines().length;
    const res = await t.http
      .get('/api/covid/data?country=France&limit=5')
      .set(t.auth('alice'))
      .set('X-Request-Id', 'partner-42.abc');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('partner-42.abc');
    const logged = requestLines().slice(before);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      pid: process.pid,
      hostname: expect.any(String),
      requestId: 'partner-42.abc',
      method: 'GET',
      path: '/api/covid/data',
      status: 200,
      durationMs: expect.any(Number),
      client: 'alice',
      msg: 'request completed',
    });
  });

  it('generates a request id when none or an insane one is sent, and sends it back', async () => {
    for (const incoming of [undefined, 'has spaces and "quotes"', 'x'.repeat(200)]) {
      const req = t.http.get('/api/covid/public/latest');
      if (incoming) req.set('X-Request-Id', incoming);
      const res = await req;
      expect(res.status).toBe(200);
      const id = res.headers['x-request-id'];
      expect(id).toMatch(UUID);
      expect(requestLines().filter((line) => line.requestId === id)).toEqual([
        expect.objectContaining({ path: '/api/covid/public/latest', status: 200, client: null }),
      ]);
    }
  });

  it('logs 401s, 4xx and database errors without the token or the Authorization header', async () => {
    const wrong = await t.http.get('/api/covid/data').set('Authorization', `Bearer ${WRONG_TOKEN}`);
    expect(wrong.status).toBe(401);
    const missing = await t.http.get('/api/stats/summary');
    expect(missing.status).toBe(401);
    const invalid = await t.http
      .post('/api/covid/data')
      .set(t.auth('bob'))
      .send({ date: 'nope', token: TOKENS.bob });
    expect(invalid.status).toBe(400);
    const unknown = await t.http.get('/api/nowhere').set(t.auth('bob'));
    expect(unknown.status).toBe(404);

    expect(requestLines().find((l) => l.requestId === wrong.headers['x-request-id'])).toEqual(
      expect.objectContaining({
        level: 'warn',
        status: 401,
        client: null,
        path: '/api/covid/data',
      }),
    );
    expect(requestLines().find((l) => l.requestId === invalid.headers['x-request-id'])).toEqual(
      expect.objectContaining({ level: 'warn', status: 400, client: 'bob', method: 'POST' }),
    );
    expect(requestLines().find((l) => l.requestId === unknown.headers['x-request-id'])).toEqual(
      expect.objectContaining({ level: 'warn', status: 404, client: 'bob' }),
    );

    // A database error: the app logs it (503) and still no token anywhere.
    await t.dataSource.destroy();
    const down = await t.http.get('/api/covid/data').set(t.auth('alice'));
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ error: MESSAGES.databaseUnavailable });
    expect(requestLines().find((l) => l.requestId === down.headers['x-request-id'])).toEqual(
      expect.objectContaining({ level: 'error', status: 503, client: 'alice' }),
    );
    // The error's own line names the request, to be matched with the client's X-Request-Id.
    expect(lines()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 'warn',
          context: 'Errors',
          msg: expect.stringContaining(
            `Database unavailable (request ${String(down.headers['x-request-id'])}): `,
          ),
        }),
      ]),
    );

    const everything = raw.join('');
    for (const secret of [TOKENS.alice, TOKENS.bob, WRONG_TOKEN, 'Bearer', 'authorization']) {
      expect(everything.toLowerCase()).not.toContain(secret.toLowerCase());
    }
  });
});

describe('LOG_LEVEL', () => {
  it('warn: successful requests are not logged, refused ones are', async () => {
    const { t, requestLines } = await bootLogged({ LOG_LEVEL: 'warn' });
    try {
      expect((await t.http.get('/api/covid/public/latest')).status).toBe(200);
      expect((await t.http.get('/api/stats/summary')).status).toBe(401);
      expect(requestLines().map((l) => [l.level, l.status])).toEqual([['warn', 401]]);
    } finally {
      await t.close();
    }
  });

  it('health checks are logged at debug only', async () => {
    const info = await bootLogged({ LOG_LEVEL: 'info' });
    const debug = await bootLogged({ LOG_LEVEL: 'debug' });
    try {
      expect((await info.t.http.get('/api/health')).status).toBe(200);
      expect((await debug.t.http.get('/api/health')).status).toBe(200);
      expect(info.requestLines()).toEqual([]);
      expect(debug.requestLines()).toEqual([
        expect.objectContaining({ level: 'debug', path: '/api/health', status: 200 }),
      ]);
    } finally {
      await info.t.close();
      await debug.t.close();
    }
  });
});
