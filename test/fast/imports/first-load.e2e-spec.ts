import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqlRunner, LEFTOVER_AFTER_MS, COPY_SWAP_MIN, RevisionPruner } from '@app/database';
import { COVID_DISEASE, RecordValues } from '@app/diseases';
import { cliTestBed } from '../../support/cli-test-bed';
import { startCli } from '../../support/cli';
import { TEST_ORIGIN, emptyStore, seedWriter } from '../../support/fixtures';
import { historySnapshot, snapshot, tableRows } from '../../support/table-snapshot';
import { TEST_DB_TYPE } from '../../support/test-database';
import { onlyOn } from '../../support/database-only';

const HEADER = 'date,country,total_cases,new_cases,total_deaths,new_deaths';
const sqliteOnly = onlyOn('sqlite').it;

function day(n: number): string {
  return new Date(Date.UTC(2010, 0, 1 + n)).toISOString().slice(0, 10);
}

/** `days` records of each of `countries`, figures from `base`. */
function records(countries: string[], days: number, base = 0): RecordValues[] {
  return countries.flatMap((country) =>
    Array.from({ length: days }, (_, n) => ({
      date: day(n),
      country,
      total_cases: base + n,
      new_cases: 1,
      total_deaths: n,
      new_deaths: 0,
    })),
  );
}

const csv = (rows: RecordValues[]) =>
  [
    HEADER,
    ...rows.map(
      (r) =>
        `${r.date},${r.country},${r.total_cases},${r.new_cases},${r.total_deaths},${r.new_deaths}`,
    ),
  ].join('\n');

const COUNTRIES = ['Chile', 'Peru', 'Chad', 'Cuba', 'Mali', 'Iran', 'Oman', 'Fiji', 'Togo', 'Laos'];

/** The tables a load builds aside, or swaps out: none once it has ended. */
async function asideTables(bed: ReturnType<typeof cliTestBed>): Promise<string[]> {
  if (TEST_DB_TYPE === 'mysql') return [];
  const rows = await bed.t.dataSource.query<{ name: string }[]>(
    `SELECT name FROM sqlite_master WHERE name LIKE '%\\_\\_load\\_%' ESCAPE '\\'
       OR name LIKE '%\\_\\_old\\_%' ESCAPE '\\'`,
  );
  return rows.map((r) => r.name);
}

/** The names of the covid data table's indexes (SQLite; none on MySQL), sorted. */
async function dataIndexes(bed: ReturnType<typeof cliTestBed>): Promise<string[]> {
  if (TEST_DB_TYPE === 'mysql') return [];
  const rows = await bed.t.dataSource.query<{ name: string }[]>(
    `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'covid_data' ORDER BY name`,
  );
  return rows.map((r) => r.name);
}

/**
 * Resolves once a load built aside holds some of its `total` records, but not all: between two of
 * the transactions that write them.
 */
async function untilBuilding(bed: ReturnType<typeof cliTestBed>, total: number): Promise<void> {
  for (;;) {
    const [table] = await bed.t.dataSource.query<{ name: string }[]>(
      `SELECT name FROM sqlite_master WHERE name LIKE 'covid_data\\_\\_load\\_%' ESCAPE '\\'`,
    );
    if (table) {
      const [{ count }] = await bed.t.dataSource.query<{ count: number }[]>(
        `SELECT COUNT(*) AS count FROM "${table.name}"`,
      );
      if (Number(count) > 0 && Number(count) < total) return;
      if (Number(count) >= total)
        throw new Error('the load was written before it could be stopped');
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** A new store: no COVID record, no history of any. */
async function emptyCovid(bed: ReturnType<typeof cliTestBed>): Promise<void> {
  await emptyStore(bed.t.dataSource, 'covid', { history: true });
}

/**
 * A first load of many records into an empty table: on SQLite it is built aside and swapped in
 * (decision 0026), so that API writes go on meanwhile; on both databases it applies whole, and
 * nothing another writer did meanwhile is lost.
 */
describe('a first load of a large file (CLI, both databases)', () => {
  const bed = cliTestBed('covid-first-load-');
  const repository = () => seedWriter(bed.t.dataSource, COVID_DISEASE);

  beforeEach(() => emptyCovid(bed));

  it('writers are not locked out: API writes answer while it runs, and are all kept', async () => {
    const file = join(bed.dir, 'first.csv');
    const rows = records(COUNTRIES, 3000);
    writeFileSync(file, csv(rows));
    const load = startCli(['import', 'covid', file], bed.env);
    let running = true;
    void load.result.finally(() => (running = false));
    // MPOX records, in the same database (SQLite: the same single writer).
    const written: { id: number; body: RecordValues; answeredAt: number }[] = [];
    for (let n = 0; running; n++) {
      const body = { ...records(['Writer'], 1, n)[0], date: day(n) };
      const res = await bed.t.http.post('/api/mpox/data').set(bed.t.auth()).send(body);
      expect(res.status).toBe(201);
      written.push({ id: (res.body as { id: number }).id, body, answeredAt: Date.now() });
    }
    const result = await load.result;
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toContain('inserted:  30000\n');

    const stored = await tableRows(bed.t.dataSource, 'covid_data');
    expect(stored).toHaveLength(rows.length);
    const byKey = new Map(stored.map((r) => [`${r.country}|${r.date}`, r]));
    for (const r of rows) expect(byKey.get(`${r.country}|${r.date}`)).toMatchObject(r);
    const mpox = new Map((await tableRows(bed.t.dataSource, 'mpox_data')).map((r) => [r.id, r]));
    for (const { id, body } of written) expect(mpox.get(id)).toMatchObject(body);

    // Writes answered (committed) after the file's write began (its revisions' time) and before
    // it committed: with the file written in one transaction, SQLite's only writer would have
    // kept them all waiting.
    const [file_] = await bed.t.dataSource.query<Record<string, unknown>[]>(
      `SELECT c.at AS committed, c.revisions, MIN(r.at) AS began
       FROM covid_revision_commits c JOIN covid_revisions r ON r.change_set = c.change_set
       WHERE r.actor = ? GROUP BY c.at, c.revisions`,
      ['import:first.csv'],
    );
    expect(Number(file_.revisions)).toBe(rows.length);
    const meanwhile = written.filter(
      (w) => w.answeredAt > Number(file_.began) && w.answeredAt < Number(file_.committed),
    );
    expect(meanwhile.length).toBeGreaterThan(0);
    expect(await asideTables(bed)).toEqual([]);

    const history = await bed.t.http
      .get(`/api/covid/data/${byKey.get(`Chile|${day(5)}`)!.id}/history`)
      .set(bed.t.auth());
    expect(history.status).toBe(200);
    expect(history.body).toEqual([
      expect.objectContaining({ revision: 1, change: 'create', actor: 'import:first.csv' }),
    ]);
  });

  sqliteOnly(
    'records created, changed and deleted meanwhile keep their ids and their history',
    async () => {
      const rows = records(COUNTRIES, Math.ceil(COPY_SWAP_MIN / COUNTRIES.length) + 1);
      const other = (n: number) => ({ ...records(['Writer'], 1, n)[0], date: day(n) });
      // A small store before: one record the file changes, one it does not name.
      const before = await repository().create({ ...rows[3], total_cases: 7 }, TEST_ORIGIN);
      const untouched = await repository().create(other(0), TEST_ORIGIN);
      const indexes = await dataIndexes(bed);
      // SQLite: single writes are queued behind the load's first transaction: they land while the
      // load is under way.
      const load = repository().upsertMany(rows, { actor: 'test:load' });
      const kept = await repository().create(other(1), TEST_ORIGIN);
      const gone = await repository().create(other(2), TEST_ORIGIN);
      expect(await repository().update(kept, other(3), TEST_ORIGIN)).toBe(true);
      expect(await repository().remove(gone, TEST_ORIGIN)).toBe(true);
      expect(await load).toEqual({ inserted: rows.length - 1, updated: 1, unchanged: 0 });
      // Built aside and swapped in.
      expect(await dataIndexes(bed)).not.toEqual(indexes);

      const stored = await tableRows(bed.t.dataSource, 'covid_data');
      expect(stored).toHaveLength(rows.length + 2);
      expect(stored.find((r) => r.id === before)).toMatchObject(rows[3]);
      expect(stored.find((r) => r.id === untouched)).toMatchObject(other(0));
      expect(stored.find((r) => r.id === kept)).toMatchObject(other(3));
      expect(stored.find((r) => r.id === gone)).toBeUndefined();
      const changes = async (id: number) =>
        (
          (await bed.t.http.get(`/api/covid/data/${id}/history`).set(bed.t.auth())).body as {
            change: string;
          }[]
        ).map((r) => r.change);
      expect(await changes(before)).toEqual(['create', 'update']);
      expect(await changes(untouched)).toEqual(['create']);
      expect(await changes(kept)).toEqual(['create', 'update']);
      expect(await changes(gone)).toEqual(['create', 'delete']);
      // Ids are never given twice: the next record comes after every one taken.
      const next = await repository().create(other(4), TEST_ORIGIN);
      expect(next).toBeGreaterThan(Math.max(gone, ...stored.map((r) => r.id)));
      // Each country's kept count and dates (decision 0036) follow the file and the writes.
      const summaries = (from: string) =>
        bed.t.dataSource.query<unknown[]>(
          `SELECT country_key, records, first_date, last_date FROM ${from} ORDER BY country_key`,
        );
      expect(await summaries('(SELECT * FROM covid_country_summaries WHERE records > 0)')).toEqual(
        await summaries(
          `(SELECT country_key, COUNT(*) AS records, MIN(date) AS first_date,
             MAX(date) AS last_date FROM covid_data GROUP BY country_key)`,
        ),
      );
    },
  );

  // MySQL writes in the one transaction, where such a race is import-row-locks.e2e-spec.ts's.
  sqliteOnly(
    'a record created meanwhile with one of its keys: the file still applies whole, over it',
    async () => {
      const rows = records(COUNTRIES, Math.ceil(COPY_SWAP_MIN / COUNTRIES.length) + 1);
      const taken = { ...rows[7], total_cases: 999_999 };
      // SQLite: the single write is queued behind the load's first transaction, so it lands while
      // the load is under way (the load then finds the key taken and writes the usual way).
      const load = repository().upsertMany(rows, { actor: 'test:load' });
      const id = await repository().create(taken, TEST_ORIGIN);
      expect(await load).toEqual({ inserted: rows.length - 1, updated: 1, unchanged: 0 });
      const stored = await tableRows(bed.t.dataSource, 'covid_data');
      expect(stored).toHaveLength(rows.length);
      expect(stored.find((r) => r.id === id)).toMatchObject(rows[7]);
      const history = await bed.t.http.get(`/api/covid/data/${id}/history`).set(bed.t.auth());
      expect(
        (history.body as { change: string; actor: string }[]).map((r) => [r.change, r.actor]),
      ).toEqual([
        ['create', TEST_ORIGIN.actor],
        ['update', 'test:load'],
      ]);
      expect(await asideTables(bed)).toEqual([]);
    },
  );

  it('stopped while it runs: no record, no revision, no table left', async () => {
    const before =
      (await snapshot(bed.t.dataSource)) + (await historySnapshot(bed.t.dataSource, 'covid'));
    const indexes = await dataIndexes(bed);
    const rows = records(COUNTRIES, 2000);
    const stop = new AbortController();
    const load = repository().upsertMany(rows, { actor: 'test:load' }, { signal: stop.signal });
    if (TEST_DB_TYPE === 'mysql') {
      // A write queued behind the load's transaction: the load is under way once it has run.
      await new SqlRunner(bed.t.dataSource).transaction(() => Promise.resolve());
    } else {
      // SQLite: stopped between two transactions that write the file's records into the copy.
      await untilBuilding(bed, rows.length);
    }
    stop.abort();
    await expect(load).rejects.toThrow('interrupted');
    expect(
      (await snapshot(bed.t.dataSource)) + (await historySnapshot(bed.t.dataSource, 'covid')),
    ).toBe(before);
    expect(await asideTables(bed)).toEqual([]);
    expect(await dataIndexes(bed)).toEqual(indexes);
  });

  sqliteOnly('swaps the tables in: index names alternate, every index is back', async () => {
    const swapped = (names: string[]) =>
      names.map((n) => (n.endsWith('__b') ? n.slice(0, -3) : `${n}__b`)).sort();
    const before = await dataIndexes(bed);
    expect(before).toHaveLength(2);
    expect(await repository().upsertMany(records(COUNTRIES, 1100), TEST_ORIGIN)).toEqual({
      inserted: 11_000,
      updated: 0,
      unchanged: 0,
    });
    expect(await dataIndexes(bed)).toEqual(swapped(before));
    // The unique key still holds.
    await expect(
      bed.t.dataSource.query(
        `INSERT INTO covid_data (date, country, country_key, total_cases, new_cases, total_deaths,
           new_deaths) VALUES (?, 'Chile', 'chile', 0, 0, 0, 0)`,
        [day(3)],
      ),
    ).rejects.toThrow(/UNIQUE/);
    const [{ count }] = await bed.t.dataSource.query<{ count: number }[]>(
      `SELECT COUNT(*) AS count FROM sqlite_master WHERE type = 'index' AND tbl_name = 'covid_revisions'`,
    );
    expect(Number(count)).toBe(5);
    await emptyCovid(bed);
    await repository().upsertMany(records(COUNTRIES, 1100, 5), TEST_ORIGIN);
    expect(await dataIndexes(bed)).toEqual(before);
  });

  sqliteOnly(
    'a source restating its whole series is built aside too, unless its history is much larger',
    async () => {
      const indexes = await dataIndexes(bed);
      const first = records(COUNTRIES, 1100);
      await repository().upsertMany(first, TEST_ORIGIN);
      expect(await dataIndexes(bed)).not.toEqual(indexes);
      // Every record changed; its history (one revision each) is no larger than the file.
      const restated = records(COUNTRIES, 1100, 1);
      expect(await repository().upsertMany(restated, { actor: 'test:restate' })).toEqual({
        inserted: 0,
        updated: 11_000,
        unchanged: 0,
      });
      expect(await dataIndexes(bed)).toEqual(indexes);
      const stored = await tableRows(bed.t.dataSource, 'covid_data');
      expect(stored).toHaveLength(11_000);
      const byKey = new Map(stored.map((r) => [`${r.country}|${r.date}`, r]));
      for (const r of restated) expect(byKey.get(`${r.country}|${r.date}`)).toMatchObject(r);
      const history = await bed.t.http
        .get(`/api/covid/data/${byKey.get(`Peru|${day(9)}`)!.id}/history`)
        .set(bed.t.auth());
      expect(
        (history.body as { change: string; actor: string; record: RecordValues }[]).map((r) => [
          r.change,
          r.actor,
          r.record.total_cases,
        ]),
      ).toEqual([
        ['create', TEST_ORIGIN.actor, 9],
        ['update', 'test:restate', 10],
      ]);
      // The same file again: nothing to write, nothing built aside.
      expect(await repository().upsertMany(restated, TEST_ORIGIN)).toEqual({
        inserted: 0,
        updated: 0,
        unchanged: 11_000,
      });
      expect(await dataIndexes(bed)).toEqual(indexes);
      // 10,000 records changed, next to a history of 22,000 (more than twice that): one
      // transaction, the usual way, and the unchanged ones counted.
      const some = [...records(COUNTRIES, 1000, 2), ...restated.filter((r) => r.date >= day(1000))];
      expect(await repository().upsertMany(some, TEST_ORIGIN)).toEqual({
        inserted: 0,
        updated: 10_000,
        unchanged: 1_000,
      });
      expect(await dataIndexes(bed)).toEqual(indexes);
      expect(await asideTables(bed)).toEqual([]);
    },
  );

  sqliteOnly(
    'a history pruned while a load is built aside: the load goes the usual way, counts hold',
    async () => {
      await repository().upsertMany(records(COUNTRIES, 1100), TEST_ORIGIN);
      await repository().upsertMany(records(COUNTRIES, 1100, 1), TEST_ORIGIN);
      const before = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 5));
      const indexes = await dataIndexes(bed);
      const rows = records(COUNTRIES, 1100, 2);
      const load = repository().upsertMany(rows, { actor: 'test:load' });
      await untilBuilding(bed, rows.length);
      // The first load's revisions, superseded by the second's: deleted while the copy holds them.
      const pruned = await new RevisionPruner(new SqlRunner(bed.t.dataSource), COVID_DISEASE).prune(
        before,
        false,
      );
      expect(pruned).toEqual({ revisions: 11_000, commits: 1 });
      expect(await load).toEqual({ inserted: 0, updated: 11_000, unchanged: 0 });
      // Not swapped in: the usual way, over the pruned history.
      expect(await dataIndexes(bed)).toEqual(indexes);
      expect(await asideTables(bed)).toEqual([]);
      const counted = await bed.t.dataSource.query<{ counted: number; actual: number }[]>(
        `SELECT c.revisions AS counted,
           (SELECT COUNT(*) FROM covid_revisions r WHERE r.change_set = c.change_set) AS actual
         FROM covid_revision_commits c ORDER BY c.seq`,
      );
      expect(counted.map((c) => [Number(c.counted), Number(c.actual)])).toEqual([
        [0, 0],
        [11_000, 11_000],
        [11_000, 11_000],
      ]);
    },
  );

  sqliteOnly(
    'drops what a dead load left; a load still running makes the next one go the usual way',
    async () => {
      const indexes = await dataIndexes(bed);
      const leftover = `covid_data__load_${Date.now() - LEFTOVER_AFTER_MS - 1000}`;
      await bed.t.dataSource.query(`CREATE TABLE ${leftover} (id integer PRIMARY KEY)`);
      await repository().upsertMany(records(COUNTRIES, 1100), TEST_ORIGIN);
      expect(await asideTables(bed)).toEqual([]);
      expect(await dataIndexes(bed)).not.toEqual(indexes);

      await emptyCovid(bed);
      const swappedOnce = await dataIndexes(bed);
      const running = `covid_data__load_${Date.now()}`;
      await bed.t.dataSource.query(`CREATE TABLE ${running} (id integer PRIMARY KEY)`);
      expect(await repository().upsertMany(records(COUNTRIES, 1100, 9), TEST_ORIGIN)).toEqual({
        inserted: 11_000,
        updated: 0,
        unchanged: 0,
      });
      expect(await asideTables(bed)).toEqual([running]);
      expect(await dataIndexes(bed)).toEqual(swappedOnce);
      await bed.t.dataSource.query(`DROP TABLE ${running}`);
    },
  );
});
