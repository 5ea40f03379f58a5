import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseLogger } from '@app/database';
import { cliTestBed } from '../../support/cli-test-bed';
import { recordBody } from '../../support/fixtures';
import { tableRows } from '../../support/table-snapshot';

type Row = Record<string, unknown>;

const SPELLINGS = ['US', 'usa', 'United States', 'États-Unis', 'etats-unis', 'USA '];

describe('one identity per country', () => {
  const bed = cliTestBed('covid-countries-test-');
  const { cli } = bed;
  const get = (path: string) => bed.t.http.get(path).set(bed.t.auth());
  const dates = (rows: Row[]) => rows.map((r) => `${String(r.date)} ${String(r.country)}`);

  beforeAll(async () => {
    for (const key of ['covid', 'mpox']) {
      for (const [date, country] of [
        ['2021-03-01', 'US'],
        ['2021-03-02', 'United States of America'],
        ['2021-03-01', 'Diamond Princess'],
      ]) {
        const res = await bed.t.http
          .post(`/api/${key}/data`)
          .set(bed.t.auth())
          .send(recordBody({ date, country }));
        expect(res.status).toBe(201);
      }
    }
  });

  it('stores every spelling of a country under its canonical name, once', async () => {
    for (const key of ['covid', 'mpox']) {
      const countries = await get(`/api/${key}/countries`);
      expect(countries.body).toEqual([
        {
          country: 'Diamond Princess',
          iso2: null,
          iso3: null,
          records: 1,
          first_date: '2021-03-01',
          last_date: '2021-03-01',
        },
        {
          country: 'United States',
          iso2: 'US',
          iso3: 'USA',
          records: 2,
          first_date: '2021-03-01',
          last_date: '2021-03-02',
        },
      ]);
    }
    // The same country and date under another spelling is the same record.
    const again = await bed.t.http
      .post('/api/covid/data')
      .set(bed.t.auth())
      .send(recordBody({ date: '2021-03-01', country: 'U.S.A.' }));
    expect(again.status).toBe(409);
  });

  it.each(SPELLINGS)(
    'reaches the same records as %j on every route that takes a country',
    async (spelling) => {
      const name = encodeURIComponent(spelling);
      const expected = ['2021-03-02 United States', '2021-03-01 United States'];
      const publicCountry = await bed.t.http.get(`/api/covid/public/country/${name}`);
      expect(publicCountry.status).toBe(200);
      expect(dates(publicCountry.body as Row[])).toEqual(expected);
      for (const key of ['covid', 'mpox']) {
        const list = await get(`/api/${key}/data?country=${name}`);
        expect(list.status).toBe(200);
        expect(dates(list.body as Row[])).toEqual(expected);
        const stats = await get(`/api/${key}/stats?country=${name}`);
        expect(stats.status).toBe(200);
        expect(stats.body).toMatchObject({ country: 'United States', records: 2 });
      }
      const exported = await cli('export', 'covid', '--country', spelling);
      expect(exported.code).toBe(0);
      expect(exported.stdout.trimEnd().split('\n').slice(1)).toEqual([
        '2021-03-01,United States,3800000,20000,86000,250',
        '2021-03-02,United States,3800000,20000,86000,250',
      ]);
    },
  );

  it('still finds a place that is not a country by its own name, and 404s an unknown one', async () => {
    const ship = await get('/api/covid/data?country=%20diamond%20PRINCESS');
    expect(dates(ship.body as Row[])).toEqual(['2021-03-01 Diamond Princess']);
    for (const path of [
      '/api/covid/public/country/Atlantide',
      '/api/covid/public/country/Congo%20',
    ]) {
      const res = await bed.t.http.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Pays introuvable.' });
    }
    const stats = await get('/api/mpox/stats?country=Germany');
    expect(stats.status).toBe(404);
    expect(stats.body).toEqual({ error: 'Pays introuvable.' });
  });

  it('makes one country of two sources that spell it differently (imports)', async () => {
    const header = 'date,country,total_cases,new_cases,total_deaths,new_deaths';
    const jhu = join(bed.dir, 'jhu.csv');
    const who = join(bed.dir, 'who.csv');
    writeFileSync(jhu, [header, '2022-01-01,"Korea, South",10,10,1,1'].join('\n'));
    writeFileSync(
      who,
      [
        'Date_reported,Country_code,Country,WHO_region,New_cases,Cumulative_cases,New_deaths,Cumulative_deaths',
        '2022-01-01,KR,Republic of Korea,WPRO,10,12,1,1',
        '2022-01-02,KR,Republic of Korea,WPRO,3,15,0,1',
      ].join('\n'),
    );
    expect((await cli('import', 'covid', jhu)).stdout).toContain(
      '  1 Korea, South -> South Korea\n',
    );
    const second = await cli('import', 'covid', who);
    expect(second.stdout).toContain('inserted:  1\nupdated:   1\nunchanged: 0\n');
    expect(second.stdout).toContain('  2 Republic of Korea -> South Korea\n');
    const korea = await bed.t.http.get('/api/covid/public/country/Cor%C3%A9e%20du%20Sud');
    expect(dates(korea.body as Row[])).toEqual([
      '2022-01-02 South Korea',
      '2022-01-01 South Korea',
    ]);
    const countries = (await get('/api/covid/countries')).body as Row[];
    expect(countries.filter((c) => c.iso2 === 'KR')).toHaveLength(1);
  });

  it('migrates a database holding `US` and `United States`: one country, the duplicate logged', async () => {
    const { dataSource } = bed.t;
    // Back to just before the renaming migration (and the ones after it).
    const names = dataSource.migrations.map((m) => m.name);
    const at = names.indexOf('CanonicalCountryNames1764400000000');
    expect(at).toBeGreaterThan(0);
    for (let i = names.length; i > at; i--) {
      await dataSource.undoLastMigration({ transaction: 'all' });
    }
    await dataSource.query('DELETE FROM mpox_data');
    const insert = (country: string, date: string, total: number) =>
      dataSource.query(
        `INSERT INTO mpox_data (date, country, country_key, total_cases, new_cases, total_deaths, new_deaths)
         VALUES (?, ?, ?, ?, 1, 0, 0)`,
        [date, country, country.trim().toLowerCase(), total],
      );
    await insert('US', '2022-06-01', 1);
    await insert('US', '2022-06-02', 2);
    await insert('United States', '2022-06-02', 20);
    await insert('United States', '2022-06-03', 30);
    await insert('Korea, South', '2022-06-01', 5);
    await insert('MS Zaandam', '2022-06-01', 7);
    const log = jest.spyOn(DatabaseLogger.prototype, 'log');
    let warnings: unknown[];
    try {
      await dataSource.runMigrations({ transaction: 'all' });
      warnings = log.mock.calls.filter(([level]) => level === 'warn').map(([, text]) => text);
    } finally {
      log.mockRestore();
    }
    expect(warnings).toEqual([
      expect.stringMatching(
        /^mpox_data: record \d+ \(US, 2022-06-02, total_cases 2, new_cases 1, total_deaths 0, new_deaths 0\) dropped: United States has a more recently written record for that date$/,
      ),
    ]);
    const rows = (await tableRows(dataSource, 'mpox_data')).map((r) => [
      r.date,
      r.country,
      r.country_key,
      r.total_cases,
    ]);
    expect(rows).toEqual([
      ['2022-06-01', 'United States', 'united states', 1],
      ['2022-06-02', 'United States', 'united states', 20],
      ['2022-06-03', 'United States', 'united states', 30],
      ['2022-06-01', 'South Korea', 'south korea', 5],
      ['2022-06-01', 'MS Zaandam', 'ms zaandam', 7],
    ]);
  });
});
