import { Agent } from 'node:http';
import { ReadLatencies, readLatencies, timedGet } from './fairness-run';
import { ServerProcess } from './server-process';

/** A page of the change feed at the end of the feed the bench's imports made. */
export interface FeedPageStats extends ReadLatencies {
  /** Changes in the feed when the page was timed. */
  feedChanges: number;
  /** Changes in the page timed. */
  pageChanges: number;
  maxP99Ms: number;
  met: boolean;
}

const FEED_PATH = '/api/covid/changes';
const PAGE = 1000;
const MAX_P99_MS = 25;

interface FeedPage {
  changes: unknown[];
  next: string | null;
}

async function feedPage(apiUrl: string, auth: Record<string, string>, after?: string) {
  const query = `?limit=${PAGE}${after ? `&after=${after}` : ''}`;
  const res = await fetch(`${apiUrl}${FEED_PATH}${query}`, { headers: auth });
  if (res.status !== 200) throw new Error(`GET ${FEED_PATH}${query}: ${res.status}`);
  return (await res.json()) as FeedPage;
}

/** Where the feed's last full page starts: its path, the changes in it and in the whole feed. */
export interface LastFeedPage {
  path: string;
  pageChanges: number;
  feedChanges: number;
}

/** Reads the whole COVID feed once, page by page, to find where its last full page starts. */
export async function lastFeedPage(
  apiUrl: string,
  auth: Record<string, string>,
): Promise<LastFeedPage> {
  let feedChanges = 0;
  let lastFull: string | undefined;
  let after: string | undefined;
  for (;;) {
    const page = await feedPage(apiUrl, auth, after);
    if (page.next === null) break;
    feedChanges += page.changes.length;
    if (page.changes.length === PAGE) lastFull = after;
    after = page.next;
  }
  const pageChanges = (await feedPage(apiUrl, auth, lastFull)).changes.length;
  return { path: `${FEED_PATH}${lastFull ? `?after=${lastFull}` : ''}`, pageChanges, feedChanges };
}

/**
 * Times the feed's last full page (the last `PAGE` changes) at a steady rate, one request at a
 * time on a keep-alive connection: what a partner polling the end of a feed of the import's size
 * waits.
 */
export async function runFeedPage(
  server: ServerProcess,
  auth: Record<string, string>,
  { seconds = 10, readsPerSecond = 20 } = {},
): Promise<FeedPageStats> {
  const { path, pageChanges, feedChanges } = await lastFeedPage(server.url, auth);
  const latencies = await steadyReads(server.url + path, auth, { seconds, readsPerSecond });
  return {
    ...latencies,
    feedChanges,
    pageChanges,
    maxP99Ms: MAX_P99_MS,
    met: latencies.failedReads === 0 && pageChanges === PAGE && latencies.p99Ms < MAX_P99_MS,
  };
}

/** The line of the results table's notes. */
export function formatFeedPage(stats: FeedPageStats): string {
  const n = (value: number, digits = 0) =>
    value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return (
    `Change feed, the last page of ${n(stats.pageChanges)} changes of ${n(stats.feedChanges)}: ` +
    `${n(stats.reads)} reads at ${stats.readsPerSecond}/s, p50 ${n(stats.p50Ms, 1)} ms, ` +
    `p99 ${n(stats.p99Ms, 1)} ms, max ${n(stats.maxMs, 1)} ms, ${stats.failedReads} failed — ` +
    `${stats.met ? 'met' : 'MISSED'} (p99 < ${stats.maxP99Ms} ms)`
  );
}

/**
 * GETs of `url` at a steady rate, one at a time on a keep-alive connection: what one client
 * waits for each answer, without the queueing of a load generator's many connections.
 */
export async function steadyReads(
  url: string,
  auth: Record<string, string>,
  { seconds = 10, readsPerSecond = 20 } = {},
): Promise<ReadLatencies> {
  const reads = await pacedReads(() => url, auth, { seconds, readsPerSecond });
  return latenciesOf(reads, readsPerSecond);
}

/** One timed GET of `pacedReads`. */
export interface PacedRead {
  ms: number;
  status: number;
}

/** GETs of `urlOf(0)`, `urlOf(1)`, … at a steady rate, one at a time on a keep-alive connection. */
export async function pacedReads(
  urlOf: (n: number) => string,
  auth: Record<string, string>,
  { seconds = 10, readsPerSecond = 20 } = {},
): Promise<PacedRead[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const done: PacedRead[] = [];
  const reads = Math.max(1, Math.round(seconds * readsPerSecond));
  const started = performance.now();
  for (let n = 0; n < reads; n++) {
    const wait = started + (n * 1000) / readsPerSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    done.push(await timedGet(urlOf(n), auth, agent));
  }
  agent.destroy();
  return done;
}

/** The latencies of reads made at `readsPerSecond`; any status but 200 counts as failed. */
export function latenciesOf(reads: PacedRead[], readsPerSecond: number): ReadLatencies {
  const times = reads.map((r) => r.ms).sort((a, b) => a - b);
  const failed = reads.filter((r) => r.status !== 200).length;
  return readLatencies(times, failed, readsPerSecond);
}
