import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './built-api';

/** The built command line, exactly as `node dist/apps/cli/apps/cli/src/main.js` runs it. */
export const CLI_ENTRY = join(ROOT, 'dist/apps/cli/apps/cli/src/main.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Environment variables that point the command line at a test database. */
export { databaseEnv } from './built-api';

export interface CliProcess {
  child: ChildProcess;
  /** Resolves once the command has exited and its output is collected. */
  result: Promise<CliResult>;
  /** What it has written to stderr so far. */
  stderr: () => string;
}

/** Starts the command line as a child process (stdin closed, not a terminal). */
export function startCli(args: string[], env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const result = new Promise<CliResult>((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  return { child, result, stderr: () => stderr };
}

/** Runs the command line as a child process (stdin closed, not a terminal) and collects its output. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return startCli(args, env).result;
}

/** Polls `check` until it is true (bounded: at most `attempts` times, `everyMs` apart). */
export async function eventually(
  check: () => Promise<boolean>,
  { attempts = 100, everyMs = 100 } = {},
): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}
