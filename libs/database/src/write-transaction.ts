import { DataSource, EntityManager } from 'typeorm';

/**
 * A transaction that writes. SQLite's default transaction starts as a reader and takes the write
 * lock at its first write; if another process (the admin CLI, another import) wrote meanwhile,
 * that upgrade fails at once with "database is locked", without waiting the busy timeout.
 * `BEGIN IMMEDIATE` takes the write lock first, waiting up to `DB_TIMEOUT_MS` for it, so that
 * writers take turns. It goes around TypeORM's transaction bookkeeping on the process's one
 * SQLite connection, which is safe because that driver is synchronous: a transaction's queries
 * all run before any other request's (no timer or I/O between them).
 * MySQL: TypeORM's transaction (InnoDB locks rows as they are written).
 */
export async function writeTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  if (dataSource.options.type === 'mysql') return dataSource.transaction(work);
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('BEGIN IMMEDIATE');
    try {
      const result = await work(runner.manager);
      await runner.query('COMMIT');
      return result;
    } catch (error) {
      await runner.query('ROLLBACK');
      throw error;
    }
  } finally {
    await runner.release();
  }
}
