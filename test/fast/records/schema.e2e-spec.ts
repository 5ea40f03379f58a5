import { createHash } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import { TokenService } from '@api/auth/token.service';
import { recordBody } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';
import { TEST_DB_TYPE } from '../../support/test-database';
import { onlyOn } from '../../support/database-only';

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

  /**
   * Undoes the last migrations down to (not including) `keep`, adds three records and deletes the
   * third, migrates up again, and checks that the records, their ids and the id sequence are kept.
   */
  async function migrateOverRecords(keep: string, check: () => Promise<void> = async () => {}) {
    const { dataSource } = t;
    const names = dataSource.migrations.map((m) => m.name);
    for (let i = names.length - 1; names[i] !== keep; i--) {
      await dataSource.undoLastMigration({ transaction: 'all' });
    }
    await dataSource.query('DELETE FROM covid_data');
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
    await check();
    await dataSource.runMigrations({ transaction: 'all' });
    expect(await dataSource.showMigrations()).toBe(false);
    expect(await ids()).toEqual([first, second]);
    // The id of the deleted record is not given again.
    await insert('2021-01-04');
    expect(await ids()).toEqual([first, second, third + 1]);
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries).toEqual([]);
  }

  /** The declared type of the records' id column. */
  async function idType(table = 'covid_data'): Promise<string> {
    const [row] = await t.dataSource.query<{ type: string }[]>(
      TEST_DB_TYPE === 'mysql'
        ? `SELECT DATA_TYPE AS type FROM information_schema.COLUMNS
           WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = 'id'`
        : `SELECT type FROM pragma_table_info(?) WHERE name = 'id'`,
      [table],
    );
    return row.type.toLowerCase();
  }

  it('widens country_key without losing records, their ids or the id sequence', async () => {
    await migrateOverRecords('CreateApiTokens1764000000000');
  });

  it('makes record ids 64-bit without losing records, their ids or the id sequence', async () => {
    // MySQL: INT, then BIGINT; SQLite's INTEGER key is 64-bit from the start.
    const [before, after] = TEST_DB_TYPE === 'mysql' ? ['int', 'bigint'] : ['integer', 'integer'];
    await migrateOverRecords('WidenCountryKey1764200000000', async () => {
      expect(await idType()).toBe(before);
    });
    for (const table of ['covid_data', 'mpox_data']) expect(await idType(table)).toBe(after);
  });

  it.each(['covid', 'mpox'])(
    'gives %s records ids beyond 2^32 and answers them as JSON numbers',
    async (key) => {
      const table = `${key}_data`;
      const next = 2 ** 32 + 7;
      if (TEST_DB_TYPE === 'mysql') {
        await t.dataSource.query(`ALTER TABLE ${table} AUTO_INCREMENT = ${next}`);
      } else {
        await t.dataSource.query('DELETE FROM sqlite_sequence WHERE name = ?', [table]);
        await t.dataSource.query('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)', [
          table,
          next - 1,
        ]);
      }
      const body = (date: string, total_cases = 5) =>
        recordBody({ date, country: 'Big Ids', total_cases });
      const created = await t.http.post(`/api/${key}/data`).set(t.auth()).send(body('2022-01-01'));
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        success: true,
        message: 'Données ajoutées avec succès.',
        id: next,
      });
      const bulk = await t.http
        .post(`/api/${key}/data/bulk`)
        .set(t.auth())
        .send([body('2022-01-01', 6), body('2022-01-02')]);
      expect(bulk.body).toEqual({ success: true, inserted: 1, updated: 1 });
      const list = await t.http.get(`/api/${key}/data`).query({ country: 'Big Ids' }).set(t.auth());
      expect(list.status).toBe(200);
      expect(list.body).toEqual([
        { id: expect.any(Number) as number, ...body('2022-01-02') },
        { id: next, ...body('2022-01-01', 6) },
      ]);
      expect((list.body as { id: number }[])[0].id).toBeGreaterThan(next);
      const put = await t.http
        .put(`/api/${key}/data/${next}`)
        .set(t.auth())
        .send(body('2022-01-01', 9));
      expect(put.status).toBe(200);
      const stored = await t.http
        .get(`/api/${key}/data`)
        .query({ country: 'Big Ids' })
        .set(t.auth());
      expect(stored.body).toContainEqual({ id: next, ...body('2022-01-01', 9) });
      const removed = await t.http.delete(`/api/${key}/data/${next}`).set(t.auth());
      expect(removed.body).toEqual({ success: true, message: 'Données supprimées avec succès.' });
    },
  );

  it('gives tokens issued before scopes every scope, so they keep every right', async () => {
    const { dataSource } = t;
    const names = dataSource.migrations.map((m) => m.name);
    for (let i = names.length - 1; names[i] !== 'SourceRowsUnchanged1764700000000'; i--) {
      await dataSource.undoLastMigration({ transaction: 'all' });
    }
    const token = 'cmx_legacy-token-issued-before-scopes';
    await dataSource.query(
      `INSERT INTO api_tokens (client, token_hash, prefix, created_at, revision)
       VALUES ('legacy', ?, ?, ?, (SELECT r FROM (SELECT COALESCE(MAX(revision), 0) + 1 AS r
         FROM api_tokens) AS next))`,
      [createHash('sha256').update(token).digest('hex'), token.slice(0, 12), Date.now()],
    );
    await dataSource.runMigrations({ transaction: 'all' });
    const rows = await dataSource.query<{ scopes: string }[]>(
      "SELECT scopes FROM api_tokens WHERE client = 'legacy'",
    );
    expect(rows).toEqual([
      { scopes: 'covid:read,covid:write,mpox:read,mpox:write,sources:read,metrics:read' },
    ]);
    await t.app.get(TokenService).refresh();
    const legacy = { Authorization: `Bearer ${token}` };
    // Allowed to write (the record is unknown: 404, never a 403) and to read the sync status.
    expect((await t.http.delete('/api/covid/data/987654').set(legacy)).status).toBe(404);
    expect((await t.http.delete('/api/mpox/data/987654').set(legacy)).status).toBe(404);
    expect((await t.http.get('/api/sources').set(legacy)).status).toBe(200);
    expect((await t.http.get('/api/stats/summary').set(legacy)).status).toBe(200);
  });

  it('has no pending migration', async () => {
    expect(await t.dataSource.showMigrations()).toBe(false);
  });

  onlyOn('mysql').it(
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
