import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';

const run = promisify(execFile);

/**
 * A MariaDB server of the test's own (own data directory in a temp dir, own port in our range), so
 * that a test can stop it and start it again without touching the shared server.
 */
export class PrivateMariaDb {
  private server?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), 'covid-api-mariadb-'));

  constructor(readonly port: number) {}

  get datadir(): string {
    return join(this.dir, 'data');
  }

  static async create(port: number): Promise<PrivateMariaDb> {
    const db = new PrivateMariaDb(port);
    await run('mariadb-install-db', [
      '--no-defaults',
      `--datadir=${db.datadir}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      '--user=root',
    ]);
    await db.start();
    return db;
  }

  async start(): Promise<void> {
    this.server = spawn(
      'mariadbd',
      [
        '--no-defaults',
        `--datadir=${this.datadir}`,
        `--port=${this.port}`,
        '--bind-address=127.0.0.1',
        `--socket=${join(this.dir, 'mariadb.sock')}`,
        `--pid-file=${join(this.dir, 'mariadb.pid')}`,
        '--user=root',
        '--skip-log-bin',
        '--innodb-buffer-pool-size=16M',
        '--innodb-log-file-size=8M',
      ],
      { stdio: 'ignore' },
    );
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        const connection = await createConnection({
          host: '127.0.0.1',
          port: this.port,
          user: 'root',
        });
        await connection.end();
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    throw new Error(`the private MariaDB on port ${this.port} did not start`);
  }

  /** Stops the server (clean shutdown) and waits until its process has exited. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server || server.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    });
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
