import { ChildProcess, spawn } from 'node:child_process';
import { get } from 'node:http';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseConfig } from '@app/config';
import { productionStartCommand } from './start-command';

/** The project root (found upwards, so that this also works once compiled into dist/bench). */
export const ROOT = projectRoot(__dirname);

function projectRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'nest-cli.json'))) return dir;
  }
  throw new Error(`no nest-cli.json above ${from}`);
}
/** What follows `node` in `npm run start:prod`: Node's flags, then the entry (absolute). */
export function productionStartArgs(): string[] {
  const { nodeFlags, main } = productionStartCommand(ROOT);
  return [...nodeFlags, main];
}

/** The variables that point the API at a throw-away test database. */
export function databaseEnv(db: Omit<DatabaseConfig, 'timeoutMs'>): Record<string, string> {
  return db.type === 'sqlite'
    ? { DB_TYPE: 'sqlite', DB_PATH: db.path }
    : {
        DB_TYPE: 'mysql',
        DB_HOST: db.host,
        DB_PORT: String(db.port),
        DB_USER: db.user,
        DB_PASSWORD: db.password,
        DB_NAME: db.name,
      };
}

export interface ApiProcess {
  child: ChildProcess;
  /** Everything written to standard output so far (JSON log lines). */
  output(): string;
  /** Resolves with the exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** GET `path` of an instance on 127.0.0.1 with `token`: its status and its JSON body. */
export function getJson(
  port: number,
  path: string,
  token: string,
): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    }).on('error', reject);
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of several shapes
export type Json = any;

/** The status of GET /api/health, or undefined when nothing answers. */
export function healthStatus(port: number, host = '127.0.0.1'): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = get({ host, port, path: '/api/health', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(undefined));
    req.setTimeout(5000, () => req.destroy());
  });
}

/**
 * Starts the built API as a child process (by default as `npm run start:prod` does, Node's flags
 * included) with exactly `env` (plus PATH) and resolves once its
 * health check answers 200 on `env.PORT` (bounded wait: `attempts` checks 250 ms apart); rejects
 * with its output when it exits or does not start.
 */
export async function startApi(
  env: Record<string, string>,
  args: string[] = productionStartArgs(),
  attempts = 120,
): Promise<ApiProcess> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let alive = true;
  void exited.then(() => (alive = false));
  let started = false;
  for (let attempt = 0; attempt < attempts && alive && !started; attempt++) {
    started = (await healthStatus(Number(env.PORT))) === 200;
    if (!started) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (!started) {
    child.kill('SIGKILL');
    throw new Error(`the API did not start:\n${output}`);
  }
  return { child, output: () => output, exited };
}
