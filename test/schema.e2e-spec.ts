import { createConnection } from 'mysql2/promise';
import { TestApp, bootTestApp } from './support/test-app';
import { TEST_DB_TYPE } from './support/test-database';

describe('schema', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('is created by the migrations at start-up, and the entities match it exactly', async () => {
    const applied = await t.dataSource.query<{ name: string }[]>(
      'SELECT name FROM migrations ORDER BY id',
    );
    expect(applied.map((m) => m.name)).toEqual(t.dataSource.migrations.map((m) => m.name));
    const pending = await t.dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('widens country_key without losing records, their ids or the id sequence', async () => {
    const { dataSource } = t;
    await dataSource.undoLastMigration({ transaction: 'all' });
    expect(dataSource.migrations.map((m) => m.name).pop()).toBe('WidenCountryKey1764200000000');
    const insert = (date: string) =>
      dataSource.query(
        `INSERT INTO covid_data (date, country, country_key, total_cases, new_cases, total_deaths, new_deaths)
         VALUES (?, 'Chile', 'chile', 1, 1, 0, 0)`,
        [date],
      );
    for (const date of ['2021-01-01', '2021-01-02', '2021-01-03']) await insert(date);
    const ids = async () =>
      (await dataSource.query<{ id: number }[]>('SELECT id FROM covid_data ORDER BY id')).map((r) =>
        Number(r.id),
      );
    const [first, second, third] = await ids();
    await dataSource.query('DELETE FROM covid_data WHERE id = ?', [third]);
    await dataSource.runMigrations({ transaction: 'all' });
    expect(await dataSource.showMigrations()).toBe(false);
    expect(await ids()).toEqual([first, second]);
    // The id of the deleted record is not given again.
    await insert('2021-01-04');
    expect(await ids()).toEqual([first, second, third + 1]);
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries).toEqual([]);
  });

  it('has no pending migration', async () => {
    expect(await t.dataSource.showMigrations()).toBe(false);
  });

  (TEST_DB_TYPE === 'mysql' ? it : it.skip)(
    "waits for another instance's migrations longer than DB_TIMEOUT_MS, without failing (MySQL)",
    async () => {
      // Another instance migrating: it holds the lock for a second, five times DB_TIMEOUT_MS.
      const { host, port, user, password } = t.config.db;
      const other = await createConnection({ host, port, user, password });
      await other.query("SELECT GET_LOCK('covid_api_migrations', 10)");
      const lines: string[] = [];
      const booting = bootTestApp(
        { DB_TIMEOUT_MS: '200', LOG_LEVEL: 'info' },
        { logDestination: { write: (line: string) => lines.push(line) } },
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await other.query("SELECT RELEASE_LOCK('covid_api_migrations')");
      await other.end();
      const late = await booting;
      try {
        expect((await late.http.get('/api/health')).body).toEqual({ status: 'ok', database: 'up' });
        // No failed attempt (TypeORM would have retried the start-up after 3 s).
        expect(lines.filter((line) => /retry|error/i.test(line))).toEqual([]);
      } finally {
        await late.close();
      }
    },
  );
});
