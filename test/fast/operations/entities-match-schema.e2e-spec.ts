import { TestApp, bootTestApp } from '../../support/test-app';
import { TEST_DB_TYPE } from '../../support/test-database';

/**
 * The schema is made by the migrations; the entities describe it (docs/decisions/
 * 0032-entities-for-every-table.md). TypeORM compares the two: it finds nothing to change only if
 * every table has an entity with the same columns, types, nullability, defaults, keys and indexes.
 */
describe('entities', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('describe every table the migrations create', async () => {
    const tables = t.dataSource.entityMetadatas.map((m) => m.tableName).sort();
    const rows = await t.dataSource.query<{ name: string }[]>(
      TEST_DB_TYPE === 'mysql'
        ? 'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()'
        : "SELECT name FROM sqlite_master WHERE type = 'table'",
    );
    // TypeORM's own migrations table, and SQLite's AUTOINCREMENT counters.
    const created = rows
      .map((row) => row.name)
      .filter((name) => name !== 'migrations' && name !== 'sqlite_sequence')
      .sort();
    expect(tables).toEqual(created);
  });

  it('match the schema the migrations create exactly', async () => {
    const pending = await t.dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });
});
