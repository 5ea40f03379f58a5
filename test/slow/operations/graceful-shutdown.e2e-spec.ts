import { Agent, request as httpRequest } from 'node:http';
import { Socket, connect } from 'node:net';
import { CovidRecordEntity, buildDataSourceOptions, openMigratedDataSource } from '@app/database';
import { ApiProcess, databaseEnv, startApi } from '../../support/built-api';
import { TestDatabase, createTestDatabase } from '../../support/test-database';

const PORT = 3210;
const TOKEN = 'shutdown-token-0123456789';
const RECORDS = 3000;
const BURST = 40;

interface Outcome {
  status?: number;
  records?: number;
  error?: string;
  completedAt?: number;
}

/** One GET: a complete response (parsed JSON body) or the socket error. */
function get(path: string, agent: Agent | false = false): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: PORT,
        path,
        agent,
        headers: { Authorization: `Bearer ${TOKEN}` },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          try {
            const parsed = JSON.parse(body) as unknown[];
            resolve({ status: res.statusCode, records: parsed.length, completedAt: Date.now() });
          } catch {
            resolve({ status: res.statusCode, error: 'incomplete body' });
          }
        });
        res.on('error', (error) => resolve({ error: error.message }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message }),
    );
    req.end();
  });
}

async function seed(db: TestDatabase): Promise<void> {
  const dataSource = await openMigratedDataSource(
    buildDataSourceOptions({ ...db.config, timeoutMs: 5000 }),
  );
  try {
    const rows = Array.from({ length: RECORDS }, (_, i) => ({
      date: new Date(Date.UTC(2020, 0, 1) + (i % 1000) * 86400000).toISOString().slice(0, 10),
      country: `Country ${Math.floor(i / 1000)}`,
      countryKey: `country ${Math.floor(i / 1000)}`,
      totalCases: i,
      newCases: 1,
      totalDeaths: 0,
      newDeaths: 0,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await dataSource.getRepository(CovidRecordEntity).insert(rows.slice(i, i + 500));
    }
  } finally {
    await dataSource.destroy();
  }
}

describe('graceful shutdown of the built API (SIGTERM)', () => {
  let db: TestDatabase;
  let api: ApiProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    await seed(db);
  });
  afterEach(() => {
    if (api && api.child.exitCode === null && api.child.signalCode === null) {
      api.child.kill('SIGKILL');
    }
  });
  afterAll(() => db.drop());

  const env = (extra: Record<string, string> = {}) => ({
    ...databaseEnv(db.config),
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    API_TOKENS: `ops:${TOKEN}`,
    THROTTLE_LIMIT: '100000',
    LOG_LEVEL: 'info',
    ...extra,
  });

  it('finishes every accepted request, then exits 0', async () => {
    api = await startApi(env());
    // Clients keep connections open (keep-alive): open BURST of them first, so that every request
    // of the burst travels on a connection that the server has accepted.
    const agent = new Agent({ keepAlive: true, maxSockets: BURST });
    const warmUp = await Promise.all(
      Array.from({ length: BURST }, () => get('/api/covid/data?limit=1', agent)),
    );
    expect(warmUp.filter((o) => o.status !== 200)).toEqual([]);
    const burst = Array.from({ length: BURST }, () =>
      get(`/api/covid/data?limit=${RECORDS}`, agent),
    );
    // Signal as soon as the first response is complete: the others are still in flight.
    const first = await Promise.race(burst);
    const signalledAt = Date.now();
    api.child.kill('SIGTERM');
    const outcomes = await Promise.all(burst);
    const exit = await api.exited;
    agent.destroy();

    expect(first).toEqual(expect.objectContaining({ status: 200, records: RECORDS }));
    // None lost: every request got a complete 200 with the whole body.
    expect(outcomes.filter((o) => o.status !== 200 || o.records !== RECORDS)).toEqual([]);
    // And some of them were still being served when the signal came.
    expect(outcomes.filter((o) => (o.completedAt ?? 0) > signalledAt).length).toBeGreaterThan(0);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(api.output()).toContain('SIGTERM received');
    expect(api.output()).toContain('Exiting with code 0');
    // The port is closed.
    expect(await get('/api/health')).toEqual({ error: 'ECONNREFUSED' });
  });

  it('exits on its own (code 1) when a request never finishes within SHUTDOWN_TIMEOUT', async () => {
    api = await startApi(env({ SHUTDOWN_TIMEOUT: '1' }));
    // A request whose body never arrives stays in flight.
    const stuck: Socket = connect(PORT, '127.0.0.1');
    await new Promise((resolve) => stuck.once('connect', resolve));
    stuck.write(
      'POST /api/covid/data HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Authorization: Bearer ${TOKEN}\r\nContent-Length: 100\r\n\r\n{"date":`,
    );
    stuck.on('error', () => undefined);
    // Let the server see the request before the signal.
    await new Promise((resolve) => setTimeout(resolve, 300));
    api.child.kill('SIGTERM');
    const exit = await api.exited;
    stuck.destroy();
    expect(exit).toEqual({ code: 1, signal: null });
    expect(api.output()).toContain('Shutdown did not finish within 1s');
  });
});
