import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTestBed } from '../../support/cli-test-bed';

const FIXTURES = join(__dirname, '../../fixtures');

type Row = Record<string, unknown>;

/** The summary lines between `format:` and `time:` (the time varies). */
function summaryOf(stdout: string): string {
  return stdout.slice(stdout.indexOf('format:'), stdout.indexOf('time:'));
}

describe('import: the WHO and Our World in Data layouts, blank cells filled and counted', () => {
  const bed = cliTestBed('covid-formats-test-');
  const { cli } = bed;
  const get = (path: string) => bed.t.http.get(path).set(bed.t.auth());
  const figures = (rows: Row[]) =>
    rows.map((r) => [r.date, r.total_cases, r.new_cases, r.total_deaths, r.new_deaths]);

  it('keeps a small country whose deaths are blank until the first one (OWID, 2021)', async () => {
    const result = await cli('import', 'covid', join(FIXTURES, 'owid-covid-2021-04.csv'));
    expect(result.code).toBe(0);
    expect(summaryOf(result.stdout)).toBe(
      [
        'format:    Our World in Data',
        'rows read: 6',
        'inserted:  5',
        'updated:   0',
        'unchanged: 0',
        'skipped:   1',
        '  1 Our World in Data aggregates (World, continents, income groups...)',
        'filled:    7 blank cells',
        '  3 total_deaths: blank before the first report, set to 0',
        '  4 new_deaths: blank, derived from the totals (this minus the previous)',
        '',
      ].join('\n'),
    );
    const samoa = await bed.t.http.get('/api/covid/public/country/Samoa');
    expect(samoa.status).toBe(200);
    expect(figures(samoa.body as Row[])).toEqual([
      ['2021-04-01', 4, 1, 0, 0],
      ['2021-03-31', 3, 0, 0, 0],
      ['2021-03-30', 3, 0, 0, 0],
    ]);
    const france = await get('/api/covid/data?country=France');
    expect(figures(france.body as Row[])).toEqual([
      ['2021-04-01', 4650000, 50000, 95800, 300],
      ['2021-03-31', 4600000, 59000, 95500, 300],
    ]);
    const countries = (await get('/api/covid/countries')).body as Row[];
    expect(countries.map((c) => [c.country, c.iso3])).toEqual([
      ['France', 'FRA'],
      ['Samoa', 'WSM'],
    ]);
  });

  it('reads the newer OWID layout (`country` column, aggregates by code or by name)', async () => {
    const result = await cli('import', 'mpox', join(FIXTURES, 'owid-newer-layout.csv'));
    expect(result.code).toBe(0);
    expect(summaryOf(result.stdout)).toBe(
      [
        'format:    Our World in Data',
        'rows read: 5',
        'inserted:  3',
        'updated:   0',
        'unchanged: 0',
        'skipped:   2',
        '  2 Our World in Data aggregates (World, continents, income groups...)',
        'filled:    4 blank cells',
        '  2 new_cases: blank, derived from the totals (this minus the previous)',
        '  2 new_deaths: blank, derived from the totals (this minus the previous)',
        '',
      ].join('\n'),
    );
    const kosovo = await get('/api/mpox/data?country=XKX');
    expect(figures(kosovo.body as Row[])).toEqual([
      ['2024-08-04', 274100, 100, 3212, 0],
      ['2024-07-28', 274000, 274000, 3212, 3212],
    ]);
    const countries = (await get('/api/mpox/countries')).body as Row[];
    expect(countries.map((c) => [c.country, c.iso2, c.iso3])).toEqual([
      ['Dominica', 'DM', 'DMA'],
      ['Kosovo', 'XK', 'XKX'],
    ]);
  });

  it('reads a WHO weekly file: every row kept, totals equal to its last cumulative figures', async () => {
    const result = await cli('import', 'covid', join(FIXTURES, 'who-weekly.csv'));
    expect(result.code).toBe(0);
    expect(summaryOf(result.stdout)).toBe(
      [
        'format:    WHO',
        'rows read: 8',
        'inserted:  7',
        'updated:   0',
        'unchanged: 0',
        'skipped:   1',
        '  1 figures not reported (every figure cell empty)',
        'filled:    9 blank cells',
        '  4 new_cases: blank, derived from the totals (this minus the previous)',
        '  5 new_deaths: blank, derived from the totals (this minus the previous)',
        'renamed:   6 rows to the canonical country name',
        '  4 United States of America -> United States',
        '  2 Kosovo (in accordance with UN Security Council resolution 1244 (1999)) -> Kosovo',
        'not countries, kept as named: 1',
        '  1 Other',
        '',
      ].join('\n'),
    );
    const us = await get('/api/covid/data?country=USA');
    expect(figures(us.body as Row[])).toEqual([
      ['2025-09-28', 103450000, 10000, 1228289, 100589],
      ['2023-05-21', 103440000, 40000, 1127700, 548],
      ['2023-05-14', 103400000, 0, 1127152, 0],
      ['2023-05-07', 103400000, 50000, 1127152, 1000],
    ]);
    // The latest records of the United States, Kosovo and Other (the OWID test's are older).
    const totals = await bed.t.http.get('/api/covid/public/totals');
    expect(totals.body).toEqual({
      total_cases: 103450000 + 273005 + 764 + 4650000 + 4,
      total_deaths: 1228289 + 3200 + 13 + 95800 + 0,
    });
    const stats = await get('/api/covid/stats?country=United%20States%20of%20America');
    expect(stats.body).toMatchObject({ country: 'United States', total_deaths: 1228289 });
  });

  it('reads a WHO daily file, using its ISO code where the name is not known', async () => {
    const result = await cli('import', 'mpox', join(FIXTURES, 'who-daily.csv'));
    expect(result.code).toBe(0);
    expect(summaryOf(result.stdout)).toBe(
      [
        'format:    WHO',
        'rows read: 4',
        'inserted:  4',
        'updated:   0',
        'unchanged: 0',
        'skipped:   0',
        'filled:    4 blank cells',
        '  1 new_cases: blank, derived from the totals (this minus the previous)',
        '  2 new_deaths: blank, derived from the totals (this minus the previous)',
        '  1 total_deaths: blank after a known total, carried forward',
        'renamed:   2 rows to the canonical country name',
        '  2 The United Kingdom -> United Kingdom',
        '',
      ].join('\n'),
    );
    const uk = await get('/api/mpox/data?country=UK');
    expect(figures(uk.body as Row[])).toEqual([
      ['2020-01-04', 2, 2, 0, 0],
      ['2020-01-03', 0, 0, 0, 0],
    ]);
  });

  it('refuses to fill a blank cell of a row that comes before its place’s previous row', async () => {
    const file = join(bed.dir, 'unordered.csv');
    writeFileSync(
      file,
      [
        'date,country,total_cases,new_cases,total_deaths,new_deaths',
        '2022-02-02,Atlantis,20,5,1,0',
        '2022-02-01,Atlantis,15,,1,0',
        '2022-02-03,Atlantis,,1,,',
      ].join('\n'),
    );
    const result = await cli('import', 'mpox', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'line 3: cellule vide non remplie : la ligne précédente de ce lieu est du 2022-02-02',
    );
    // The file applies whole or not at all: nothing of it is written.
    expect(summaryOf(result.stdout)).toContain('inserted:  0\n');
    expect(result.stderr).toContain(
      'error: 1 invalid row(s) (see their line numbers above); nothing was imported',
    );
    const atlantis = await get('/api/mpox/data?country=atlantis');
    expect(figures(atlantis.body as Row[])).toEqual([]);
  });
});
