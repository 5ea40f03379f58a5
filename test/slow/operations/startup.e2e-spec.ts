import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, productionStartArgs } from '../../support/built-api';

const PORT = 3051;

function startWith(env: Record<string, string>) {
  return spawnSync(process.execPath, productionStartArgs(), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
}

interface StartLine {
  level: string;
  context?: string;
  msg: string;
  [field: string]: unknown;
}

/**
 * Starts the production command from a folder of its own (an SQLite file there), waits for the
 * line that says where it listens, checks that each address it names answers, then stops it;
 * returns every line it logged.
 */
async function startUntilListening(env: Record<string, string>): Promise<StartLine[]> {
  const dir = mkdtempSync(join(tmpdir(), 'covid-start-log-'));
  const child = spawn(process.execPath, productionStartArgs(), {
    cwd: dir,
    env: { PATH: process.env.PATH, PORT: String(PORT), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const lines = () =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as StartLine);
  try {
    for (let i = 0; i < 300 && !lines().some((l) => l.msg.startsWith('Listening on')); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const listening = lines().find((l) => l.msg.startsWith('Listening on'));
    expect(listening).toBeDefined();
    // Each address the line names answers (the dashboard and the Swagger UI are pages).
    for (const url of [`${String(listening!.api)}/health`, listening!.dashboard, listening!.docs]) {
      const res = await fetch(String(url).replace('localhost', '127.0.0.1'));
      expect([String(url), res.status]).toEqual([String(url), 200]);
    }
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  }
  return lines();
}

const START_UP_DETAIL = ['InstanceLoader', 'RoutesResolver', 'RouterExplorer'];

async function waitForHealth(): Promise<Response> {
  for (let i = 0; i < 100; i++) {
    try {
      return await fetch(`http://127.0.0.1:${PORT}/api/health`);
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('the API did not start');
}

describe('the production start command', () => {
  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ THROTTLE_LIMIT: '-5' }, 'THROTTLE_LIMIT'],
    [{ NODE_ENV: 'production' }, 'DB_TYPE'],
    [{ API_TOKENS: 'nocolon' }, 'API_TOKENS'],
    [
      { API_TOKENS: 'ok:abcdefgh1234,Revert:abcdefgh5678' },
      'API_TOKENS: entry 2 has the client name "Revert", which the service writes under itself',
    ],
    [{ API_TOKENS: 'restore:abcdefgh1234' }, 'API_TOKENS: entry 1 has the client name "restore"'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY=true is refused: it trusts every hop'],
    [{ TRUST_PROXY: '0.0.0.0/0' }, 'TRUST_PROXY: "0.0.0.0/0" is refused: it trusts public'],
    [{ TRUST_PROXY: '::ffff:10.0.0.1/96' }, 'TRUST_PROXY: "::ffff:10.0.0.1/96" is refused'],
  ])('stops at start-up on %p, naming %s', (env, variable) => {
    const result = startWith(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain(variable);
  });

  it('names a repeated SYNC_SOURCES entry by its number, never by its signed URL', () => {
    const url = 'https://user:pass@h.example/covid.csv?X-Amz-Signature=SECRET';
    const result = startWith({ SYNC_SOURCES: `covid=${url},covid=${url}` });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('SYNC_SOURCES: entry 2 lists the covid URL of entry 1 again');
    expect(result.stderr).not.toMatch(/user|pass|SECRET/);
  });

  it('serves on the SQLite default with no other set-up, and stops cleanly on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'covid-start-'));
    // Exactly `npm run start:prod` (its Node flags too), from another working directory.
    const child = spawn(process.execPath, productionStartArgs(), {
      cwd: dir,
      env: { PATH: process.env.PATH, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const health = await waitForHealth();
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', database: 'up' });
      const latest = await fetch(`http://127.0.0.1:${PORT}/api/covid/public/latest`);
      expect(await latest.json()).toEqual([]);
      expect(spawnSync('test', ['-f', join(dir, 'data/covid.sqlite')]).status).toBe(0);
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('logs an unreachable database at start-up as JSON lines, without stack traces', async () => {
    // Nothing listens on port 1: the MySQL connection is refused at once, and TypeORM retries.
    const child = spawn(process.execPath, productionStartArgs(), {
      cwd: ROOT,
      env: { PATH: process.env.PATH, PORT: String(PORT), DB_TYPE: 'mysql', DB_PORT: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      for (let i = 0; i < 100 && !stdout.includes('Retrying (1)'); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const lines = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        context: 'TypeOrmModule',
        msg: 'Unable to connect to the database. Retrying (1)...',
      }),
    );
    expect(stdout).not.toMatch(/\n\s+at /);
    expect(stderr).toBe('');
  });

  it('says in one info line where the API, the dashboard and the docs are; 127.0.0.1 by default', async () => {
    const lines = await startUntilListening({});
    const base = `http://127.0.0.1:${PORT}`;
    expect(lines.filter((l) => l.msg.startsWith('Listening on'))).toEqual([
      {
        level: 'info',
        time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        pid: expect.any(Number),
        hostname: expect.any(String),
        context: 'NestApplication',
        listen: `127.0.0.1:${PORT}`,
        api: `${base}/api`,
        dashboard: `${base}/dashboard`,
        docs: `${base}/api/docs`,
        msg:
          `Listening on 127.0.0.1:${PORT} (loopback: this machine only): API ${base}/api, ` +
          `dashboard ${base}/dashboard, OpenAPI ${base}/api/docs`,
      },
    ]);
    // The line per module, controller and route is debug: at info the start-up is a few lines.
    expect(lines.filter((l) => START_UP_DETAIL.includes(l.context ?? ''))).toEqual([]);
    const messages = lines.map((l) => l.msg);
    const listening = messages.findIndex((msg) => msg.startsWith('Listening on'));
    expect(messages.slice(0, listening + 1)).toEqual([
      'Starting Nest application...',
      expect.stringMatching(/^the store is empty: /),
      'Nest application successfully started',
      expect.stringMatching(/^Listening on /),
    ]);
  });

  it('names every interface with HOST=0.0.0.0, and logs the routes at LOG_LEVEL=debug', async () => {
    const lines = await startUntilListening({ HOST: '0.0.0.0', LOG_LEVEL: 'debug' });
    const base = `http://localhost:${PORT}`;
    expect(lines.find((l) => l.msg.startsWith('Listening on'))).toMatchObject({
      level: 'info',
      listen: `0.0.0.0:${PORT}`,
      api: `${base}/api`,
      msg:
        `Listening on 0.0.0.0:${PORT} (every interface: reachable from other machines): API ` +
        `${base}/api, dashboard ${base}/dashboard, OpenAPI ${base}/api/docs`,
    });
    const detail = lines.filter((l) => START_UP_DETAIL.includes(l.context ?? ''));
    expect(detail.length).toBeGreaterThan(50);
    expect(detail.every((l) => l.level === 'debug')).toBe(true);
    expect(detail).toContainEqual(
      expect.objectContaining({
        context: 'RoutesResolver',
        msg: 'HealthController {/api/health}:',
      }),
    );
  });
});
