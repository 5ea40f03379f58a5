import { DataSource } from 'typeorm';
import { buildDataSourceOptions, runMigrations } from '@app/database';
import { COVID_SERIES, MPOX_SERIES, SeriesRepository } from '@app/series';
import { TestDatabase, createTestDatabase } from '../../test/support/test-database';
import { LoadResult, loadCsv } from './load-csv';

export type BenchDb = 'sqlite' | 'mysql';

export interface ImportResult extends LoadResult {
  file: string;
}

/** Records in each data set. */
export const DATA_ROWS = { covid: 225_171, mpox: 48_627 };

/** The data sets loaded before the load runs, relative to the project root. */
export const DATA_FILES = {
  covid: '../shared/data/covid-jhu-2023-03-09.csv.gz',
  mpox: '../shared/data/mpox-owid-2023-11-16.csv.gz',
};

/**
 * A throw-away database (SQLite temp file, or a fresh MariaDB database dropped by `drop()`),
 * migrated and loaded with the COVID and MPOX data sets.
 */
export async function prepareDatabase(
  type: BenchDb,
): Promise<{ database: TestDatabase; imports: ImportResult[] }> {
  const database = await createTestDatabase(type);
  try {
    const dataSource = await new DataSource(buildDataSourceOptions({ ...database.config, timeoutMs: 60_000 })).initialize();
    try {
      await runMigrations(dataSource);
      const imports: ImportResult[] = [];
      for (const [series, file] of [
        [COVID_SERIES, DATA_FILES.covid],
        [MPOX_SERIES, DATA_FILES.mpox],
      ] as const) {
        const result = await loadCsv(new SeriesRepository(dataSource, series), file);
        imports.push({ file, ...result });
      }
      return { database, imports };
    } finally {
      await dataSource.destroy();
    }
  } catch (error) {
    await database.drop();
    throw error;
  }
}
