import { AUTH } from './bench-servers';
import { DumpStats, runDump } from './dump-run';
import { LoadOptions, LoadStats, runLoad } from './load-run';
import { ServerProcess } from './server-process';

/** Targets of the issue: one country's 30 days as of an instant, and the whole COVID table. */
const MAX_COUNTRY_P99_MS = 25;
const MAX_DUMP_SECONDS = 3;

/** Reads as of an instant (docs/decisions/0025-as-of-reads.md): answered from the history. */
export interface AsOfResult {
  asOf: string;
  country: { path: string; load: LoadStats; maxP99Ms: number; met: boolean };
  /** The same route one request at a time, each as of another instant: never a kept answer. */
  uncached: { requests: number; p50Ms: number; p99Ms: number };
  dump: { path: string; runs: DumpStats[]; bestSeconds: number; maxSeconds: number; met: boolean };
}

/**
 * Requests one after the other, each as of an instant 10 ms earlier than the one before (all
 * after the import: the data loaded before the first route).
 */
async function distinctInstants(
  api: ServerProcess,
  country: string,
  requests: number,
): Promise<AsOfResult['uncached']> {
  const times: number[] = [];
  const start = Date.now();
  for (let i = 0; i < requests; i++) {
    const asOf = encodeURIComponent(new Date(start - i * 10).toISOString());
    const started = performance.now();
    const res = await fetch(`${api.url}/api/covid/public/country/${country}?as_of=${asOf}`);
    await res.text();
    if (res.status !== 200) throw new Error(`as_of read answered ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => Math.round(times[Math.floor(p * (times.length - 1))] * 100) / 100;
  return { requests, p50Ms: at(0.5), p99Ms: at(0.99) };
}

/**
 * `GET /api/covid/public/country/<country>?as_of=` under autocannon like the other routes (no
 * baseline: the targets are absolute; kept in memory like the live answer, under its instant),
 * then the same route one request at a time over distinct instants (the database's path, no
 * target), then full dumps of `/api/covid/data?as_of=`. The instant is taken after the import, so
 * every record is read through its revision.
 */
export async function runAsOf(
  api: ServerProcess,
  options: LoadOptions & { warmup: number; rounds: number; dumpRuns: number; country: string },
): Promise<AsOfResult> {
  const asOf = encodeURIComponent(new Date().toISOString());
  const countryPath = `/api/covid/public/country/${encodeURIComponent(options.country)}?as_of=${asOf}`;
  const target = { url: api.url + countryPath, method: 'GET' as const };
  if (options.warmup > 0) await runLoad(target, { ...options, duration: options.warmup }, api);
  const duration = options.duration * Math.max(1, options.rounds);
  const load = await runLoad(target, { ...options, duration }, api);

  const uncached = await distinctInstants(api, encodeURIComponent(options.country), 200);

  const dumpPath = `/api/covid/data?limit=100000000&as_of=${asOf}`;
  const runs: DumpStats[] = [];
  for (let i = 0; i < options.dumpRuns; i++) runs.push(await runDump(api, dumpPath, AUTH));
  const bestSeconds = Math.min(...runs.map((r) => r.seconds));
  return {
    asOf: decodeURIComponent(asOf),
    country: {
      path: countryPath,
      load,
      maxP99Ms: MAX_COUNTRY_P99_MS,
      met: load.non2xx === 0 && load.p99Ms < MAX_COUNTRY_P99_MS,
    },
    uncached,
    dump: {
      path: dumpPath,
      runs,
      bestSeconds,
      maxSeconds: MAX_DUMP_SECONDS,
      met: runs.every((r) => r.status === 200) && bestSeconds < MAX_DUMP_SECONDS,
    },
  };
}

/** The section's lines of the bench's Markdown report. */
export function formatAsOf({ country, uncached, dump }: AsOfResult): string {
  const { load } = country;
  const rows = dump.runs[0]?.rows ?? 0;
  return (
    `As of an instant, ${country.path}: ${Math.round(load.requestsPerSecond)} req/s, ` +
    `p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms, ${load.non2xx} non-2xx — ` +
    `${country.met ? 'met' : 'MISSED'} (p99 < ${country.maxP99Ms} ms)\n` +
    `As of an instant, one request at a time over ${uncached.requests} distinct instants: ` +
    `p50 ${uncached.p50Ms} ms, p99 ${uncached.p99Ms} ms\n` +
    `As of an instant, full dump (${rows} rows): best ${dump.bestSeconds.toFixed(2)} s over ` +
    `${dump.runs.length} run(s) — ${dump.met ? 'met' : 'MISSED'} (< ${dump.maxSeconds} s)`
  );
}
