import { join } from 'node:path';
import { RevisedRow, writeRevisedCopy } from '../../test/support/revised-file';
import { BenchDb, ImportResult, importWithCli, withLoadedCovid } from './bench-database';
import { apiEnvironment } from './bench-servers';
import { ServerProcess } from './server-process';
import { WriteLatencies, steadyWrites } from './sync-run';

/** API writes while a source restates its whole series over the loaded store. */
export interface RestateStats {
  /** The import of the restated file (every record updated). */
  restate: ImportResult;
  writes: WriteLatencies;
}

/** What `importOverLoaded` measured: both imports, the rows revised, the writes during the second. */
export interface OverLoaded {
  firstLoad: ImportResult;
  second: ImportResult;
  revised: RevisedRow[];
  writes: WriteLatencies;
  /** What `afterImport` answered. */
  checked: number;
}

/**
 * A new database loaded with the COVID file by the admin CLI, an API on it, and the CLI importing
 * a copy of the file with `share` of its rows revised (`writeRevisedCopy`: 1 restates every
 * record) while POSTs are sent at `writesPerSecond` until it ends: writers are not locked out by a
 * source's revision. `afterImport` then looks at the store through the API, `since` the import
 * began.
 */
export async function importOverLoaded(
  db: BenchDb,
  port: number,
  apiMain: string,
  share: number,
  writesPerSecond: number,
  afterImport: (apiUrl: string, since: string, revised: RevisedRow[]) => Promise<number>,
): Promise<OverLoaded> {
  return withLoadedCovid(db, async ({ database, env, dir, original, firstLoad }) => {
    const copy = join(dir, share < 1 ? 'covid-revised.csv.gz' : 'covid-restated.csv.gz');
    const revised = writeRevisedCopy(original, copy, share);
    const api = ServerProcess.start(
      'API (revise)',
      apiMain,
      port,
      apiEnvironment(database.config, port),
    );
    try {
      await api.ready('/api/health');
      let done = false;
      const since = new Date().toISOString();
      const [second, writes] = await Promise.all([
        importWithCli('covid', copy, env).finally(() => (done = true)),
        steadyWrites(api.url, writesPerSecond, () => !done),
      ]);
      const checked = await afterImport(api.url, since, revised);
      return { firstLoad, second, revised, writes, checked };
    } finally {
      await api.stop();
    }
  });
}

/** The COVID file with every `total_cases` one higher, imported over the loaded store. */
export async function runRestateWrites(
  db: BenchDb,
  port: number,
  apiMain: string,
  writesPerSecond = 20,
): Promise<RestateStats> {
  const run = await importOverLoaded(db, port, apiMain, 1, writesPerSecond, () =>
    Promise.resolve(0),
  );
  return { restate: run.second, writes: run.writes };
}
