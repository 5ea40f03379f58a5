import { get } from 'node:http';
import { ServerProcess } from './server-process';

export interface DumpStats {
  seconds: number;
  bytes: number;
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
    const { status, body } = await new Promise<{ status: number; body: Buffer }>(
      (resolve, reject) => {
        get(server.url + path, { headers, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        }).on('error', reject);
      },
    );
    const seconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, server.rss());
    return {
      seconds,
      bytes: body.length,
      rows: countRows(body, format),
      status,
      rssGrowthBytes: peak - before,
    };
  } finally {
    clearInterval(sampler);
  }
}
