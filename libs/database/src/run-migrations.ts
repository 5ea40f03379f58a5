import { DataSource } from 'typeorm';

const LOCK_NAME = 'covid_api_migrations';

/**
 * Runs pending migrations. On MySQL several instances may start at once (Compose `--scale`), so
 * the run is serialised with a named lock; SQLite is a single file opened by one process.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'mysql') {
    await dataSource.runMigrations({ transaction: 'all' });
    return;
  }
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    const [{ locked }] = (await runner.query('SELECT GET_LOCK(?, 60) AS locked', [LOCK_NAME])) as {
      locked: number;
    }[];
    if (Number(locked) !== 1) throw new Error('could not acquire the migration lock within 60 s');
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]);
    }
  } finally {
    await runner.release();
  }
}
