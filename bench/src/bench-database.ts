import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../../test/support/cli';
import { databaseEnv } from '../../test/support/built-api';
import { TestDatabase, createTestDatabase } from '../../test/support/test-database';
import { PROJECT_ROOT } from './paths';

export type BenchDb = 'sqlite' | 'mysql';

/** One data set loaded by the admin CLI's `import`, with the figures its summary prints. */
export interface ImportResult {
  file: string;
  rows: number;
  inserted: number;
  updated: number;
  seconds: number;
  rowsPerSecond: number;
}

/** Records in each data set. */
export const DATA_ROWS = { covid: 225_171, mpox: 48_627 };

/** The data sets loaded before the load runs, relative to the project root. */
export const DATA_FILES = {
  covid: '../shared/data/covid-jhu-2023-03-09.csv.gz',
  mpox: '../shared/data/mpox-owid-2023-11-16.csv.gz',
};

/** The population table the per-million figures of the series use. */
export const POPULATION_FILE = '../shared/data/population-owid-2020.csv';

function summaryNumber(stdout: string, pattern: RegExp): number {
  const match = pattern.exec(stdout);
  if (!match) throw new Error(`unexpected import summary:\n${stdout}`);
  return Number(match[1]);
}

/** Runs `import <dataset> <file>` with the built admin CLI, exactly as an administrator would. */
export async function importWithCli(
  dataset: 'covid' | 'mpox',
  file: string,
  env: Record<string, string>,
): Promise<ImportResult> {
  const result = await runCli(['import', dataset, file], env);
  if (result.code !== 0)
    throw new Error(`import ${dataset} failed (${result.code}): ${result.stderr}`);
  const rows = summaryNumber(result.stdout, /^rows read: (\d+)$/m);
  const seconds = summaryNumber(result.stdout, /^time: +([\d.]+) s/m);
  return {
    file,
    rows,
    inserted: summaryNumber(result.stdout, /^inserted: +(\d+)$/m),
    updated: summaryNumber(result.stdout, /^updated: +(\d+)$/m),
    seconds,
    rowsPerSecond: summaryNumber(result.stdout, /\((\d+) rows\/s/),
  };
}

/** Loads the population table with the built admin CLI (the series' per-million figures). */
export async function importPopulation(env: Record<string, string>): Promise<void> {
  const population = await runCli(['import', 'population', POPULATION_FILE], env);
  if (population.code !== 0) throw new Error(`import population failed: ${population.stderr}`);
}

/**
 * A throw-away database (SQLite temp file, or a fresh MariaDB database dropped by `drop()`),
 * migrated and loaded with the COVID and MPOX data sets by the admin CLI's `import` (the import
 * rate in the results is the one that command reports).
 */
export async function prepareDatabase(
  type: BenchDb,
): Promise<{ database: TestDatabase; imports: ImportResult[] }> {
  const database = await createTestDatabase(type);
  try {
    const env = { ...databaseEnv(database.config), DB_TIMEOUT_MS: '60000' };
    const imports = [
      await importWithCli('covid', DATA_FILES.covid, env),
      await importWithCli('mpox', DATA_FILES.mpox, env),
    ];
    await importPopulation(env);
    return { database, imports };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/** A store of its own loaded with the COVID file, and a folder for the copies made of the file. */
export interface LoadedStore {
  database: TestDatabase;
  /** The CLI's environment on that database. */
  env: Record<string, string>;
  /** A temporary folder, removed with the store. */
  dir: string;
  /** The COVID file, absolute. */
  original: string;
  /** The CLI's import of the COVID file into the empty store. */
  firstLoad: ImportResult;
}

/**
 * A new database loaded with the COVID file by the admin CLI, handed to `use`, then dropped with
 * the temporary folder whatever `use` did.
 */
export async function withLoadedCovid<T>(
  type: BenchDb,
  use: (store: LoadedStore) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-store-'));
  const database = await createTestDatabase(type);
  try {
    const env = { ...databaseEnv(database.config), DB_TIMEOUT_MS: '60000' };
    const original = resolve(PROJECT_ROOT, DATA_FILES.covid);
    const firstLoad = await importWithCli('covid', original, env);
    return await use({ database, env, dir, original, firstLoad });
  } finally {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
