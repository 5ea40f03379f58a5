/**
 * The regions' daily sums that every write keeps (decision 0036) equal, after each kind of write,
 * the sums of the records themselves: imports (a first load, a revised file), API creates, updates
 * that move a record to another continent, deletions, bulk writes naming a key twice, restore,
 * revert and prune. A change of the regions' members makes them again at start-up. Each
 * country's kept count and dates (`/countries`) are checked at the same steps.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reconcileRegionMembers } from '@app/database';
import { cliTestBed } from '../../support/cli-test-bed';

const HEADER = 'date,country,total_cases,new_cases,total_deaths,new_deaths';
const FIRST = [
  '2021-03-01,Chile,100,10,10,1',
  '2021-03-02,Chile,110,10,11,1',
  '2021-03-01,France,500,50,20,2',
  '2021-03-02,France,560,60,21,1',
  '2021-03-01,Germany,300,30,9,1',
  '2021-03-01,Japan,40,4,1,0',
  '2021-03-01,Diamond Princess,7,0,0,0',
];

describe("the regions' kept daily sums", () => {
  const bed = cliTestBed('region-days-');
  const file = (name: string, lines: string[]) => {
    const path = join(bed.dir, name);
    writeFileSync(path, `${[HEADER, ...lines].join('\n')}\n`);
    return path;
  };
  const sums = (select: string) =>
    bed.t.dataSource.query<Record<string, unknown>[]>(
      `SELECT region, date, CAST(total_cases AS CHAR) AS tc, CAST(new_cases AS CHAR) AS nc,
         CAST(total_deaths AS CHAR) AS td, CAST(new_deaths AS CHAR) AS nd,
         CAST(countries_reporting AS CHAR) AS n FROM (${select}) s ORDER BY region, date`,
    );
  /** The kept sums and those of the records now, side by side (equal when they agree). */
  const compare = async (step: string) => {
    const kept = await sums(
      `SELECT region, date, total_cases, new_cases + 0 AS new_cases, total_deaths,
         new_deaths + 0 AS new_deaths, countries_reporting FROM covid_region_days
       WHERE countries_reporting > 0`,
    );
    const computed = await sums(
      `SELECT m.region, d.date, SUM(d.total_cases) AS total_cases, SUM(d.new_cases) AS new_cases,
         SUM(d.total_deaths) AS total_deaths, SUM(d.new_deaths) AS new_deaths,
         COUNT(*) AS countries_reporting
       FROM covid_data d JOIN region_members m ON m.country_key = d.country_key
       GROUP BY m.region, d.date`,
    );
    expect([step, kept]).toEqual([step, computed]);
    expect(kept.length).toBeGreaterThan(0);
    // Each country's kept count and dates, as grouping the records gives them.
    const summaries = (select: string) =>
      bed.t.dataSource.query<Record<string, unknown>[]>(
        `SELECT country_key, CAST(records AS CHAR) AS n, CAST(first_date AS CHAR) AS first_date,
           CAST(last_date AS CHAR) AS last_date FROM (${select}) s ORDER BY country_key`,
      );
    const keptSummaries = await summaries(
      'SELECT * FROM covid_country_summaries WHERE records > 0',
    );
    const groupedSummaries = await summaries(
      `SELECT country_key, COUNT(*) AS records, MIN(date) AS first_date, MAX(date) AS last_date
       FROM covid_data GROUP BY country_key`,
    );
    expect([step, keptSummaries]).toEqual([step, groupedSummaries]);
  };
  const write = (method: 'post' | 'put' | 'delete', path: string, body?: object) =>
    bed.t.http[method](path).set(bed.t.auth('bob')).send(body);
  const idOf = async (country: string, date: string) => {
    const res = await bed.t.http
      .get(`/api/covid/data?country=${country}&from=${date}&to=${date}`)
      .set(bed.t.auth());
    return (res.body as { id: number }[])[0].id;
  };

  it('follow every kind of write', async () => {
    expect((await bed.cli('import', 'covid', file('first.csv', FIRST))).code).toBe(0);
    await compare('first load');
    const since = new Date().toISOString();
    const created = await write('post', '/api/covid/data', {
      date: '2021-03-02',
      country: 'Japan',
      total_cases: 45,
      new_cases: 5,
      total_deaths: 1,
      new_deaths: 0,
    });
    expect(created.status).toBe(201);
    await compare('create');
    const chile = await idOf('Chile', '2021-03-02');
    const moved = await write('put', `/api/covid/data/${chile}`, {
      date: '2021-03-03',
      country: 'France',
      total_cases: 600,
      new_cases: 40,
      total_deaths: 22,
      new_deaths: 1,
    });
    expect(moved.status).toBe(200);
    await compare('update moving a record to another continent and date');
    const germany = await idOf('Germany', '2021-03-01');
    expect((await write('delete', `/api/covid/data/${germany}`)).status).toBe(200);
    await compare('delete');
    const bulk = await write('post', '/api/covid/data/bulk', [
      {
        date: '2021-03-01',
        country: 'Japan',
        total_cases: 41,
        new_cases: 5,
        total_deaths: 1,
        new_deaths: 0,
      },
      {
        date: '2021-03-04',
        country: 'Germany',
        total_cases: 320,
        new_cases: 20,
        total_deaths: 9,
        new_deaths: 0,
      },
      {
        date: '2021-03-01',
        country: 'JPN',
        total_cases: 42,
        new_cases: 6,
        total_deaths: 1,
        new_deaths: 0,
      },
    ]);
    expect(bulk.status).toBe(200);
    await compare('bulk naming a key twice');
    // Germany's deleted day left out: the restore below brings it back.
    const revised = FIRST.filter((line) => !line.includes('Germany')).map((line) =>
      line.replace('2021-03-01,France,500,50', '2021-03-01,France,505,55'),
    );
    expect((await bed.cli('import', 'covid', file('first.csv', revised))).code).toBe(0);
    await compare('revised import');
    expect((await bed.cli('restore', 'covid', String(germany))).code).toBe(0);
    await compare('restore of a deleted record');
    expect((await bed.cli('revert', 'covid', '--actor', 'bob', '--since', since)).code).toBe(0);
    await compare('revert');
    const prune = await bed.cli('prune-history', 'covid', '--before', new Date().toISOString());
    expect(prune.code).toBe(0);
    await compare('prune');
  });

  it('answer the series of a region as the records summed as of now do', async () => {
    for (const region of ['World', 'Europe', 'Asia', 'South%20America']) {
      const kept = await bed.t.http.get(`/api/covid/series?country=${region}`).set(bed.t.auth());
      const summed = await bed.t.http
        .get(`/api/covid/series?country=${region}&as_of=${new Date().toISOString()}`)
        .set(bed.t.auth());
      expect([region, kept.status, kept.body]).toEqual([region, 200, summed.body]);
    }
  });

  it('are made again when the regions change, and left alone when they do not', async () => {
    expect(await reconcileRegionMembers(bed.t.dataSource)).toBe(false);
    await bed.t.dataSource.query(`DELETE FROM region_members WHERE country_key = 'france'`);
    await bed.t.dataSource.query(`UPDATE covid_region_days SET total_cases = 0`);
    expect(await reconcileRegionMembers(bed.t.dataSource)).toBe(true);
    await compare('rebuilt');
    const members = await bed.t.dataSource.query<unknown[]>(
      `SELECT region FROM region_members WHERE country_key = 'france' ORDER BY region`,
    );
    expect(members).toEqual([
      { region: 'Europe' },
      { region: 'European Region' },
      { region: 'European Union' },
      { region: 'World' },
    ]);
  });
});
