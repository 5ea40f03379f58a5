import { TestApp, bootTestApp } from './support/test-app';

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

  it('has no pending migration', async () => {
    expect(await t.dataSource.showMigrations()).toBe(false);
  });
});
