import { AUTH } from './bench-servers';
import { ReadLatencies } from './fairness-run';
import { steadyReads } from './feed-run';
import { ServerProcess } from './server-process';

/** Target of the history issue: one record's revisions. */
const MAX_P99_MS = 25;

/** `GET /api/covid/data/:id/history` of one record of the loaded data. */
export interface RecordHistoryStats extends ReadLatencies {
  path: string;
  maxP99Ms: number;
  met: boolean;
}

/**
 * A record of `country` (the newest) is updated twice, so that its history has three revisions,
 * then its history is read 200 times at 20/s, one request at a time, as the feed's last page is
 * (no baseline: the target is absolute). Every read goes to the database: history answers are
 * not kept.
 */
export async function runRecordHistory(
  api: ServerProcess,
  country: string,
): Promise<RecordHistoryStats> {
  const listed = await fetch(
    `${api.url}/api/covid/data?country=${encodeURIComponent(country)}&limit=1`,
    { headers: AUTH },
  );
  const [record] = (await listed.json()) as Record<string, unknown>[];
  if (record === undefined) throw new Error(`no record of ${country} to read the history of`);
  const { id, ...values } = record;
  for (const extra of [1, 2]) {
    const res = await fetch(`${api.url}/api/covid/data/${String(id)}`, {
      method: 'PUT',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ ...values, new_cases: Number(values.new_cases) + extra }),
    });
    if (res.status !== 200) throw new Error(`PUT of record ${String(id)}: ${res.status}`);
  }
  const path = `/api/covid/data/${String(id)}/history`;
  const latencies = await steadyReads(api.url + path, AUTH);
  return {
    ...latencies,
    path,
    maxP99Ms: MAX_P99_MS,
    met: latencies.failedReads === 0 && latencies.p99Ms < MAX_P99_MS,
  };
}

/** The line of the results table's notes. */
export function formatRecordHistory(stats: RecordHistoryStats): string {
  const ms = (value: number) => value.toFixed(1);
  return (
    `History of one record, ${stats.path}: ${stats.reads} reads at ${stats.readsPerSecond}/s, ` +
    `p50 ${ms(stats.p50Ms)} ms, p99 ${ms(stats.p99Ms)} ms, max ${ms(stats.maxMs)} ms, ` +
    `${stats.failedReads} failed — ${stats.met ? 'met' : 'MISSED'} (p99 < ${stats.maxP99Ms} ms)`
  );
}
