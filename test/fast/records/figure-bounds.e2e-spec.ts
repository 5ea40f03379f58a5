/*
 * Every figure has a bound (10^12 in magnitude; totals from 0) on every write path, so that every
 * sum the API answers is exact: a double holds every integer below 2^53 (decision 0044).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTestBed } from '../../support/cli-test-bed';
import { DISEASE_KEYS, recordBody } from '../../support/fixtures';
import { regionNamed } from '@app/countries';

/** The bound as documented (docs/api.md), not read from the code it checks. */
const MAX = 1_000_000_000_000;
const OVER = (field: string) =>
  field.startsWith('total_')
    ? `${field} : doit être un entier de 0 à ${MAX}`
    : `${field} : doit être un nombre de -${MAX} à ${MAX}`;
const invalid = (...details: string[]) => ({ error: 'Données invalides.', details });

describe.each(DISEASE_KEYS)('the bounds of the figures (%s)', (key) => {
  const bed = cliTestBed('figure-bounds-');
  const data = `/api/${key}/data`;

  it.each([
    ['new_cases', 1.7e308],
    ['new_cases', -1.7e308],
    ['new_cases', Number.MAX_SAFE_INTEGER],
    ['new_deaths', MAX + 1],
    ['new_deaths', -(MAX + 0.5)],
    ['total_cases', MAX + 1],
    ['total_deaths', Number.MAX_SAFE_INTEGER],
  ])('refuses %s = %p with 400 naming the field, on POST, PUT and bulk', async (field, value) => {
    const { t } = bed;
    const posted = await t.http
      .post(data)
      .set(t.auth())
      .send(recordBody({ country: 'Bounds', [field]: value }));
    expect(posted.status).toBe(400);
    expect(posted.body).toEqual(invalid(OVER(field)));

    const created = await t.http
      .post(data)
      .set(t.auth())
      .send(recordBody({ country: 'Bounds', date: '2021-01-01' }));
    const put = await t.http
      .put(`${data}/${created.body.id}`)
      .set(t.auth())
      .send(recordBody({ country: 'Bounds', date: '2021-01-01', [field]: value }));
    expect(put.status).toBe(400);
    expect(put.body).toEqual(invalid(OVER(field)));
    await t.http.delete(`${data}/${created.body.id}`).set(t.auth()).expect(200);

    const bulk = await t.http
      .post(`${data}/bulk`)
      .set(t.auth())
      .send([recordBody({ country: 'Bounds' }), recordBody({ country: 'Bounds', [field]: value })]);
    expect(bulk.status).toBe(400);
    expect(bulk.body).toEqual(invalid(`[1] ${OVER(field)}`));
    const list = await t.http.get(data).query({ country: 'Bounds' }).set(t.auth());
    expect(list.body).toEqual([]);
  });

  it('refuses an import row over the bound as an invalid row, with its line number', async () => {
    const file = join(bed.dir, `${key}-huge.csv`);
    writeFileSync(
      file,
      'date,country,total_cases,new_cases,total_deaths,new_deaths\n' +
        '2021-01-01,Bounds,1,1,0,0\n' +
        '2021-01-02,Bounds,2,1.7e308,0,0\n' +
        `2021-01-03,Bounds,3,1,0,-${MAX + 1}\n` +
        `2021-01-04,Bounds,${MAX + 1},1,0,0\n`,
    );
    const result = await bed.cli('import', key, file);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `line 3: ${OVER('new_cases')}\n` +
        `line 4: ${OVER('new_deaths')}\n` +
        `line 5: ${OVER('total_cases')}\n` +
        'error: 3 invalid row(s) (see their line numbers above); nothing was imported\n',
    );
  });

  it('takes figures at the bound, and sums them exactly', async () => {
    const { t } = bed;
    const days = ['2021-06-01', '2021-06-02'];
    for (const date of days) {
      const res = await t.http.post(data).set(t.auth()).send({
        date,
        country: 'Edge',
        total_cases: MAX,
        new_cases: MAX,
        total_deaths: MAX,
        new_deaths: -MAX,
      });
      expect(res.status).toBe(201);
    }
    const stats = await t.http.get(`/api/${key}/stats`).query({ country: 'Edge' }).set(t.auth());
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ new_cases_7d: 2 * MAX, new_deaths_7d: -2 * MAX });
    const weekly = await t.http.get(`/api/${key}/public/country/Edge/weekly`);
    expect(weekly.status).toBe(200);
    expect(weekly.body).toMatchObject({ new_cases: [2 * MAX], new_deaths: [-2 * MAX] });
  });

  it("sums every country's figures at the bound exactly into the world's weekly answer", async () => {
    const { t } = bed;
    // The world's weekly answer sums the countries of the regions' list (decision 0036).
    const countries = regionNamed('World')!.members;
    const records = countries.map((member) => ({
      date: '2021-07-01',
      country: member.name,
      total_cases: MAX,
      new_cases: MAX,
      total_deaths: MAX,
      new_deaths: 0,
    }));
    const bulk = await t.http.post(`${data}/bulk`).set(t.auth()).send(records);
    expect(bulk.status).toBe(200);
    const world = await t.http.get(`/api/${key}/public/weekly`);
    expect(world.status).toBe(200);
    const body = world.body as Record<string, number[]> & { weeks: string[] };
    const week = body.weeks.indexOf('2021-07-04');
    expect(countries.length).toBeGreaterThan(200);
    expect(body.total_cases[week]).toBe(countries.length * MAX);
    expect(body.new_cases[week]).toBe(countries.length * MAX);
  });

  it('averages the days after a huge one exactly once it has left the window', async () => {
    const { t } = bed;
    // Stored before the bound existed: only SQL can write it now.
    await t.dataSource.query(
      `INSERT INTO ${key}_data (date, country, country_key, total_cases, new_cases, total_deaths, new_deaths)
       VALUES ('2021-08-01', 'Legacy', 'legacy', 0, ${Number.MAX_SAFE_INTEGER}, 0, 0)`,
    );
    const ones = Array.from({ length: 10 }, (_, i) =>
      recordBody({
        country: 'Legacy',
        date: `2021-08-${String(i + 2).padStart(2, '0')}`,
        new_cases: 1,
      }),
    );
    expect((await t.http.post(`${data}/bulk`).set(t.auth()).send(ones)).status).toBe(200);

    const series = await t.http
      .get(`/api/${key}/series`)
      .query({ country: 'Legacy', metrics: 'new_cases_smoothed' })
      .set(t.auth());
    expect(series.status).toBe(200);
    const row = (day: number, smoothed: unknown) => ({
      date: `2021-08-${String(day).padStart(2, '0')}`,
      country: 'Legacy',
      iso_code: null,
      new_cases_smoothed: smoothed,
    });
    // 08-07's window (08-01 to 08-07) holds the huge day; from 08-08 on, only ones.
    expect(series.body).toEqual([
      ...[1, 2, 3, 4, 5, 6].map((day) => row(day, null)),
      row(7, expect.any(Number)),
      ...[8, 9, 10, 11].map((day) => row(day, 1)),
    ]);
  });
});
