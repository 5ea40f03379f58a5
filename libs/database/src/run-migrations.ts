import { DataSource, DataSourceOptions } from 'typeorm';
import { AppDataSource } from './app-data-source';
import { reconcileRegionMembers } from './records/derived-figures/region-members.reconciler';

const LOCK_NAME = 'covid_api_migrations';

/**
 * Opens the database with every migration applied; nothing stays open when that fails (TypeORM
 * retries the start-up). On MySQL the migrations run first on a connection of their own without
 * a per-query deadline: a schema change may take longer than a request may wait (`DB_TIMEOUT_MS`),
 * and a change cut short on the client would go on on the server. SQLite (a file, or `:memory:`
 * that only this connection sees) is migrated on the connection itself.
 */
export async function openMigratedDataSource(options: DataSourceOptions): Promise<DataSource> {
  if (options.type === 'mysql') {
    // Two connections: one holds the lock, the other runs the migrations.
    const migrator = new AppDataSource({ ...options, enableQueryTimeout: false, poolSize: 2 });
    await migrator.initialize();
    try {
      await runMigrations(migrator);
    } finally {
      await migrator.destroy();
    }
    return new AppDataSource(options).initialize();
  }
  const dataSource = await new AppDataSource(options).initialize();
  try {
    await runMigrations(dataSource);
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

/**
 * Runs pending migrations, then makes the regions' members those of the code (their sums made
 * again when they changed). On MySQL several instances may start at once (Compose `--scale`), so
 * the run is serialised with a named lock; SQLite is a single file opened by one process.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'mysql') {
    await dataSource.runMigrations({ transaction: 'all' });
    await reconcileRegionMembers(dataSource);
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
      await reconcileRegionMembers(dataSource);
    } finally {
      await runner.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]);
    }
  } finally {
    await runner.release();
  }
}
