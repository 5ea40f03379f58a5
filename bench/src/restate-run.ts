import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { databaseEnv } from '../../test/support/built-api';
import { createTestDatabase } from '../../test/support/test-database';
import { BenchDb, DATA_FILES, ImportResult, importWithCli } from './bench-database';
import { apiEnvironment } from './bench-servers';
import { PROJECT_ROOT } from './paths';
import { ServerProcess } from './server-process';
import { WriteLatencies, steadyWrites } from './sync-run';

/** API writes while a source restates its whole series over the loaded store. */
export interface RestateStats {
  /** The import of the restated file (every record updated). */
  restate: ImportResult;
  writes: WriteLatencies;
}

/**
 * The COVID file with every `total_cases` one higher: each of its records changes. Fields are
 * counted from the end of the line (four figures), so a quoted country with a comma is kept whole.
 */
function restatedCopy(file: string, dir: string): string {
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
  const out = lines.map((line, i) => {
    if (i === 0 || line === '') return line;
    const fields = line.split(',');
    const at = fields.length - 4;
    fields[at] = String(Number(fields[at]) + 1);
    return fields.join(',');
  });
  const restated = join(dir, 'covid-restated.csv.gz');
  writeFileSync(restated, gzipSync(out.join('\n')));
  return restated;
}

/**
 * A new database loaded with the COVID file by the admin CLI, an API on it, and the CLI importing
 * the file restated (every record changed, a revision each) while POSTs are sent at
 * `writesPerSecond` until it ends: writers are not locked out by a whole-series restatement.
 */
export async function runRestateWrites(
  db: BenchDb,
  port: number,
  apiMain: string,
  writesPerSecond = 20,
): Promise<RestateStats> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-restate-'));
  const database = await createTestDatabase(db);
  try {
    const env = { ...databaseEnv(database.config), DB_TIMEOUT_MS: '60000' };
    const original = resolve(PROJECT_ROOT, DATA_FILES.covid);
    await importWithCli('covid', original, env);
    const restated = restatedCopy(original, dir);
    const api = ServerProcess.start(
      'API (restate)',
      apiMain,
      port,
      apiEnvironment(database.config, port),
    );
    try {
      await api.ready('/api/health');
      let done = false;
      const [restate, writes] = await Promise.all([
        importWithCli('covid', restated, env).finally(() => (done = true)),
        steadyWrites(api.url, writesPerSecond, () => !done),
      ]);
      return { restate, writes };
    } finally {
      await api.stop();
    }
  } finally {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
