import { TestApp, bootTestApp } from '../../support/test-app';

/** A population row as `/population` lists it. */
const row = (country: string, iso3: string, iso2: string, year: number, population: number) => ({
  country,
  iso3,
  iso2,
  year,
  population,
  source: year === 2021 ? 'un.csv' : 'owid.csv',
});

describe('the population table (/population)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
    // Stored out of order: the list is by alpha-3 code, then year.
    await t.dataSource.query(
      `INSERT INTO population (iso3, year, country, population, source) VALUES
       ('PER', 2021, 'Peru', 510000, 'un.csv'), ('FRA', 2020, 'France', 2000000, 'owid.csv'),
       ('PER', 2020, 'Peru', 500000, 'owid.csv')`,
    );
  });
  afterAll(() => t.close());

  it('lists the table by code then year, as JSON, CSV and NDJSON, without a token', async () => {
    const json = await t.http.get('/api/population');
    expect(json.status).toBe(200);
    const rows = [
      row('France', 'FRA', 'FR', 2020, 2000000),
      row('Peru', 'PER', 'PE', 2020, 500000),
      row('Peru', 'PER', 'PE', 2021, 510000),
    ];
    expect(json.body).toEqual(rows);
    const csv = await t.http.get('/api/population?format=csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.text).toBe(
      'country,iso3,iso2,year,population,source\r\n' +
        'France,FRA,FR,2020,2000000,owid.csv\r\nPeru,PER,PE,2020,500000,owid.csv\r\n' +
        'Peru,PER,PE,2021,510000,un.csv\r\n',
    );
    const ndjson = await t.http.get('/api/population?format=ndjson');
    expect(ndjson.status).toBe(200);
    expect(
      ndjson.text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(rows);
  });
});
