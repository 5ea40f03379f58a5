/**
 * MySQL: an import that changes stored records locks those rows only. Upserting a stored key
 * took an exclusive next-key lock, which also covers the gap before the key: while a source
 * restated its series, an API insert of a new record next to any of its keys waited for the
 * import's commit (503 past DB_TIMEOUT_MS). SQLite has one writer: there, a large import is built
 * aside (first-load.e2e-spec.ts).
 */
import { COVID_SERIES, RecordValues, SeriesRepository } from '@app/series';
import { TEST_ORIGIN } from '../../support/fixtures';
import { tableRows } from '../../support/table-snapshot';
import { TestApp, bootTestApp } from '../../support/test-app';
import { TEST_DB_TYPE } from '../../support/test-database';

const mysqlOnly = TEST_DB_TYPE === 'mysql' ? describe : describe.skip;

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

  it('holds the rows it changes, not the gaps beside them: API writes go on', async () => {
    const repository = new SeriesRepository(t.dataSource, COVID_SERIES);
    const benin = await repository.insert(record('Benin', '2021-01-01', 1), TEST_ORIGIN);
    const france = await repository.insert(record('France', '2021-01-01', 1), TEST_ORIGIN);
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
});
