import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';

const run = promisify(execFile);

/** The port of the dedicated server (never the shared one on 3306). */
export const DEDICATED_MARIADB_PORT = Number(process.env.OUTAGE_DB_PORT ?? 3407);

/**
 * A MariaDB server of the test's own (temporary data directory, socket and port) that the test
 * may pause (SIGSTOP: the database hangs), kill (SIGKILL: connections refused) and restart.
 * Needs the `mariadbd` and `mariadb-install-db` binaries of the machine's MariaDB package.
 */
export class DedicatedMariaDb {
  private readonly dir = mkdtempSync(join(tmpdir(), 'covid-api-outage-'));
  private process?: ChildProcess;
  private readonly onExit = () => this.process?.kill('SIGKILL');

  constructor(readonly port = DEDICATED_MARIADB_PORT) {}

  get pid(): number | undefined {
    return this.process?.pid;
  }

  async install(): Promise<void> {
    await run('mariadb-install-db', [
      '--no-defaults',
      `--datadir=${join(this.dir, 'data')}`,
      '--user=root',
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
    ]);
    process.once('exit', this.onExit);
  }

  /** Starts the server on the data directory (again after a kill) and waits until it answers. */
  async start(): Promise<void> {
    this.process = spawn(
      'mariadbd',
      [
        '--no-defaults',
        `--datadir=${join(this.dir, 'data')}`,
        `--socket=${join(this.dir, 'sock')}`,
        `--pid-file=${join(this.dir, 'pid')}`,
        `--log-error=${join(this.dir, 'error.log')}`,
        `--port=${this.port}`,
        '--bind-address=127.0.0.1',
        '--user=root',
        '--skip-log-bin',
        '--innodb-buffer-pool-size=32M',
        '--max-connections=200',
      ],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await this.query('SELECT 1');
        return;
      } catch (error) {
        if (Date.now() > deadline || this.process.exitCode !== null) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  /** The database hangs: connections stay open, nothing answers. */
  pause(): void {
    this.process?.kill('SIGSTOP');
  }

  resume(): void {
    this.process?.kill('SIGCONT');
  }

  /** The database dies: connections are reset, new ones refused. */
  async kill(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
  }

  async query<T = unknown>(sql: string, params: unknown[] = []): Promise<T> {
    const connection = await createConnection({
      host: '127.0.0.1',
      port: this.port,
      user: 'root',
      // Refused at once while it is down; a server just resumed under load can take seconds.
      connectTimeout: 10_000,
      supportBigNumbers: true,
      dateStrings: true,
    });
    try {
      const [rows] = await connection.query(sql, params);
      return rows as T;
    } finally {
      await connection.end();
    }
  }

  async destroy(): Promise<void> {
    await this.kill();
    process.removeListener('exit', this.onExit);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
