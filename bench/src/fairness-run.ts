import { Agent, get } from 'node:http';
import { ServerProcess } from './server-process';

/** Small reads sent at a steady rate: what a client of small answers waits. */
export interface ReadLatencies {
  readsPerSecond: number;
  reads: number;
  failedReads: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Small reads while full dumps stream. */
export interface FairnessStats extends ReadLatencies {
  dumps: number;
  /** The dumps' format: JSON when absent (CSV since the list formats issue). */
  format?: 'csv';
  seconds: number;
  dumpsCompleted: number;
  maxP99Ms: number;
  maxMaxMs: number;
  met: boolean;
}

export const FAIRNESS_TARGETS = { maxP99Ms: 25, maxMaxMs: 100 };

export function timedGet(
  url: string,
  headers: Record<string, string>,
  agent: Agent | false,
): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get(url, { headers, agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () =>
        resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * `dumps` clients download the whole list again and again while small public reads are sent at a
 * steady `readsPerSecond` (not waiting for each other) for `seconds`; each read's time is kept.
 */
export async function runFairness(
  server: ServerProcess,
  dumpPath: string,
  readPaths: string[],
  auth: Record<string, string>,
  { dumps, seconds, readsPerSecond }: { dumps: number; seconds: number; readsPerSecond: number },
): Promise<FairnessStats> {
  let running = true;
  let dumpsCompleted = 0;
  const dumpers = Array.from({ length: dumps }, async () => {
    while (running) {
      await timedGet(server.url + dumpPath, auth, false);
      if (running) dumpsCompleted++;
    }
  });
  const total = Math.max(1, Math.round(seconds * readsPerSecond));
  const { times, failedReads } = await steadyReads(
    server.url,
    readPaths,
    readsPerSecond,
    (i) => i < total,
  );
  running = false;
  await Promise.all(dumpers);
  const at = quantiles(times);
  const p99Ms = at(0.99);
  const maxMs = times[times.length - 1] ?? 0;
  return {
    dumps,
    seconds,
    readsPerSecond,
    reads: times.length,
    failedReads,
    p50Ms: at(0.5),
    p99Ms,
    maxMs,
    dumpsCompleted,
    ...FAIRNESS_TARGETS,
    met:
      failedReads === 0 && p99Ms < FAIRNESS_TARGETS.maxP99Ms && maxMs < FAIRNESS_TARGETS.maxMaxMs,
  };
}

/**
 * Sends GETs of `paths` (in turn) at a steady `readsPerSecond`, not waiting for each other, as
 * long as `more(i)` says so; returns every answer's time, sorted, and the failures.
 */
export async function steadyReads(
  base: string,
  paths: string[],
  readsPerSecond: number,
  more: (sent: number) => boolean,
): Promise<{ times: number[]; failedReads: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const times: number[] = [];
  let failedReads = 0;
  const reads: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; more(i); i++) {
    const wait = started + (i * 1000) / readsPerSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    reads.push(
      timedGet(base + paths[i % paths.length], {}, agent).then(
        ({ ms, status }) => {
          times.push(ms);
          if (status !== 200) failedReads++;
        },
        () => void failedReads++,
      ),
    );
  }
  await Promise.all(reads);
  agent.destroy();
  times.sort((a, b) => a - b);
  return { times, failedReads };
}

/** The q-quantile of sorted `times` (0 when empty). */
export function quantiles(times: number[]): (q: number) => number {
  return (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
}

/** The latencies of steady reads: `times` sorted, as `steadyReads` gives them. */
export function readLatencies(
  times: number[],
  failedReads: number,
  readsPerSecond: number,
): ReadLatencies {
  const at = quantiles(times);
  return {
    readsPerSecond,
    reads: times.length,
    failedReads,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: times[times.length - 1] ?? 0,
  };
}
