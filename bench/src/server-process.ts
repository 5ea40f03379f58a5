import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** A server run as a child process, on 127.0.0.1:port, stopped with `stop()`. */
export class ServerProcess {
  private constructor(
    readonly name: string,
    readonly port: number,
    private readonly child: ChildProcess,
    private readonly stderr: string[],
  ) {}

  static start(
    name: string,
    script: string,
    port: number,
    env: Record<string, string>,
    args: string[] = [],
    nodeFlags: string[] = [],
  ): ServerProcess {
    const child = spawn(process.execPath, [...nodeFlags, script, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const stderr: string[] = [];
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr.push(chunk);
      if (stderr.length > 50) stderr.shift();
    });
    return new ServerProcess(name, port, child, stderr);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  /** Waits until `path` answers 200 (at most `timeoutMs`). */
  async ready(path: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) {
        throw new Error(`${this.name} exited (${this.child.exitCode}): ${this.stderr.join('')}`);
      }
      const ok = await fetch(this.url + path)
        .then((res) => res.ok)
        .catch(() => false);
      if (ok) return;
      await sleep(100);
    }
    throw new Error(`${this.name} did not answer ${path} within ${timeoutMs} ms`);
  }

  /** The command line the process runs, as the kernel has it (`/proc/<pid>/cmdline`). */
  commandLine(): string[] {
    return readFileSync(`/proc/${this.pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
  }

  /** Resident set size in bytes, from /proc (Linux). */
  rss(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  }

  /**
   * CPU time (user + system, every thread) the server has used so far, in seconds, from
   * /proc/<pid>/stat (clock ticks of 1/100 s, Linux's USER_HZ).
   */
  cpuSeconds(): number {
    const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3 on: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    const killed = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
    if (!killed) this.child.kill('SIGKILL');
  }
}
