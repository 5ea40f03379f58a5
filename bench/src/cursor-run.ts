import { AUTH } from './bench-servers';
import { ReadLatencies } from './fairness-run';
import { latenciesOf, pacedReads } from './feed-run';
import { ServerProcess } from './server-process';

const LIST_PATH = '/api/covid/data';
/** Records per page of the walk that finds the cursors. */
const WALK_PAGE = 1000;
/** Records per timed page (a few more on later reads: see `pageUrl`). */
const PAGE = 100;
/** The first and the last tenth of the list are the shallow and the deep pages. */
const TENTH = 0.1;
const MAX_P99_MS = 25;
/** A deep page may cost this much more than a shallow one, at the median, and still be met. */
const MAX_DEEP_TO_SHALLOW = 1.5;

/** The whole list read once by following `Link: rel="next"` from the first page. */
export interface CursorWalk {
  pages: number;
  /** Distinct records read. */
  records: number;
  /** Records read a second time (none if the cursor pages are right). */
  repeated: number;
  seconds: number;
}

/** Pages of `GET /api/covid/data` near the start and near the end of the whole list. */
export interface CursorPagesStats {
  walk: CursorWalk;
  shallow: ReadLatencies;
  deep: ReadLatencies;
  /** The deep pages' records asked by `offset` instead: what the cursor saves. */
  deepByOffset: ReadLatencies;
  maxP99Ms: number;
  maxDeepToShallow: number;
  met: boolean;
}

interface PageStart {
  /** Records before the page. */
  depth: number;
  /** The cursor the page after `depth` records is asked with (none for the first page). */
  after?: string;
}

/** Every `WALK_PAGE`-record page's start, by following the `Link` headers as a partner would. */
async function walk(server: ServerProcess): Promise<{ walk: CursorWalk; starts: PageStart[] }> {
  const started = performance.now();
  const seen = new Set<number>();
  const starts: PageStart[] = [{ depth: 0 }];
  let repeated = 0;
  let path: string | undefined = `${LIST_PATH}?limit=${WALK_PAGE}`;
  while (path !== undefined) {
    const res: Response = await fetch(server.url + path, { headers: AUTH });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    for (const { id } of (await res.json()) as { id: number }[]) {
      if (seen.has(id)) repeated++;
      else seen.add(id);
    }
    path = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1];
    const after = path && new URL(path, server.url).searchParams.get('after');
    if (after) starts.push({ depth: seen.size + repeated, after });
  }
  const seconds = (performance.now() - started) / 1000;
  return { walk: { pages: starts.length, records: seen.size, repeated, seconds }, starts };
}

/**
 * The URL of the `i`-th timed read of one kind: the page starts are used in turn, and each round
 * asks one record more, so that no two reads share a URL and none is answered from memory.
 */
function pageUrl(starts: PageStart[], i: number, byOffset: boolean): string {
  const start = starts[i % starts.length];
  const limit = PAGE + Math.floor(i / starts.length);
  const from = byOffset ? `&offset=${start.depth}` : start.after ? `&after=${start.after}` : '';
  return `${LIST_PATH}?limit=${limit}${from}`;
}

/**
 * Reads the whole COVID list once by cursor pages (every record once), then times pages of 100
 * records from its first and its last tenth, and the last tenth's by `offset`, in turn, one
 * request at a time at a steady rate: a deep cursor page should cost what a shallow one does.
 */
export async function runCursorPages(
  server: ServerProcess,
  { seconds = 10, readsPerSecond = 30 } = {},
): Promise<CursorPagesStats> {
  const { walk: walked, starts } = await walk(server);
  const tenth = Math.max(1, Math.floor(starts.length * TENTH));
  const kinds = [
    { starts: starts.slice(0, tenth), byOffset: false },
    { starts: starts.slice(-tenth), byOffset: false },
    { starts: starts.slice(-tenth), byOffset: true },
  ];
  const reads = await pacedReads(
    (n) => {
      const { starts: of, byOffset } = kinds[n % kinds.length];
      return server.url + pageUrl(of, Math.floor(n / kinds.length), byOffset);
    },
    AUTH,
    { seconds, readsPerSecond },
  );
  const [shallow, deep, deepByOffset] = kinds.map((_, k) =>
    latenciesOf(
      reads.filter((_, n) => n % kinds.length === k),
      readsPerSecond / kinds.length,
    ),
  );
  return {
    walk: walked,
    shallow,
    deep,
    deepByOffset,
    maxP99Ms: MAX_P99_MS,
    maxDeepToShallow: MAX_DEEP_TO_SHALLOW,
    met:
      walked.repeated === 0 &&
      [shallow, deep, deepByOffset].every((l) => l.failedReads === 0) &&
      deep.p99Ms < MAX_P99_MS &&
      deep.p50Ms <= shallow.p50Ms * MAX_DEEP_TO_SHALLOW,
  };
}

/** The lines of the results table's notes. */
export function formatCursorPages(stats: CursorPagesStats): string[] {
  const ms = (value: number) => value.toFixed(1);
  const n = (value: number) => value.toLocaleString('en-US');
  const kind = (name: string, l: ReadLatencies) =>
    `${name} p50 ${ms(l.p50Ms)} ms, p99 ${ms(l.p99Ms)} ms (${l.failedReads} failed)`;
  const { walk: w } = stats;
  return [
    `Cursor pages, the whole list followed by Link: ${n(w.records)} records in ${n(w.pages)} pages ` +
      `of ${n(WALK_PAGE)}, ${w.repeated} repeated, ${w.seconds.toFixed(1)} s`,
    `Cursor pages of ${PAGE} records, ${stats.shallow.reads} reads each at ` +
      `${stats.shallow.readsPerSecond}/s: ${kind('first tenth', stats.shallow)}; ` +
      `${kind('last tenth', stats.deep)}; ${kind('last tenth by offset', stats.deepByOffset)} — ` +
      `${stats.met ? 'met' : 'MISSED'} (last tenth p99 < ${stats.maxP99Ms} ms, ` +
      `p50 <= ${stats.maxDeepToShallow} x the first tenth's)`,
  ];
}
