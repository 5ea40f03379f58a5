import { Agent, get } from 'node:http';
import { ServerProcess } from './server-process';

/** Small reads while full dumps stream: what a client of small answers waits. */
export interface FairnessStats {
  dumps: number;
  seconds: number;
  readsPerSecond: number;
  reads: number;
  failedReads: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  dumpsCompleted: number;
  maxP99Ms: number;
  maxMaxMs: number;
  met: boolean;
}

export const FAIRNESS_TARGETS = { maxP99Ms: 25, maxMaxMs: 100 };

function timedGet(
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
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const times: number[] = [];
  let failedReads = 0;
  const reads: Promise<void>[] = [];
  const total = Math.max(1, Math.round(seconds * readsPerSecond));
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / readsPerSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    reads.push(
      timedGet(server.url + readPaths[i % readPaths.length], {}, agent).then(
        ({ ms, status }) => {
          times.push(ms);
          if (status !== 200) failedReads++;
        },
        () => void failedReads++,
      ),
    );
  }
  await Promise.all(reads);
  running = false;
  await Promise.all(dumpers);
  agent.destroy();
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
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
