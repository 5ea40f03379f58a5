import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { CliResult, databaseEnv, runCli } from './cli';
import { TestApp, bootTestApp } from './test-app';

/*
 * Set-up shared by the end-to-end test files (Jest globals: not for the bench, which builds
 * ./cli.ts too).
 */
/** What the command-line tests of one `describe` block share. */
export interface CliTestBed {
  /** The API on a throw-away database, to look at what the command line did. */
  t: TestApp;
  /** The command line's environment for that database. */
  env: Record<string, string>;
  /** A scratch folder for test files, removed afterwards. */
  dir: string;
  cli(...args: string[]): Promise<CliResult>;
}

/** Boots the bed before the block's tests and removes it after them. */
export function cliTestBed(dirPrefix: string): CliTestBed {
  const bed = { cli: (...args: string[]) => runCli(args, bed.env) } as CliTestBed;
  beforeAll(async () => {
    // The command line writes from another process, which this API hears of only through Redis
    // (or once its cached answers expire): it reads what was written, not a cached answer.
    bed.t = await bootTestApp({ CACHE_TTL_MS: '0' });
    bed.env = databaseEnv(bed.t.config.db);
    bed.dir = mkdtempSync(join(tmpdir(), dirPrefix));
  });
  afterAll(async () => {
    await bed.t.close();
    rmSync(bed.dir, { recursive: true, force: true });
  });
  return bed;
}

/** Empties one Redis database (tests give each file or block its own). */
export async function flushRedisDb(url: string): Promise<void> {
  const redis = new Redis(url);
  try {
    await redis.flushdb();
  } finally {
    await redis.quit();
  }
}
