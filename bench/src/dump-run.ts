import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ServerProcess } from './server-process';

export interface DumpStats {
  seconds: number;
  /** On the wire: compressed when `encoding` says so. */
  bytes: number;
  /** The answer's `Content-Encoding` (since compression; absent: as it is). */
  encoding?: string;
  rows: number;
  status: number;
  /** Peak resident memory of the server during the dump, minus its memory just before. */
  rssGrowthBytes: number;
}

const SAMPLE_MS = 5;

/** Records in a list's body: a JSON array's items, or a CSV body's lines after the header row. */
function countRows(body: Buffer, format: 'json' | 'csv'): number {
  if (format === 'csv') {
    let lines = 0;
    for (let at = body.indexOf(10); at !== -1; at = body.indexOf(10, at + 1)) lines++;
    return Math.max(0, lines - 1);
  }
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  return Array.isArray(parsed) ? parsed.length : 0;
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === 'br') return brotliDecompressSync(body);
  return body;
}

/** The gzip dump's targets: at least this many times smaller on the wire... */
export const MIN_GZIP_SIZE_RATIO = 5;
/** ...in at most this many times the uncompressed dump's time, both timed in the same run. */
export const MAX_GZIP_TIME_RATIO = 1.5;

/** The full dump asked for with `Accept-Encoding: gzip`, beside the same dump as it is. */
export interface GzipDumpStats {
  runs: DumpStats[];
  bestSeconds: number;
  /** Uncompressed bytes over compressed bytes. */
  sizeRatio: number;
  /** Best compressed time over the best uncompressed time of the same run. */
  timeRatio: number;
  met: boolean;
}

export function gzipDumpStats(runs: DumpStats[], identity: DumpStats[]): GzipDumpStats {
  const bestSeconds = Math.min(...runs.map((r) => r.seconds));
  const sizeRatio = (identity[0]?.bytes ?? 0) / (runs[0]?.bytes ?? Infinity);
  const timeRatio = bestSeconds / Math.min(...identity.map((r) => r.seconds));
  return {
    runs,
    bestSeconds,
    sizeRatio,
    timeRatio,
    met:
      runs.every((r) => r.status === 200 && r.encoding === 'gzip') &&
      sizeRatio >= MIN_GZIP_SIZE_RATIO &&
      timeRatio <= MAX_GZIP_TIME_RATIO,
  };
}

/** Downloads a whole list once, timing it and sampling the server's resident memory. */
export async function runDump(
  server: ServerProcess,
  path: string,
  headers: Record<string, string>,
  format: 'json' | 'csv' = 'json',
): Promise<DumpStats> {
  const before = server.rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.rss());
  }, SAMPLE_MS);
  const started = performance.now();
  try {
    const { status, body, encoding } = await new Promise<{
      status: number;
      body: Buffer;
      encoding?: string;
    }>((resolve, reject) => {
      get(server.url + path, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            encoding: res.headers['content-encoding'],
          }),
        );
        res.on('error', reject);
      }).on('error', reject);
    });
    // Timed until the last byte arrived; decoded afterwards, only to count the rows.
    const seconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, server.rss());
    return {
      seconds,
      bytes: body.length,
      ...(encoding !== undefined && { encoding }),
      rows: countRows(decode(body, encoding), format),
      status,
      rssGrowthBytes: peak - before,
    };
  } finally {
    clearInterval(sampler);
  }
}
