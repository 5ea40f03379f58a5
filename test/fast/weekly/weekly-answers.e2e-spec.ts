import { MESSAGES } from '@app/common';
import { TestApp, bootTestApp } from '../../support/test-app';

const record = (date: string, country: string, totalCases: number, newCases: number) => ({
  date,
  country,
  total_cases: totalCases,
  new_cases: newCases,
  total_deaths: totalCases / 10,
  new_deaths: newCases / 10,
});

describe('public weekly answers (/<key>/public/weekly, country/:country/weekly, countries)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
    // Per million: Chile's 2020 population (the nearest year to 2023), Peru's.
    await t.dataSource.query(
      `INSERT INTO population (iso3, year, country, population, source) VALUES
       ('CHL', 2020, 'Chile', 1000000, 'test'), ('PER', 2020, 'Peru', 3000000, 'test')`,
    );
    // 2023-03-05 is a Sunday: weeks end on 03-05, 03-12 and 03-19 (none from 03-13 to 03-19).
    const covid = [
      record('2023-03-04', 'Chile', 100, 10),
      record('2023-03-05', 'Chile', 120, 20),
      record('2023-03-06', 'Chile', 150, 30),
      record('2023-03-12', 'Chile', 190, 40),
      record('2023-03-20', 'Chile', 240, 50),
      record('2023-03-05', 'Peru', 1000, 100),
      record('2023-03-06', 'Peru', 1200, 200),
    ];
    const written = await t.http.post('/api/covid/data/bulk').set(t.auth()).send(covid);
    expect(written.status).toBe(200);
    // Bolivia: 7 days in a row, so its last day has a 7-day average; no population.
    const bolivia = Array.from({ length: 7 }, (_, i) =>
      record(`2023-03-${String(6 + i).padStart(2, '0')}`, 'Bolivia', 70 * (i + 1), 70),
    );
    const mpox = await t.http
      .post('/api/mpox/data/bulk')
      .set(t.auth())
      .send([record('2023-03-07', 'Chile', 10, 10), ...bolivia]);
    expect(mpox.status).toBe(200);
  });
  afterAll(() => t.close());

  it("answers a country's weeks as columnar arrays, found ignoring case", async () => {
    const response = await t.http.get('/api/covid/public/country/%20cHILE%20/weekly');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({
      country: 'Chile',
      weeks: ['2023-03-05', '2023-03-12', '2023-03-26'],
      days: [2, 2, 1],
      new_cases: [30, 70, 50],
      new_deaths: [3, 7, 5],
      total_cases: [120, 190, 240],
      total_deaths: [12, 19, 24],
      population: 1000000,
      new_cases_per_million: [30, 70, 50],
      new_deaths_per_million: [3, 7, 5],
      total_cases_per_million: [120, 190, 240],
      total_deaths_per_million: [12, 19, 24],
      // No 7 calendar days in a row with records.
      new_cases_smoothed: [null, null, null],
      new_deaths_smoothed: [null, null, null],
      // No negative day, nothing corrected.
      flags: [[], [], []],
    });
  });

  it("answers the world's weeks: each day summed over the countries with a record that day", async () => {
    const response = await t.http.get('/api/covid/public/weekly');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      country: null,
      weeks: ['2023-03-05', '2023-03-12', '2023-03-26'],
      days: [2, 2, 1],
      new_cases: [130, 270, 50],
      new_deaths: [13, 27, 5],
      total_cases: [1120, 190, 240],
      total_deaths: [112, 19, 24],
      // The world's population: the sum over the countries of the table (1 + 3 million).
      population: 4000000,
      new_cases_per_million: [32.5, 67.5, 12.5],
      new_deaths_per_million: [3.25, 6.75, 1.25],
      total_cases_per_million: [280, 47.5, 60],
      total_deaths_per_million: [28, 4.75, 6],
      new_cases_smoothed: [null, null, null],
      new_deaths_smoothed: [null, null, null],
      // No negative day, nothing corrected.
      flags: [[], [], []],
    });
  });

  it('shares one implementation with MPOX', async () => {
    expect((await t.http.get('/api/mpox/public/country/chile/weekly')).body).toEqual({
      country: 'Chile',
      weeks: ['2023-03-12'],
      days: [1],
      new_cases: [10],
      new_deaths: [1],
      total_cases: [10],
      total_deaths: [1],
      population: 1000000,
      new_cases_per_million: [10],
      new_deaths_per_million: [1],
      total_cases_per_million: [10],
      total_deaths_per_million: [1],
      new_cases_smoothed: [null],
      new_deaths_smoothed: [null],
      flags: [[]],
    });
    // The 7-day average of the week's last day: (7 x 70) / 7; per million: no population.
    const bolivia = (await t.http.get('/api/mpox/public/country/Bolivia/weekly')).body;
    expect(bolivia).toMatchObject({
      weeks: ['2023-03-12'],
      new_cases: [490],
      new_cases_smoothed: [70],
      new_deaths_smoothed: [7],
      population: null,
      new_cases_per_million: [null],
    });
    expect((await t.http.get('/api/mpox/public/countries')).body).toEqual([
      { country: 'Bolivia', date: '2023-03-12', total_cases: 490, total_deaths: 49 },
      { country: 'Chile', date: '2023-03-07', total_cases: 10, total_deaths: 1 },
    ]);
  });

  it("lists each country's latest totals by name, without a token", async () => {
    const response = await t.http.get('/api/covid/public/countries');
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { country: 'Chile', date: '2023-03-20', total_cases: 240, total_deaths: 24 },
      { country: 'Peru', date: '2023-03-06', total_cases: 1200, total_deaths: 120 },
    ]);
  });

  it('answers 404 in French for an unknown country', async () => {
    for (const disease of ['covid', 'mpox']) {
      const response = await t.http.get(`/api/${disease}/public/country/Atlantis/weekly`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: MESSAGES.countryNotFound });
    }
    expect((await t.http.get('/api/mpox/public/country/Peru/weekly')).status).toBe(404);
  });

  it('answers 400 for a country name that is too long or blank', async () => {
    const long = await t.http.get(`/api/covid/public/country/${'a'.repeat(101)}/weekly`);
    expect(long.status).toBe(400);
    expect(long.body).toEqual({
      error: MESSAGES.invalidParam,
      details: ['country : doit contenir de 1 à 100 caractères'],
    });
    const blank = await t.http.get('/api/covid/public/country/%20%20/weekly');
    expect(blank.status).toBe(400);
    expect(blank.body.error).toBe(MESSAGES.invalidParam);
  });

  it('answers empty arrays for the world when there is no record', async () => {
    const empty = await bootTestApp();
    try {
      expect((await empty.http.get('/api/mpox/public/weekly')).body).toEqual({
        country: null,
        weeks: [],
        days: [],
        new_cases: [],
        new_deaths: [],
        total_cases: [],
        total_deaths: [],
        population: null,
        new_cases_per_million: [],
        new_deaths_per_million: [],
        total_cases_per_million: [],
        total_deaths_per_million: [],
        new_cases_smoothed: [],
        new_deaths_smoothed: [],
        flags: [],
      });
      expect((await empty.http.get('/api/mpox/public/countries')).body).toEqual([]);
    } finally {
      await empty.close();
    }
  });

  it('shows a new record at once after a write', async () => {
    await t.http
      .post('/api/covid/data')
      .set(t.auth())
      .send(record('2023-03-21', 'Peru', 1300, 100));
    const response = await t.http.get('/api/covid/public/country/peru/weekly');
    expect(response.body.weeks).toEqual(['2023-03-05', '2023-03-12', '2023-03-26']);
    expect(response.body.total_cases).toEqual([1000, 1200, 1300]);
  });
});
