import { MESSAGES } from '@app/common';
import { TestApp, bootTestApp } from '../../support/test-app';

const record = (date: string, country: string, fresh: number) => ({
  date,
  country,
  total_cases: fresh * 10,
  new_cases: fresh,
  total_deaths: 0,
  new_deaths: 0,
});

/** 7 days in a row ending 2023-03-12 (a Sunday), `fresh` new cases each. */
const week = (country: string, fresh: number) =>
  Array.from({ length: 7 }, (_, i) =>
    record(`2023-03-${String(6 + i).padStart(2, '0')}`, country, fresh),
  );

describe("the public map (/<key>/public/map): a metric's value per country", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
    await t.dataSource.query(
      `INSERT INTO population (iso3, year, country, population, source) VALUES
       ('FRA', 2020, 'France', 2000000, 'owid.csv'), ('PER', 2020, 'Peru', 500000, 'owid.csv')`,
    );
    const covid = [
      ...week('France', 7),
      ...week('Peru', 1),
      record('2023-03-12', 'Diamond Princess', 5),
      record('2023-03-13', 'Chile', 4),
    ];
    expect((await t.http.post('/api/covid/data/bulk').set(t.auth()).send(covid)).status).toBe(200);
  });
  afterAll(() => t.close());

  it("colours a date's countries by the 7-day average per million by default", async () => {
    const response = await t.http.get('/api/covid/public/map?date=2023-03-12');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers.etag).toMatch(/^"/);
    // Places that are not countries (the ship) are left out; France: 7 / 2 million.
    expect(response.body).toEqual({
      metric: 'new_cases_smoothed_per_million',
      date: '2023-03-12',
      period: 'day',
      countries: [
        { country: 'France', iso3: 'FRA', date: '2023-03-12', value: 3.5 },
        { country: 'Peru', iso3: 'PER', date: '2023-03-12', value: 2 },
      ],
    });
  });

  it("answers each country's latest value at or before the date, with its own date", async () => {
    const response = await t.http.get('/api/covid/public/map?metric=new_cases&date=2023-03-20');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      metric: 'new_cases',
      date: '2023-03-20',
      period: 'day',
      countries: [
        { country: 'Chile', iso3: 'CHL', date: '2023-03-13', value: 4 },
        { country: 'France', iso3: 'FRA', date: '2023-03-12', value: 7 },
        { country: 'Peru', iso3: 'PER', date: '2023-03-12', value: 1 },
      ],
    });
    // Before a country's first record it is absent; before any record the list is empty.
    const before = await t.http.get('/api/covid/public/map?metric=new_cases&date=2023-03-06');
    expect(before.body.countries).toEqual([
      { country: 'France', iso3: 'FRA', date: '2023-03-06', value: 7 },
      { country: 'Peru', iso3: 'PER', date: '2023-03-06', value: 1 },
    ]);
    const none = await t.http.get('/api/covid/public/map?metric=new_cases&date=2023-03-05');
    expect(none.body).toEqual({
      metric: 'new_cases',
      date: '2023-03-05',
      period: 'day',
      countries: [],
    });
  });

  it("answers each country's latest week at or before the week, dated by its Sunday", async () => {
    const response = await t.http.get('/api/covid/public/map?metric=new_cases&week=2023-03-15');
    expect(response.body).toEqual({
      metric: 'new_cases',
      date: '2023-03-19',
      period: 'week',
      countries: [
        { country: 'Chile', iso3: 'CHL', date: '2023-03-19', value: 4 },
        { country: 'France', iso3: 'FRA', date: '2023-03-12', value: 49 },
        { country: 'Peru', iso3: 'PER', date: '2023-03-12', value: 7 },
      ],
    });
  });

  it('answers the ISO week containing `week`, dated by its Sunday', async () => {
    const response = await t.http.get('/api/covid/public/map?metric=new_cases&week=2023-03-08');
    expect(response.body).toEqual({
      metric: 'new_cases',
      date: '2023-03-12',
      period: 'week',
      countries: [
        { country: 'France', iso3: 'FRA', date: '2023-03-12', value: 49 },
        { country: 'Peru', iso3: 'PER', date: '2023-03-12', value: 7 },
      ],
    });
  });

  it('answers at the latest date with a record without date or week', async () => {
    const response = await t.http.get('/api/covid/public/map?metric=new_cases_per_million');
    expect(response.body).toEqual({
      metric: 'new_cases_per_million',
      date: '2023-03-13',
      period: 'day',
      countries: [
        { country: 'Chile', iso3: 'CHL', date: '2023-03-13', value: null },
        { country: 'France', iso3: 'FRA', date: '2023-03-12', value: 3.5 },
        { country: 'Peru', iso3: 'PER', date: '2023-03-12', value: 2 },
      ],
    });
  });

  it.each([
    ['metric=cases', /^metric : doit valoir total_cases, /],
    ['date=2023-02-30', /^date : 2023-02-30 n'est pas une date du calendrier$/],
    ['date=2023-03-01&week=2023-03-01', /^week : ne peut pas être combiné avec date$/],
  ])('answers 400 naming the parameter: %s', async (query, detail) => {
    const response = await t.http.get(`/api/mpox/public/map?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: MESSAGES.invalidQuery,
      details: [expect.stringMatching(detail)],
    });
  });
});
