/**
 * MySQL: a bulk write whose keys other writers keep creating or deleting under it gives up after
 * a few rounds. It answers 503 with `Retry-After` (the same request may succeed a moment later),
 * not 500, and writes nothing. SQLite has one writer: no such race.
 */
import { MESSAGES } from '@app/common';
import { BULK_RACE_LIMIT } from '@app/database';
import { recordBody } from '../../support/fixtures';
import { statementRunning } from '../../support/running-statement';
import { historySnapshot, tableRows } from '../../support/table-snapshot';
import { TestApp, bootTestApp } from '../../support/test-app';
import { onlyOn } from '../../support/database-only';

const mysqlOnly = onlyOn('mysql').describe;

const record = (country: string, date: string, total_cases: number) =>
  recordBody({ country, date, total_cases });
/** Benin's record changed, Niger's first day created by another writer meanwhile, its second new. */
const batch = [
  record('Benin', '2021-01-01', 2),
  record('Niger', '2021-01-01', 2),
  record('Niger', '2021-01-02', 3),
];

mysqlOnly('a bulk write that gives up against other writers (MySQL)', () => {
  let t: TestApp;
  const rounds = BULK_RACE_LIMIT.rounds;
  beforeAll(async () => {
    t = await bootTestApp({ DB_TIMEOUT_MS: '5000' });
  });
  afterAll(async () => {
    BULK_RACE_LIMIT.rounds = rounds;
    await t.close();
  });

  it('answers 503 with Retry-After and writes nothing', async () => {
    const seeded = await t.http
      .post('/api/covid/data/bulk')
      .set(t.auth())
      .send([record('Benin', '2021-01-01', 1)]);
    expect(seeded.status).toBe(200);
    const revisions = async () =>
      [
        await historySnapshot(t.dataSource, 'covid'),
        await t.dataSource.query('SELECT * FROM covid_revision_commits ORDER BY 1'),
      ] as const;
    const before = {
      data: await tableRows(t.dataSource, 'covid_data'),
      history: await revisions(),
    };

    // One round: a key created under the write (its next round) is already one too many.
    BULK_RACE_LIMIT.rounds = 1;
    // Another writer inserts the key and holds it: the bulk write reads no record there (READ
    // COMMITTED), then its insert waits until that writer commits, and finds the key taken.
    const other = t.dataSource.createQueryRunner();
    await other.connect();
    let answer;
    try {
      await other.startTransaction('READ COMMITTED');
      await other.query(
        `INSERT INTO covid_data (date, country, country_key, total_cases, new_cases, total_deaths,
           new_deaths) VALUES ('2021-01-01', 'Niger', 'niger', 1, 1, 0, 0)`,
      );
      const bulk = t.http
        .post('/api/covid/data/bulk')
        .set(t.auth())
        .send(batch)
        .then((response) => response);
      expect(await statementRunning(t.dataSource, 'INSERT INTO covid_data%')).toBe(true);
      await other.commitTransaction();
      answer = await bulk;
    } finally {
      if (other.isTransactionActive) await other.rollbackTransaction();
      await other.release();
      BULK_RACE_LIMIT.rounds = rounds;
    }
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.body).toEqual({ error: MESSAGES.writeRaceLost });

    // Only the other writer's row is new; Benin keeps its figures, and no revision was kept.
    const data = await tableRows(t.dataSource, 'covid_data');
    expect(data.filter((r) => r.country !== 'Niger')).toEqual(before.data);
    expect(data.filter((r) => r.country === 'Niger').map((r) => [r.date, r.total_cases])).toEqual([
      ['2021-01-01', 1],
    ]);
    expect(await revisions()).toEqual(before.history);

    // The same request, sent again once the race is over, is written.
    const again = await t.http.post('/api/covid/data/bulk').set(t.auth()).send(batch);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: true, inserted: 1, updated: 2 });
  });
});
