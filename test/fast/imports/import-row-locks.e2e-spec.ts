/**
 * MySQL: an import that changes stored records locks those rows only. Upserting a stored key
 * took an exclusive next-key lock, which also covers the gap before the key: while a source
 * restated its series, an API insert of a new record next to any of its keys waited for the
 * import's commit (503 past DB_TIMEOUT_MS). SQLite has one writer: there, a large import is built
 * aside (first-load.e2e-spec.ts).
 */
import { COVID_DISEASE, RecordValues } from '@app/diseases';
import { TEST_ORIGIN, seedWriter } from '../../support/fixtures';
import { statementRunning } from '../../support/running-statement';
import { tableRows } from '../../support/table-snapshot';
import { TestApp, bootTestApp } from '../../support/test-app';
import { onlyOn } from '../../support/database-only';

const mysqlOnly = onlyOn('mysql').describe;

const record = (country: string, date: string, total_cases: number): RecordValues => ({
  date,
  country,
  total_cases,
  new_cases: 1,
  total_deaths: 0,
  new_deaths: 0,
});

mysqlOnly('an import changing stored records (MySQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ DB_TIMEOUT_MS: '2000' });
  });
  afterAll(() => t.close());

  const running = (statement: string) => statementRunning(t.dataSource, statement);

  it('holds the rows it changes, not the gaps beside them: API writes go on', async () => {
    const repository = seedWriter(t.dataSource, COVID_DISEASE);
    const benin = await repository.create(record('Benin', '2021-01-01', 1), TEST_ORIGIN);
    const france = await repository.create(record('France', '2021-01-01', 1), TEST_ORIGIN);
    let applied!: () => void;
    const written = new Promise<void>((resolve) => (applied = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* chunks(): AsyncGenerator<RecordValues[]> {
      yield [record('Benin', '2021-01-01', 2)];
      // The chunk is written, its transaction still open.
      applied();
      await gate;
    }
    const load = repository.upsertStream(chunks(), { actor: 'test:restate' });
    await written;
    try {
      // Keys right before Benin's ('bench writers' < 'benin'), and after it.
      const before = await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .send(record('Bench Writers', '2021-01-05', 7));
      expect(before.status).toBe(201);
      const after = await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .send(record('Benin', '2021-01-02', 7));
      expect(after.status).toBe(201);
      const other = await t.http
        .put(`/api/covid/data/${france}`)
        .set(t.auth())
        .send(record('France', '2021-01-01', 9));
      expect(other.status).toBe(200);
    } finally {
      release();
    }
    expect(await load).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
    const stored = await tableRows(t.dataSource, 'covid_data');
    expect(stored.map((r) => [r.country, r.date, r.total_cases]).sort()).toEqual(
      [
        ['Bench Writers', '2021-01-05', 7],
        ['Benin', '2021-01-01', 2],
        ['Benin', '2021-01-02', 7],
        ['France', '2021-01-01', 9],
      ].sort(),
    );
    const history = await t.http.get(`/api/covid/data/${benin}/history`).set(t.auth());
    expect(
      (history.body as { change: string; actor: string }[]).map((r) => [r.change, r.actor]),
    ).toEqual([
      ['create', TEST_ORIGIN.actor],
      ['update', 'test:restate'],
    ]);
  });

  it('creates again a record deleted between its read and its lock, counted as inserted', async () => {
    const repository = seedWriter(t.dataSource, COVID_DISEASE);
    const old = await repository.create(record('Chad', '2021-01-01', 1), TEST_ORIGIN);
    // Another writer holds the row: the import reads it (no lock at READ COMMITTED), then waits
    // in its `SELECT ... FOR UPDATE` until that writer deletes the row and commits.
    const other = t.dataSource.createQueryRunner();
    await other.connect();
    try {
      await other.startTransaction('READ COMMITTED');
      await other.query('SELECT id FROM covid_data WHERE id = ? FOR UPDATE', [old]);
      async function* restated(): AsyncGenerator<RecordValues[]> {
        yield await Promise.resolve([record('Chad', '2021-01-01', 2)]);
      }
      const load = repository.upsertStream(restated(), { actor: 'test:restate' });
      // The import's lock request, waiting.
      expect(await running('SELECT id FROM covid_data WHERE id IN (%) FOR UPDATE')).toBe(true);
      await other.query('DELETE FROM covid_data WHERE id = ?', [old]);
      await other.commitTransaction();
      expect(await load).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
    } finally {
      if (other.isTransactionActive) await other.rollbackTransaction();
      await other.release();
    }
    const chad = (await tableRows(t.dataSource, 'covid_data')).filter((r) => r.country === 'Chad');
    expect(chad.map((r) => [r.date, r.total_cases])).toEqual([['2021-01-01', 2]]);
    const created = Number(chad[0].id);
    expect(created).not.toBe(old);
    const history = await t.http.get(`/api/covid/data/${created}/history`).set(t.auth());
    expect(
      (history.body as { change: string; actor: string }[]).map((r) => [r.change, r.actor]),
    ).toEqual([['create', 'test:restate']]);
  });

  it('updates a record another writer created between its read and its insert', async () => {
    const repository = seedWriter(t.dataSource, COVID_DISEASE);
    // Another writer inserts the key and holds it: the import reads no record there (READ
    // COMMITTED), then its insert waits until that writer commits.
    const other = t.dataSource.createQueryRunner();
    await other.connect();
    try {
      await other.startTransaction('READ COMMITTED');
      await other.query(
        `INSERT INTO covid_data (date, country, country_key, total_cases, new_cases, total_deaths,
           new_deaths) VALUES ('2021-01-01', 'Niger', 'niger', 1, 1, 0, 0)`,
      );
      async function* restated(): AsyncGenerator<RecordValues[]> {
        yield await Promise.resolve([
          record('Niger', '2021-01-01', 2),
          record('Niger', '2021-01-02', 3),
        ]);
      }
      const load = repository.upsertStream(restated(), { actor: 'test:restate' });
      expect(await running('INSERT INTO covid_data%')).toBe(true);
      await other.commitTransaction();
      expect(await load).toEqual({ inserted: 1, updated: 1, unchanged: 0 });
    } finally {
      if (other.isTransactionActive) await other.rollbackTransaction();
      await other.release();
    }
    const niger = (await tableRows(t.dataSource, 'covid_data')).filter(
      (r) => r.country === 'Niger',
    );
    expect(niger.map((r) => [r.date, r.total_cases])).toEqual([
      ['2021-01-01', 2],
      ['2021-01-02', 3],
    ]);
    const changes = await Promise.all(
      niger.map(async (r) => {
        const history = await t.http.get(`/api/covid/data/${Number(r.id)}/history`).set(t.auth());
        return (history.body as { change: string; actor: string }[]).map((h) => [
          h.change,
          h.actor,
        ]);
      }),
    );
    expect(changes).toEqual([[['update', 'test:restate']], [['create', 'test:restate']]]);
  });
});
