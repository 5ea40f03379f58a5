/**
 * Corrections made visible (docs/corrections.md): `GET /<key>/corrections` lists each stored
 * figure that changed after it was first published, with its old and new values and its source;
 * the derived series and the public weekly answer flag the days corrected or negative; a
 * country's public page lists its latest corrections without their source.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTestBed } from '../../support/cli-test-bed';
import { Correction } from '../../support/corrections';
import { DEFAULT_API_TOKENS, TOKENS, TestApp, bootTestApp } from '../../support/test-app';

const HEADER = 'date,country,total_cases,new_cases,total_deaths,new_deaths';
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Chile, a week (Monday 2021-03-01 to Sunday 03-07) and the Monday after; 03-04 negative. */
const FIRST = [
  '2021-03-01,Chile,100,10,10,1',
  '2021-03-02,Chile,110,10,11,1',
  '2021-03-03,Chile,120,10,12,1',
  '2021-03-04,Chile,115,-5,12,0',
  '2021-03-05,Chile,125,10,13,1',
  '2021-03-06,Chile,135,10,13,0',
  '2021-03-07,Chile,145,10,13,-1',
  '2021-03-08,Chile,155,10,14,1',
  '2021-03-01,Peru,50,5,1,0',
];
/** The same file with Chile's 2021-03-02 revised (total and daily cases). */
const REVISED = FIRST.map((line) =>
  line.startsWith('2021-03-02,Chile') ? '2021-03-02,Chile,112,12,11,1' : line,
);

interface Page {
  corrections: Correction[];
  next: string | null;
}

describe('corrections', () => {
  const bed = cliTestBed('corrections-');
  let other: TestApp;
  let start: number;
  let chile0302: number;
  let chile0305: number;

  const file = (name: string, lines: string[]) => {
    const path = join(bed.dir, name);
    writeFileSync(path, `${[HEADER, ...lines].join('\n')}\n`);
    return path;
  };
  const get = (path: string, token: string | null = TOKENS.reader) => {
    const req = bed.t.http.get(path);
    return token === null ? req : req.set('Authorization', `Bearer ${token}`);
  };
  const page = async (query = ''): Promise<Page> => {
    const res = await get(`/api/covid/corrections${query}`);
    expect(res.status).toBe(200);
    return res.body as Page;
  };
  /** Every correction of `query`, `limit` per page, following `next` to the empty page. */
  const readAll = async (query: string, limit: number): Promise<Correction[]> => {
    const all: Correction[] = [];
    let after = '';
    for (;;) {
      const p = await page(`?${query}&limit=${limit}${after}`);
      expect(p.corrections.length).toBeLessThanOrEqual(limit);
      if (p.next === null) {
        expect(p.corrections).toEqual([]);
        return all;
      }
      all.push(...p.corrections);
      after = `&after=${p.next}`;
    }
  };
  const idOf = async (country: string, date: string) => {
    const res = await get(`/api/covid/data?country=${country}&from=${date}&to=${date}`);
    return (res.body as { id: number }[])[0].id;
  };
  /** What the test checks of a correction: all but its time, checked apart. */
  const brief = ({ at, ...rest }: Correction) => {
    expect(at).toMatch(ISO_MS);
    return rest;
  };

  beforeAll(async () => {
    other = await bootTestApp(
      {
        API_TOKENS: `${DEFAULT_API_TOKENS},mpoxonly:mpox-only-token-0123456789:scopes=mpox:read`,
      },
      {},
      bed.t,
    );
  });
  afterAll(() => other.close());

  it('counts no first load and no unchanged re-import as a correction', async () => {
    const first = file('cases.csv', FIRST);
    const imported = await bed.cli('import', 'covid', first);
    expect(imported.code).toBe(0);
    // The summary names corrections only when there are some.
    expect(imported.stdout).not.toContain('corrected');
    const again = await bed.cli('import', 'covid', first);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('corrected');
    expect(await page()).toEqual({ corrections: [], next: null });
    chile0302 = await idOf('Chile', '2021-03-02');
    chile0305 = await idOf('Chile', '2021-03-05');
  });

  it('lists a revised import, an API update, a deletion and a restore, figure by figure', async () => {
    start = Date.now();
    const revised = await bed.cli('import', 'covid', file('cases.csv', REVISED));
    expect(revised.code).toBe(0);
    expect(revised.stdout).toContain('2 figures corrected');
    const sources = await bed.t.http.get('/api/sources').set(bed.t.auth());
    expect(sources.status).toBe(200);
    expect(
      (sources.body as { sources: Record<string, unknown>[] }).sources.map((s) => [
        s.url,
        s.rows_updated,
        s.figures_corrected,
      ]),
    ).toEqual([['cases.csv', 1, 2]]);

    const put = await bed.t.http.put(`/api/covid/data/${chile0302}`).set(bed.t.auth('bob')).send({
      date: '2021-03-02',
      country: 'Chile',
      total_cases: 112,
      new_cases: 12,
      total_deaths: 11,
      new_deaths: 2,
    });
    expect(put.status).toBe(200);
    expect((await bed.t.http.delete(`/api/covid/data/${chile0305}`).set(bed.t.auth())).status).toBe(
      200,
    );
    const restored = await bed.cli('restore', 'covid', String(chile0305));
    expect(restored.code).toBe(0);

    const p = await page();
    expect(p.corrections.map(brief)).toEqual([
      ...[
        ['total_cases', 110, 112],
        ['new_cases', 10, 12],
      ].map(([field, old, value]) => ({
        date: '2021-03-02',
        country: 'Chile',
        field,
        old,
        new: value,
        change: 'update',
        source: 'import:cases.csv',
      })),
      {
        date: '2021-03-02',
        country: 'Chile',
        field: 'new_deaths',
        old: 1,
        new: 2,
        change: 'update',
        source: 'bob',
      },
      ...[
        ['total_cases', 125],
        ['new_cases', 10],
        ['total_deaths', 13],
        ['new_deaths', 1],
      ].map(([field, old]) => ({
        date: '2021-03-05',
        country: 'Chile',
        field,
        old,
        new: null,
        change: 'delete',
        source: 'alice',
      })),
      ...[
        ['total_cases', 125],
        ['new_cases', 10],
        ['total_deaths', 13],
        ['new_deaths', 1],
      ].map(([field, value]) => ({
        date: '2021-03-05',
        country: 'Chile',
        field,
        old: null,
        new: value,
        change: 'restore',
        source: 'restore',
      })),
    ]);
    const times = p.corrections.map((c) => Date.parse(c.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBeGreaterThanOrEqual(start);
  });

  it('pages through cursors, inside a change of several figures too', async () => {
    const whole = (await page()).corrections;
    expect(whole).toHaveLength(11);
    for (const limit of [1, 3, 4]) expect(await readAll('', limit)).toEqual(whole);
    const first = await get('/api/covid/corrections?limit=3&format=csv');
    expect(first.headers.link).toMatch(
      /^<\/api\/covid\/corrections\?limit=3&format=csv&after=[A-Za-z0-9_-]+>; rel="next"$/,
    );
  });

  it('filters by country, figure dates and moment of change', async () => {
    const whole = (await page()).corrections;
    expect((await page('?country=peru')).corrections).toEqual([]);
    expect((await page('?country=CL')).corrections).toEqual(whole);
    expect((await page('?from=2021-03-03')).corrections).toEqual(whole.slice(3));
    expect((await page('?to=2021-03-02')).corrections).toEqual(whole.slice(0, 3));
    const bob = Date.parse(whole[2].at);
    expect((await page(`?since=${new Date(bob).toISOString()}`)).corrections).toEqual(
      whole.slice(2),
    );
    expect((await page(`?until=${new Date(bob).toISOString()}`)).corrections).toEqual(
      whole.slice(0, 2),
    );
    expect(
      (await page(`?since=${new Date(start).toISOString()}&country=Chile`)).corrections,
    ).toEqual(whole);
  });

  it('answers CSV and NDJSON, one correction per row or line', async () => {
    const whole = (await page()).corrections;
    const csv = await get('/api/covid/corrections?format=csv&limit=2');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text).toBe(
      'at,date,country,field,old,new,change,source\r\n' +
        `${whole[0].at},2021-03-02,Chile,total_cases,110,112,update,import:cases.csv\r\n` +
        `${whole[1].at},2021-03-02,Chile,new_cases,10,12,update,import:cases.csv\r\n`,
    );
    const ndjson = await get('/api/covid/corrections?format=ndjson&from=2021-03-05&limit=1');
    expect(ndjson.status).toBe(200);
    expect(ndjson.text).toBe(`${JSON.stringify(whole[3])}\n`);
  });

  it('flags the derived series: negative days, corrected days, CSV joined by |', async () => {
    const json = await get('/api/covid/series?country=Chile&metrics=new_cases');
    expect(json.status).toBe(200);
    expect(json.body).toEqual([
      { date: '2021-03-01', country: 'Chile', iso_code: 'CHL', new_cases: 10 },
      {
        date: '2021-03-02',
        country: 'Chile',
        iso_code: 'CHL',
        new_cases: 12,
        flags: ['corrected'],
      },
      { date: '2021-03-03', country: 'Chile', iso_code: 'CHL', new_cases: 10 },
      {
        date: '2021-03-04',
        country: 'Chile',
        iso_code: 'CHL',
        new_cases: -5,
        flags: ['negative_new_cases'],
      },
      {
        date: '2021-03-05',
        country: 'Chile',
        iso_code: 'CHL',
        new_cases: 10,
        flags: ['corrected'],
      },
      { date: '2021-03-06', country: 'Chile', iso_code: 'CHL', new_cases: 10 },
      {
        date: '2021-03-07',
        country: 'Chile',
        iso_code: 'CHL',
        new_cases: 10,
        flags: ['negative_new_deaths'],
      },
      { date: '2021-03-08', country: 'Chile', iso_code: 'CHL', new_cases: 10 },
    ]);
    const csv = await get(
      '/api/covid/series?country=Chile&metrics=new_cases&period=week&format=csv',
    );
    expect(csv.status).toBe(200);
    expect(csv.text).toBe(
      'date,country,iso_code,new_cases,flags\r\n' +
        '2021-03-07,Chile,CHL,57,negative_new_cases|negative_new_deaths|corrected\r\n' +
        '2021-03-14,Chile,CHL,10,\r\n',
    );
    // As of before the revised import: no correction yet, the negative days as they were.
    const before = await get(
      `/api/covid/series?country=Chile&metrics=new_cases&as_of=${new Date(start - 1).toISOString()}`,
    );
    expect(before.status).toBe(200);
    expect(
      (before.body as { date: string; flags?: string[] }[])
        .filter((row) => row.flags)
        .map((row) => [row.date, row.flags]),
    ).toEqual([
      ['2021-03-04', ['negative_new_cases']],
      ['2021-03-07', ['negative_new_deaths']],
    ]);
    // A region: corrected when a member's day is, negative when its sum is.
    const region = await get(
      '/api/covid/series?country=South%20America&metrics=new_cases&from=2021-03-01&to=2021-03-02',
    );
    expect(region.body).toEqual([
      {
        date: '2021-03-01',
        country: 'South America',
        iso_code: 'OWID_SAM',
        countries_reporting: 2,
        new_cases: 15,
      },
      {
        date: '2021-03-02',
        country: 'South America',
        iso_code: 'OWID_SAM',
        countries_reporting: 1,
        new_cases: 12,
        flags: ['corrected'],
      },
    ]);
  });

  it('flags the weeks of the public weekly answer', async () => {
    const res = await get('/api/covid/public/country/chile/weekly', null);
    expect(res.status).toBe(200);
    const body = res.body as { weeks: string[]; flags: string[][] };
    expect(body.weeks).toEqual(['2021-03-07', '2021-03-14']);
    expect(body.flags).toEqual([['negative_new_cases', 'negative_new_deaths', 'corrected'], []]);
    const peru = await get('/api/covid/public/country/peru/weekly', null);
    expect((peru.body as { flags: string[][] }).flags).toEqual([[]]);
  });

  it("lists a country's latest corrections publicly, without their source", async () => {
    const whole = (await page()).corrections;
    const res = await get('/api/covid/public/country/CHL/corrections?limit=5', null);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toMatch(/^public/);
    // Latest change first (the restore), a change's figures in their order, then the deletion.
    const expected = [...whole.slice(7), whole[3]].map(
      ({ country: _c, source: _s, ...rest }) => rest,
    );
    expect(res.body).toEqual({ country: 'Chile', corrections: expected });
    expect(JSON.stringify(res.body)).not.toContain('alice');
    const all = await get('/api/covid/public/country/chile/corrections', null);
    expect((all.body as { corrections: unknown[] }).corrections).toHaveLength(11);
    const peru = await get('/api/covid/public/country/peru/corrections', null);
    expect(peru.body).toEqual({ country: 'Peru', corrections: [] });
    const unknown = await get('/api/covid/public/country/atlantis/corrections', null);
    const weekly = await get('/api/covid/public/country/atlantis/weekly', null);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(weekly.body);
    const tooMany = await get('/api/covid/public/country/chile/corrections?limit=101', null);
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toContain('limit');
  });

  it('refuses bad input with a 400 naming the parameter, and changes nothing', async () => {
    const cases: [string, string][] = [
      ['after=nonsense', 'after'],
      ['from=2021-03-05&to=2021-03-01', 'from'],
      ['since=2999-01-01', 'since'],
      ['since=2021-03-05&until=2021-03-01', 'since'],
      ['until=yesterday', 'until'],
      ['limit=0', 'limit'],
      ['limit=10001', 'limit'],
      ['format=xml', 'format'],
      ['from=2021-02-30', 'from'],
      [`country=${'x'.repeat(101)}`, 'country'],
    ];
    for (const [query, parameter] of cases) {
      const res = await get(`/api/covid/corrections?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      const details = (res.body as { details: string[] }).details;
      expect([query, details.some((d) => d.startsWith(`${parameter} `))]).toEqual([query, true]);
    }
    expect((await page()).corrections).toHaveLength(11);
  });

  it('needs a token with the read scope of that disease', async () => {
    expect((await get('/api/covid/corrections', null)).status).toBe(401);
    const wrong = await other.http
      .get('/api/covid/corrections')
      .set('Authorization', 'Bearer mpox-only-token-0123456789');
    expect(wrong.status).toBe(403);
    const mpox = await other.http
      .get('/api/mpox/corrections')
      .set('Authorization', 'Bearer mpox-only-token-0123456789');
    expect(mpox.status).toBe(200);
    expect(mpox.body).toEqual({ corrections: [], next: null });
  });
  it('reads a record moved by PUT as leaving its day (a deletion), and coming back as a restore', async () => {
    const peru = await idOf('Peru', '2021-03-01');
    const to = (date: string) =>
      bed.t.http.put(`/api/covid/data/${peru}`).set(bed.t.auth('bob')).send({
        date,
        country: 'Peru',
        total_cases: 50,
        new_cases: 5,
        total_deaths: 1,
        new_deaths: 0,
      });
    expect((await to('2021-03-09')).status).toBe(200);
    const figures = [
      ['total_cases', 50],
      ['new_cases', 5],
      ['total_deaths', 1],
      ['new_deaths', 0],
    ] as const;
    const left = (date: string) =>
      figures.map(([field, old]) => ({
        date,
        country: 'Peru',
        field,
        old,
        new: null,
        change: 'delete',
        source: 'bob',
      }));
    expect((await page('?country=Peru')).corrections.map(brief)).toEqual(left('2021-03-01'));
    // The day it left has no Peruvian record now: its region's day is flagged, as after a DELETE.
    const region = await get(
      '/api/covid/series?country=South%20America&metrics=new_cases&from=2021-03-01&to=2021-03-01',
    );
    expect(region.body).toEqual([
      {
        date: '2021-03-01',
        country: 'South America',
        iso_code: 'OWID_SAM',
        countries_reporting: 1,
        new_cases: 10,
        flags: ['corrected'],
      },
    ]);

    expect((await to('2021-03-01')).status).toBe(200);
    const back = figures.map(([field, value]) => ({
      date: '2021-03-01',
      country: 'Peru',
      field,
      old: null,
      new: value,
      change: 'restore',
      source: 'bob',
    }));
    const expected = [...left('2021-03-01'), ...left('2021-03-09'), ...back];
    expect((await page('?country=Peru')).corrections.map(brief)).toEqual(expected);
    // One revision, two days: the cursor steps through both parts of it.
    for (const limit of [3, 5]) {
      expect((await readAll('country=Peru', limit)).map(brief)).toEqual(expected);
    }
    const series = await get('/api/covid/series?country=Peru&metrics=new_cases');
    expect(series.body).toEqual([
      { date: '2021-03-01', country: 'Peru', iso_code: 'PER', new_cases: 5, flags: ['corrected'] },
    ]);
  });

  it('answers corrections and flags without reading the history', async () => {
    const reads = [
      '/api/covid/corrections',
      '/api/covid/corrections?country=Chile&limit=4',
      '/api/covid/series?country=Chile',
      '/api/covid/series?country=South%20America&period=week',
      '/api/covid/series?limit=5',
      '/api/covid/public/country/chile/weekly',
      '/api/covid/public/country/chile/corrections',
    ];
    const answers = async () => {
      const bodies: unknown[] = [];
      for (const path of reads) {
        const res = await get(path);
        expect([path, res.status]).toEqual([path, 200]);
        bodies.push(res.body);
      }
      return bodies;
    };
    const expected = await answers();
    // A write that changes none of those answers, so that no answer kept in memory serves them.
    const france = await bed.t.http.post('/api/covid/data').set(bed.t.auth()).send({
      date: '2021-03-01',
      country: 'France',
      total_cases: 1,
      new_cases: 1,
      total_deaths: 0,
      new_deaths: 0,
    });
    expect(france.status).toBe(201);
    const rename = (from: string, to: string) =>
      bed.t.dataSource.query(
        bed.t.dataSource.options.type === 'mysql'
          ? `RENAME TABLE ${from} TO ${to}`
          : `ALTER TABLE ${from} RENAME TO ${to}`,
      );
    await rename('covid_revisions', 'covid_revisions_aside');
    try {
      expect(await answers()).toEqual(expected);
    } finally {
      await rename('covid_revisions_aside', 'covid_revisions');
    }
  });
});
