import { MESSAGES } from '@app/common';
import { TestApp, bootTestApp } from '../../support/test-app';

const record = (date: string, country: string, totalCases: number) => ({
  date,
  country,
  total_cases: totalCases,
  new_cases: 1,
  total_deaths: 1,
  new_deaths: 0,
});

const ids = (body: unknown): number[] => (body as { id: number }[]).map((r) => r.id);
const dates = (body: unknown): string[] => (body as { date: string }[]).map((r) => r.date);

/** A write that bypasses this instance, as another instance or the admin CLI would make it. */
async function insertElsewhere(t: TestApp, table: string, date: string, country: string) {
  await t.dataSource.query(
    `INSERT INTO ${table} (date, country, country_key, total_cases, new_cases, total_deaths, new_deaths)
     VALUES (?, ?, ?, 1000, 0, 0, 0)`,
    [date, country, country.toLowerCase()],
  );
}

describe('public aggregates cache (CACHE_TTL_MS)', () => {
  describe('with a long TTL', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await bootTestApp({ CACHE_TTL_MS: '3600000' });
    });
    afterAll(() => t.close());

    it('is served from memory: a write made elsewhere is not seen before the TTL', async () => {
      await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .send(record('2021-01-01', 'Chile', 10));
      expect((await t.http.get('/api/covid/public/totals')).body).toEqual({
        total_cases: 10,
        total_deaths: 1,
      });
      expect((await t.http.get('/api/covid/data').set(t.auth())).body).toHaveLength(1);
      await insertElsewhere(t, 'covid_data', '2021-01-01', 'Peru');
      expect((await t.http.get('/api/covid/public/totals')).body).toEqual({
        total_cases: 10,
        total_deaths: 1,
      });
      expect((await t.http.get('/api/covid/data').set(t.auth())).body).toHaveLength(1);
      // Lists beyond CACHED_LIST_LIMIT records are always read from the database.
      expect((await t.http.get('/api/covid/data?limit=101').set(t.auth())).body).toHaveLength(2);
    });

    it('never serves stale data after a POST, PUT or DELETE of this instance', async () => {
      // Peru (written elsewhere, 1000 cases) shows up with the next local write.
      const created = await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .send(record('2021-01-02', 'Chile', 20));
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      expect((await t.http.get('/api/covid/public/totals')).body).toEqual({
        total_cases: 1020,
        total_deaths: 1,
      });
      expect((await t.http.get('/api/covid/public/latest')).body[0]).toMatchObject({
        id,
        total_cases: 20,
      });
      expect((await t.http.get('/api/covid/public/country/chile')).body).toHaveLength(2);
      const list = await t.http.get('/api/covid/data?country=Chile').set(t.auth());
      expect(ids(list.body)).toContain(id);

      const put = await t.http
        .put(`/api/covid/data/${id}`)
        .set(t.auth())
        .send(record('2021-01-02', 'Chile', 30));
      expect(put.status).toBe(200);
      expect((await t.http.get('/api/covid/public/totals')).body).toEqual({
        total_cases: 1030,
        total_deaths: 1,
      });
      expect((await t.http.get('/api/covid/public/country/CHILE')).body[0]).toMatchObject({
        id,
        total_cases: 30,
      });
      expect((await t.http.get('/api/stats/summary').set(t.auth())).body.covid).toEqual({
        total_cases: 1030,
        total_deaths: 1,
      });

      expect((await t.http.delete(`/api/covid/data/${id}`).set(t.auth())).status).toBe(200);
      expect((await t.http.get('/api/covid/public/totals')).body).toEqual({
        total_cases: 1010,
        total_deaths: 1,
      });
      const window = await t.http.get('/api/covid/public/country/Chile');
      expect(dates(window.body)).toEqual(['2021-01-01']);
      const remaining = await t.http.get('/api/covid/data?country=Chile').set(t.auth());
      expect(dates(remaining.body)).toEqual(['2021-01-01']);
    });

    it('answers a country created after a 404 at once, and does not keep the 404', async () => {
      const missing = await t.http.get('/api/covid/public/country/Bolivia');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: MESSAGES.countryNotFound });
      await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .send(record('2021-02-01', 'Bolivia', 5));
      const found = await t.http.get('/api/covid/public/country/bolivia');
      expect(found.status).toBe(200);
      expect(found.body).toHaveLength(1);
    });

    it('keeps each disease separate: an MPOX write refreshes the MPOX summary', async () => {
      const before = await t.http.get('/api/mpox/public/summary');
      expect(before.body.countries).toBe(0);
      await t.http
        .post('/api/mpox/data')
        .set(t.auth())
        .send(record('2022-06-01', 'Spain', 7));
      const after = await t.http.get('/api/mpox/public/summary');
      expect(after.body).toMatchObject({ total_cases: 7, countries: 1, last_date: '2022-06-01' });
    });
  });

  it.each([
    [
      '/api/covid/public/latest',
      '[{"id":1,"date":"2021-01-01","country":"Chile","total_cases":10,"new_cases":1,"total_deaths":1,"new_deaths":0}]',
    ],
    ['/api/covid/public/totals', '{"total_cases":10,"total_deaths":1}'],
    [
      '/api/covid/public/country/chile',
      '[{"id":1,"date":"2021-01-01","country":"Chile","total_cases":10,"new_cases":1,"total_deaths":1,"new_deaths":0}]',
    ],
    [
      '/api/mpox/public/summary',
      '{"total_cases":0,"total_deaths":0,"countries":0,"last_date":null,"top_countries":[]}',
    ],
  ])('answers %s as JSON text, the same from the cache', async (path, text) => {
    const t = await bootTestApp({ CACHE_TTL_MS: '3600000' });
    try {
      await t.http
        .post('/api/covid/data')
        .set(t.auth())
        .send(record('2021-01-01', 'Chile', 10));
      for (let i = 0; i < 2; i++) {
        const res = await t.http.get(path);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.text).toBe(text);
      }
    } finally {
      await t.close();
    }
  });

  it('builds no public answer from another cached value (it would outlive the TTL)', async () => {
    const t = await bootTestApp({ CACHE_TTL_MS: '3600000' });
    try {
      // /stats/summary keeps both diseases' totals in the cache: no MPOX record yet.
      const stats = await t.http.get('/api/stats/summary').set(t.auth());
      expect(stats.body).toMatchObject({ mpox: { total_cases: 0 } });
      await insertElsewhere(t, 'mpox_data', '2022-06-01', 'Peru');
      expect((await t.http.get('/api/stats/summary').set(t.auth())).body).toMatchObject({
        mpox: { total_cases: 0 },
      });
      // The MPOX summary, never asked for yet, is read from the database, not from those totals.
      expect((await t.http.get('/api/mpox/public/summary')).body).toMatchObject({
        total_cases: 1000,
        countries: 1,
      });
    } finally {
      await t.close();
    }
  });

  describe('turned off (CACHE_TTL_MS=0)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await bootTestApp({ CACHE_TTL_MS: '0' });
    });
    afterAll(() => t.close());

    it('sees writes made elsewhere at once', async () => {
      expect((await t.http.get('/api/mpox/public/summary')).body.countries).toBe(0);
      await insertElsewhere(t, 'mpox_data', '2022-06-01', 'Spain');
      expect((await t.http.get('/api/mpox/public/summary')).body).toMatchObject({
        total_cases: 1000,
        countries: 1,
      });
    });
  });
});
