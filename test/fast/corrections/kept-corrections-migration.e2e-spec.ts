/**
 * Stores that predate the corrections' tables get them from their history once, by the migration:
 * the corrections and flags it derives are those the write path keeps, change for change.
 */
import { KeptCorrections1765600000000 } from '@app/database/migrations/1765600000000-kept-corrections';
import { TestApp, bootTestApp } from '../../support/test-app';

describe('the migration of kept corrections', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ CACHE_TTL_MS: '0' });
  });
  afterAll(() => t.close());

  const record = (date: string, country: string, total: number) => ({
    date,
    country,
    total_cases: total,
    new_cases: 1,
    total_deaths: 0,
    new_deaths: 0,
  });

  it('derives from the history the corrections each write kept', async () => {
    const post = async (body: object) => {
      const res = await t.http.post('/api/covid/data').set(t.auth()).send(body);
      expect(res.status).toBe(201);
      return (res.body as { id: number }).id;
    };
    const put = async (id: number, body: object) =>
      expect((await t.http.put(`/api/covid/data/${id}`).set(t.auth('bob')).send(body)).status).toBe(
        200,
      );
    const a = await post(record('2021-01-01', 'Chile', 10));
    const b = await post(record('2021-01-02', 'Chile', 11));
    await post(record('2021-01-01', 'Peru', 5));
    await put(a, record('2021-01-01', 'Chile', 12));
    await put(b, record('2021-01-05', 'Chile', 11));
    expect((await t.http.delete(`/api/covid/data/${a}`).set(t.auth())).status).toBe(200);
    await post(record('2021-01-01', 'Chile', 13));
    await post(record('2021-01-02', 'Chile', 14));
    const bulk = await t.http
      .post('/api/covid/data/bulk')
      .set(t.auth())
      .send([record('2021-01-01', 'Peru', 6), record('2021-01-03', 'Peru', 7)]);
    expect(bulk.status).toBe(200);

    const read = async () => {
      const list = await t.http.get('/api/covid/corrections').set(t.auth());
      const series = await t.http.get('/api/covid/series?country=South%20America').set(t.auth());
      const days = await t.dataSource.query<unknown[]>(
        'SELECT country_key, date, first_at FROM covid_corrected_days ORDER BY country_key, date',
      );
      return { list: list.body as unknown, series: series.body as unknown, days };
    };
    const kept = await read();
    expect((kept.list as { corrections: unknown[] }).corrections).toHaveLength(
      1 + 4 + 4 + 4 + 4 + 1,
    );

    const migration = new KeptCorrections1765600000000();
    const runner = t.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await read()).toEqual(kept);
  });
});
