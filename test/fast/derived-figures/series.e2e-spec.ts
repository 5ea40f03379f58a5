import { MESSAGES } from '@app/common';
import { TestApp, bootTestApp } from '../../support/test-app';

const record = (date: string, country: string, total: number, fresh: number) => ({
  date,
  country,
  total_cases: total,
  new_cases: fresh,
  total_deaths: Math.floor(total / 10),
  new_deaths: Math.floor(fresh / 10),
});

/** `days` consecutive days from 2023-03-01 with new cases `fresh(i)`. */
function run(country: string, days: number, fresh: (i: number) => number, start = '2023-03-01') {
  let total = 0;
  const base = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => {
    total += fresh(i);
    const date = new Date(base + i * 86_400_000).toISOString().slice(0, 10);
    return record(date, country, total, fresh(i));
  });
}

describe('derived series (/<key>/series)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
    await t.dataSource.query(
      `INSERT INTO population (iso3, year, country, population, source) VALUES
       ('FRA', 2020, 'France', 2000000, 'test'), ('FRA', 2023, 'France', 4000000, 'test'),
       ('PER', 2020, 'Peru', 1000000, 'test'), ('DEU', 2020, 'Germany', 1000000, 'test')`,
    );
    const covid = [
      ...run('France', 10, (i) => (i === 8 ? -7 : 10 * (i + 1))),
      ...run('Peru', 3, () => 5),
      ...run('Germany', 2, () => 1, '2023-03-02'),
      record('2023-03-01', 'Diamond Princess', 3, 3),
    ];
    expect((await t.http.post('/api/covid/data/bulk').set(t.auth()).send(covid)).status).toBe(200);
  });
  afterAll(() => t.close());

  it("answers a country's days with OWID's metrics, rounded to 3 decimals", async () => {
    const response = await t.http
      .get('/api/covid/series?country=fra&from=2023-03-07&to=2023-03-09')
      .set(t.auth('reader'));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    // 7-day average of 03-07: (10+20+...+70)/7 = 40; of 03-09 (a -7 day): (30+40+...+80-7)/7.
    expect(response.body).toEqual([
      {
        date: '2023-03-07',
        country: 'France',
        iso_code: 'FRA',
        total_cases: 280,
        new_cases: 70,
        total_deaths: 28,
        new_deaths: 7,
        new_cases_smoothed: 40,
        new_deaths_smoothed: 4,
        total_cases_per_million: 70,
        new_cases_per_million: 17.5,
        new_cases_smoothed_per_million: 10,
        total_deaths_per_million: 7,
        new_deaths_per_million: 1.75,
        new_deaths_smoothed_per_million: 1,
      },
      expect.objectContaining({ date: '2023-03-08', new_cases: 80, new_cases_smoothed: 50 }),
      expect.objectContaining({
        date: '2023-03-09',
        new_cases: -7,
        new_cases_smoothed: 46.143,
        new_cases_per_million: -1.75,
      }),
    ]);
  });

  it('keeps averages null until 7 calendar days have records, and takes the chosen metrics', async () => {
    const response = await t.http
      .get('/api/covid/series?country=France&metrics=new_cases_smoothed,new_cases&to=2023-03-02')
      .set(t.auth());
    expect(response.body).toEqual([
      {
        date: '2023-03-01',
        country: 'France',
        iso_code: 'FRA',
        new_cases_smoothed: null,
        new_cases: 10,
      },
      {
        date: '2023-03-02',
        country: 'France',
        iso_code: 'FRA',
        new_cases_smoothed: null,
        new_cases: 20,
      },
    ]);
  });

  it("sums a region's members per date and counts those reporting", async () => {
    const response = await t.http
      .get(
        '/api/covid/series?country=europe&metrics=new_cases,total_cases_per_million&to=2023-03-02',
      )
      .set(t.auth());
    expect(response.status).toBe(200);
    // Europe: France and Germany reported on 03-02; its population: 2023's nearest rows, 4e6 + 1e6.
    expect(response.body).toEqual([
      {
        date: '2023-03-01',
        country: 'Europe',
        iso_code: 'OWID_EUR',
        countries_reporting: 1,
        new_cases: 10,
        total_cases_per_million: 2,
      },
      {
        date: '2023-03-02',
        country: 'Europe',
        iso_code: 'OWID_EUR',
        countries_reporting: 2,
        new_cases: 21,
        total_cases_per_million: 6.2,
      },
    ]);
  });

  it('sums ISO weeks: new_* summed, totals and averages of the last day', async () => {
    const response = await t.http
      .get(
        '/api/covid/series?country=France&period=week&metrics=new_cases,total_cases,new_cases_smoothed',
      )
      .set(t.auth());
    // 2023-03-05 is a Sunday.
    expect(response.body).toEqual([
      {
        date: '2023-03-05',
        country: 'France',
        iso_code: 'FRA',
        new_cases: 150,
        total_cases: 150,
        new_cases_smoothed: null,
      },
      // 60+70+80-7+100; the average of 03-10: (40+50+60+70+80-7+100)/7.
      {
        date: '2023-03-12',
        country: 'France',
        iso_code: 'FRA',
        new_cases: 303,
        total_cases: 453,
        new_cases_smoothed: 56.143,
        // The union of the week's days' flags (docs/corrections.md).
        flags: ['negative_new_cases', 'negative_new_deaths'],
      },
    ]);
  });

  it('lists every place by place then date in cursor pages', async () => {
    const first = await t.http
      .get('/api/covid/series?metrics=new_cases&limit=2&from=2023-03-01&to=2023-03-02')
      .set(t.auth());
    expect(first.status).toBe(200);
    expect(first.body).toEqual([
      { date: '2023-03-01', country: 'Diamond Princess', iso_code: null, new_cases: 3 },
      { date: '2023-03-01', country: 'France', iso_code: 'FRA', new_cases: 10 },
    ]);
    const link = /<([^>]+)>; rel="next"/.exec(first.headers.link)![1];
    expect(link).toMatch(
      /^\/api\/covid\/series\?from=2023-03-01&to=2023-03-02&metrics=new_cases&limit=2&after=/,
    );
    const second = await t.http.get(link).set(t.auth());
    expect(second.body).toEqual([
      { date: '2023-03-02', country: 'France', iso_code: 'FRA', new_cases: 20 },
      { date: '2023-03-02', country: 'Germany', iso_code: 'DEU', new_cases: 1 },
    ]);
    const third = await t.http.get(/<([^>]+)>/.exec(second.headers.link)![1]).set(t.auth());
    expect(third.body).toEqual([
      { date: '2023-03-01', country: 'Peru', iso_code: 'PER', new_cases: 5 },
      { date: '2023-03-02', country: 'Peru', iso_code: 'PER', new_cases: 5 },
    ]);
    expect(third.headers.link).toBeUndefined();
  });

  it('streams every place as CSV', async () => {
    const response = await t.http
      .get('/api/covid/series?metrics=new_cases,new_cases_smoothed&format=csv&limit=100000')
      .set(t.auth());
    expect(response.status).toBe(200);
    const lines = response.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,country,iso_code,new_cases,new_cases_smoothed,flags');
    expect(lines).toHaveLength(1 + 1 + 10 + 2 + 3);
    expect(lines[1]).toBe('2023-03-01,Diamond Princess,,3,,');
  });

  it("gives each row OWID's iso_code: alpha-3 for a country, OWID_ for a region", async () => {
    const codes = async (country: string, format = 'json') => {
      const res = await t.http
        .get(
          `/api/covid/series?country=${encodeURIComponent(country)}&metrics=new_cases&format=${format}`,
        )
        .set(t.auth());
      expect(res.status).toBe(200);
      return format === 'csv'
        ? res.text.trimEnd().split('\r\n')
        : [...new Set((res.body as { iso_code: string | null }[]).map((row) => row.iso_code))];
    };
    expect(await codes('fr')).toEqual(['FRA']);
    expect(await codes('World')).toEqual(['OWID_WRL']);
    expect(await codes('europe')).toEqual(['OWID_EUR']);
    expect(await codes('Diamond Princess')).toEqual([null]);
    expect((await codes('World', 'csv')).slice(0, 2)).toEqual([
      'date,country,iso_code,countries_reporting,new_cases,flags',
      '2023-03-01,World,OWID_WRL,2,15,',
    ]);
  });

  it.each([
    ['metrics=new_cases,cases_per_capita', 'metrics : indicateur inconnu : cases_per_capita'],
    ['period=month', 'period : doit valoir day ou week'],
    ['from=2023-03-05&to=2023-03-01', 'from : doit être antérieure ou égale à to'],
    ['country=Atlantis', expect.stringMatching(/^country : n'est ni un pays, ni une région/)],
    ['after=nope', 'after : doit être un curseur reçu dans l\'en-tête Link (rel="next")'],
  ])('answers 400 naming the parameter: %s', async (query, detail) => {
    const response = await t.http.get(`/api/covid/series?${query}`).set(t.auth());
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: MESSAGES.invalidQuery, details: [detail] });
  });

  it('computes an as_of series from the figures as they stood then; ETag and 304 as /data', async () => {
    const url = '/api/covid/series?country=Peru&metrics=new_cases,total_cases';
    const before = await t.http.get(url).set(t.auth());
    expect(before.headers.etag).toMatch(/^"/);
    const again = await t.http.get(url).set(t.auth()).set('If-None-Match', before.headers.etag);
    expect(again.status).toBe(304);
    const instant = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const peru = await t.http.get('/api/covid/data?country=Peru&from=2023-03-03').set(t.auth());
    const written = await t.http
      .put(`/api/covid/data/${peru.body[0].id}`)
      .set(t.auth())
      .send(record('2023-03-03', 'Peru', 110, 100));
    expect(written.status).toBe(200);
    expect((await t.http.get(url).set(t.auth())).body[2]).toEqual({
      date: '2023-03-03',
      country: 'Peru',
      iso_code: 'PER',
      new_cases: 100,
      total_cases: 110,
      flags: ['corrected'],
    });
    const then = await t.http.get(`${url}&as_of=${instant}`).set(t.auth());
    expect(then.status).toBe(200);
    expect(then.body[2]).toEqual({
      date: '2023-03-03',
      country: 'Peru',
      iso_code: 'PER',
      new_cases: 5,
      total_cases: 15,
    });
  });

  it("follows every write in a region's sums (kept on SQLite until the next write)", async () => {
    const url = '/api/covid/series?country=Europe&metrics=new_cases&from=2023-03-02&to=2023-03-02';
    const before = await t.http.get(url).set(t.auth());
    expect(before.body).toEqual([
      {
        date: '2023-03-02',
        country: 'Europe',
        iso_code: 'OWID_EUR',
        countries_reporting: 2,
        new_cases: 21,
      },
    ]);
    const germany = await t.http
      .get('/api/covid/data?country=Germany&from=2023-03-02&to=2023-03-02')
      .set(t.auth());
    const written = await t.http
      .put(`/api/covid/data/${germany.body[0].id}`)
      .set(t.auth())
      .send(record('2023-03-02', 'Germany', 1001, 1001));
    expect(written.status).toBe(200);
    // A member's day corrected: the region's day is (docs/corrections.md).
    const flags = ['corrected'];
    expect((await t.http.get(url).set(t.auth())).body).toEqual([
      {
        date: '2023-03-02',
        country: 'Europe',
        iso_code: 'OWID_EUR',
        countries_reporting: 2,
        new_cases: 1021,
        flags,
      },
    ]);
    const removed = await t.http.delete(`/api/covid/data/${germany.body[0].id}`).set(t.auth());
    expect(removed.status).toBe(200);
    expect((await t.http.get(url).set(t.auth())).body).toEqual([
      {
        date: '2023-03-02',
        country: 'Europe',
        iso_code: 'OWID_EUR',
        countries_reporting: 1,
        new_cases: 20,
        flags,
      },
    ]);
  });

  it('needs the read scope of the disease', async () => {
    expect((await t.http.get('/api/mpox/series')).status).toBe(401);
  });
});
