import { createReadStream, statSync } from 'node:fs';
import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase } from '../../test/support/test-database';
import { BenchDb, DATA_FILES } from './bench-database';
import { AUTH, apiEnvironment } from './bench-servers';
import { FAIRNESS_TARGETS, ReadLatencies, quantiles, steadyReads } from './fairness-run';
import { PROJECT_ROOT } from './paths';
import { ServerProcess } from './server-process';

/** API writes (`POST /api/covid/data`, one new record each) sent at a steady rate. */
export interface WriteLatencies {
  writesPerSecond: number;
  writes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers 503 (the database was not free in time). */
  unavailable: number;
  /** Other answers than 201, and errors. */
  failed: number;
  maxP99Ms: number;
  met: boolean;
}

/** Writers are not locked out by an import: p99 under this, and never a 503. */
export const WRITE_TARGET_P99_MS = 250;

/** Small reads and writes while the API's scheduled sync imports the JHU-size file into an empty store. */
export interface SyncReadStats extends ReadLatencies {
  /** Records the sync inserted (`/api/sources`). */
  rows: number;
  syncSeconds: number;
  maxP99Ms: number;
  met: boolean;
  writes?: WriteLatencies;
}

/** Posts one new record every `1 / writesPerSecond` s while `more()`, each with a date of its own. */
export async function steadyWrites(
  base: string,
  writesPerSecond: number,
  more: () => boolean,
): Promise<WriteLatencies> {
  const times: number[] = [];
  let unavailable = 0;
  let failed = 0;
  const writes: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; more(); i++) {
    const wait = started + (i * 1000) / writesPerSecond - performance.now();
    if (wait > 0) await sleep(wait);
    const date = new Date(Date.UTC(1950, 0, 1 + i)).toISOString().slice(0, 10);
    const body = JSON.stringify({
      date,
      country: 'Bench Writers',
      total_cases: i,
      new_cases: 1,
      total_deaths: 0,
      new_deaths: 0,
    });
    const sent = performance.now();
    writes.push(
      fetch(`${base}/api/covid/data`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body,
      }).then(
        async (res) => {
          await res.arrayBuffer();
          times.push(performance.now() - sent);
          if (res.status === 503) unavailable++;
          else if (res.status !== 201) failed++;
        },
        () => void failed++,
      ),
    );
  }
  await Promise.all(writes);
  times.sort((a, b) => a - b);
  const at = quantiles(times);
  const p99Ms = at(0.99);
  return {
    writesPerSecond,
    writes: times.length,
    p50Ms: at(0.5),
    p99Ms,
    maxMs: times[times.length - 1] ?? 0,
    unavailable,
    failed,
    maxP99Ms: WRITE_TARGET_P99_MS,
    met: unavailable === 0 && failed === 0 && p99Ms < WRITE_TARGET_P99_MS,
  };
}

/** Serves the COVID data set's bytes as a source would, with an ETag. */
async function startSourceServer(file: string): Promise<Server> {
  const size = statSync(file).size;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': size, etag: '"bench"' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

/**
 * An API on a new empty database with `SYNC_SOURCES` pointing at a local copy of the COVID file
 * (reads and writes are measured in two such syncs: each write drops the cached reads):
 * its first run starts shortly after start-up; small public reads are sent at a steady rate from
 * before it starts until `/api/sources` says it is over.
 */
export async function runSyncReads(
  db: BenchDb,
  port: number,
  readPaths: string[],
  apiMain: string,
  readsPerSecond = 50,
  writesPerSecond = 0,
): Promise<SyncReadStats> {
  const file = resolve(PROJECT_ROOT, DATA_FILES.covid);
  const source = await startSourceServer(file);
  const database = await createTestDatabase(db);
  const url = `http://127.0.0.1:${(source.address() as AddressInfo).port}/covid.csv.gz`;
  const api = ServerProcess.start(
    'API (sync)',
    apiMain,
    port,
    apiEnvironment(database.config, port, { SYNC_SOURCES: `covid=${url}`, SYNC_INTERVAL: '1h' }),
  );
  try {
    await api.ready('/api/health');
    const startedAt = performance.now();
    let syncDone = false;
    let syncSeconds = 0;
    let rows = 0;
    const watcher = (async () => {
      while (!syncDone) {
        await sleep(250);
        const res = await fetch(`${api.url}/api/sources`, { headers: AUTH });
        const body = (await res.json()) as {
          sources: { outcome: string | null; rows_inserted: number }[];
        };
        if (body.sources[0]?.outcome) {
          syncDone = true;
          rows = body.sources[0].rows_inserted;
          syncSeconds = (performance.now() - startedAt) / 1000;
        }
      }
    })();
    const [{ times, failedReads }, , writes] = await Promise.all([
      steadyReads(api.url, readPaths, readsPerSecond, () => !syncDone && readsPerSecond > 0),
      watcher,
      writesPerSecond > 0
        ? steadyWrites(api.url, writesPerSecond, () => !syncDone)
        : Promise.resolve(undefined),
    ]);
    const at = quantiles(times);
    const p99Ms = at(0.99);
    return {
      rows,
      syncSeconds,
      readsPerSecond,
      reads: times.length,
      failedReads,
      p50Ms: at(0.5),
      p99Ms,
      maxMs: times[times.length - 1] ?? 0,
      maxP99Ms: FAIRNESS_TARGETS.maxP99Ms,
      met: failedReads === 0 && p99Ms < FAIRNESS_TARGETS.maxP99Ms,
      writes,
    };
  } finally {
    await api.stop();
    await new Promise((done) => source.close(done));
    await database.drop();
  }
}
