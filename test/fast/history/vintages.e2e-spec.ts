/**
 * Every version of every figure (docs/vintages.md): `GET /<key>/vintages` lists each stored
 * figure's versions with the moment the service stored them and their lag; `/series?lag=N` gives
 * each figure as it stood N days after its date, and agrees with `as_of` where it should.
 *
 * The history is written through the API as a scheduled sync would have written it: each day's
 * figures the evening of that day, then a revision of one day's cases and a deletion later on.
 * Each write's moment is then set to that day (the commit and its revisions), as if it ran then.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MESSAGES } from '@app/common';
import { cliTestBed } from '../../support/cli-test-bed';
import { TOKENS, TestApp, bootTestApp } from '../../support/test-app';

type Row = readonly [string, string, number, number, number, number];

/** Chile, 2021-03-01 to 03-08, and Peru on 03-01: the first file. */
const FIRST: readonly Row[] = [
  ['2021-03-01', 'Chile', 100, 10, 10, 1],
  ['2021-03-02', 'Chile', 110, 10, 11, 1],
  ['2021-03-03', 'Chile', 120, 10, 12, 1],
  ['2021-03-04', 'Chile', 115, -5, 12, 0],
  ['2021-03-05', 'Chile', 125, 10, 13, 1],
  ['2021-03-06', 'Chile', 135, 10, 13, 0],
  ['2021-03-07', 'Chile', 145, 10, 13, 1],
  ['2021-03-08', 'Chile', 155, 10, 14, 1],
  ['2021-03-01', 'Peru', 50, 5, 1, 0],
];

const record = (row: Row) => ({
  date: row[0],
  country: row[1],
  total_cases: row[2],
  new_cases: row[3],
  total_deaths: row[4],
  new_deaths: row[5],
});

/** When each write is said to have happened. */
const REVISED_AT = '2021-03-20T12:00:00.000Z';
const DELETED_AT = '2021-03-25T08:00:00.000Z';
const evening = (date: string) => `${date}T20:00:00.000Z`;

interface Vintage {
  date: string;
  country: string;
  iso_code: string | null;
  field: string;
  value: number | null;
  issued_at: string;
  lag: number;
}
interface Page {
  vintages: Vintage[];
  next: string | null;
}

describe('vintages', () => {
  let t: TestApp;
  const auth = { Authorization: `Bearer ${TOKENS.alice}` };
  const get = (path: string, token: string | null = TOKENS.reader) => {
    const req = t.http.get(path);
    return token === null ? req : req.set('Authorization', `Bearer ${token}`);
  };
  const page = async (query: string): Promise<Page> => {
    const res = await get(`/api/covid/vintages${query}`);
    expect([query, res.status]).toEqual([query, 200]);
    return res.body as Page;
  };
  /** Gives the last write (its commit and revisions) the moment `iso`. */
  const backdate = async (iso: string) => {
    const at = Date.parse(iso);
    const [last] = await t.dataSource.query<{ seq: number | string }[]>(
      'SELECT MAX(seq) AS seq FROM covid_revision_commits',
    );
    const seq = Number(last.seq);
    // Change set keys pass 2^53: matched in SQL, never read into JavaScript.
    const ofCommit = '(SELECT change_set FROM covid_revision_commits WHERE seq = ?)';
    await t.dataSource.query(`UPDATE covid_revisions SET at = ? WHERE change_set = ${ofCommit}`, [
      at,
      seq,
    ]);
    // And what the write kept of its corrections, which flag the days as of an instant.
    await t.dataSource.query(`UPDATE covid_corrections SET at = ? WHERE change_set = ${ofCommit}`, [
      at,
      seq,
    ]);
    await t.dataSource.query('UPDATE covid_corrected_days SET first_at = ? WHERE first_at > ?', [
      at,
      Date.parse('2025-01-01'),
    ]);
    await t.dataSource.query('UPDATE covid_revision_commits SET at = ? WHERE seq = ?', [at, seq]);
  };
  const bulk = async (rows: readonly Row[], at: string) => {
    const res = await t.http.post('/api/covid/data/bulk').set(auth).send(rows.map(record));
    expect(res.status).toBe(200);
    await backdate(at);
  };
  const idOf = async (country: string, date: string) => {
    const res = await get(`/api/covid/data?country=${country}&from=${date}&to=${date}`);
    return (res.body as { id: number }[])[0].id;
  };
  const series = async (query: string) => {
    const res = await get(`/api/covid/series?country=Chile&metrics=total_cases,new_cases${query}`);
    expect([query, res.status]).toEqual([query, 200]);
    return res.body as { date: string; total_cases: number; new_cases: number }[];
  };

  beforeAll(async () => {
    // Moments are set in the database behind the API's back: nothing may be answered from memory.
    t = await bootTestApp({ CACHE_TTL_MS: '0' });
    const dates = [...new Set(FIRST.map((row) => row[0]))];
    for (const date of dates) {
      await bulk(
        FIRST.filter((row) => row[0] === date),
        evening(date),
      );
    }
    // The whole file again with Chile's 2021-03-02 cases revised (110 -> 112, 10 -> 12).
    await bulk(
      FIRST.map((row) =>
        row[0] === '2021-03-02' && row[1] === 'Chile'
          ? (['2021-03-02', 'Chile', 112, 12, 11, 1] as const)
          : row,
      ),
      REVISED_AT,
    );
    const peru = await idOf('Peru', '2021-03-01');
    expect((await t.http.delete(`/api/covid/data/${peru}`).set(auth)).status).toBe(200);
    await backdate(DELETED_AT);
  });
  afterAll(() => t.close());

  it('lists both versions of a revised figure and one of the others, with issued_at and lag', async () => {
    expect(await page('?country=chile&from=2021-03-02&to=2021-03-02')).toEqual({
      vintages: [
        {
          date: '2021-03-02',
          country: 'Chile',
          iso_code: 'CHL',
          field: 'total_cases',
          value: 110,
          issued_at: '2021-03-02T20:00:00.000Z',
          lag: 0,
        },
        {
          date: '2021-03-02',
          country: 'Chile',
          iso_code: 'CHL',
          field: 'total_cases',
          value: 112,
          issued_at: REVISED_AT,
          lag: 18,
        },
        {
          date: '2021-03-02',
          country: 'Chile',
          iso_code: 'CHL',
          field: 'new_cases',
          value: 10,
          issued_at: '2021-03-02T20:00:00.000Z',
          lag: 0,
        },
        {
          date: '2021-03-02',
          country: 'Chile',
          iso_code: 'CHL',
          field: 'new_cases',
          value: 12,
          issued_at: REVISED_AT,
          lag: 18,
        },
        {
          date: '2021-03-02',
          country: 'Chile',
          iso_code: 'CHL',
          field: 'total_deaths',
          value: 11,
          issued_at: '2021-03-02T20:00:00.000Z',
          lag: 0,
        },
        {
          date: '2021-03-02',
          country: 'Chile',
          iso_code: 'CHL',
          field: 'new_deaths',
          value: 1,
          issued_at: '2021-03-02T20:00:00.000Z',
          lag: 0,
        },
      ],
      next: null,
    });
  });

  it('lists every place by place, date, figure then issue, a deletion as null', async () => {
    const all = await page('');
    // 9 records of 4 figures, 2 revised figures, Peru's 4 figures deleted.
    expect(all.vintages).toHaveLength(42);
    expect(all.next).toBeNull();
    const keys = all.vintages.map((v) => `${v.country} ${v.date} ${v.field} ${v.issued_at}`);
    expect([...keys].sort()).not.toEqual(keys); // fields keep the records' order, not the alphabet's
    const places = all.vintages.map((v) => `${v.country} ${v.date}`);
    expect(places).toEqual([...places].sort());
    expect(all.vintages.slice(-8)).toEqual(
      ['total_cases', 'new_cases', 'total_deaths', 'new_deaths'].flatMap((field, i) => [
        {
          date: '2021-03-01',
          country: 'Peru',
          iso_code: 'PER',
          field,
          value: [50, 5, 1, 0][i],
          issued_at: '2021-03-01T20:00:00.000Z',
          lag: 0,
        },
        {
          date: '2021-03-01',
          country: 'Peru',
          iso_code: 'PER',
          field,
          value: null,
          issued_at: DELETED_AT,
          lag: 24,
        },
      ]),
    );
    // Filters: figures, and the moment issued.
    const revised = await page(`?fields=total_cases&issued_since=2021-03-15`);
    expect(revised.vintages.map((v) => [v.country, v.date, v.field, v.value])).toEqual([
      ['Chile', '2021-03-02', 'total_cases', 112],
      ['Peru', '2021-03-01', 'total_cases', null],
    ]);
    const before = await page(`?fields=new_deaths,total_deaths&issued_until=2021-03-02`);
    expect(before.vintages.map((v) => [v.country, v.date, v.field])).toEqual([
      ['Chile', '2021-03-01', 'total_deaths'],
      ['Chile', '2021-03-01', 'new_deaths'],
      ['Peru', '2021-03-01', 'total_deaths'],
      ['Peru', '2021-03-01', 'new_deaths'],
    ]);
  });

  it('pages with a cursor, in every format, the Link header naming the next page', async () => {
    const all = (await page('')).vintages;
    const pages: Vintage[] = [];
    let after = '';
    for (let i = 0; i < 20; i++) {
      const res = await get(`/api/covid/vintages?limit=5${after}`);
      expect(res.status).toBe(200);
      const body = res.body as Page;
      pages.push(...body.vintages);
      if (body.next === null) {
        expect(res.headers.link).toBeUndefined();
        break;
      }
      expect(body.vintages).toHaveLength(5);
      expect(res.headers.link).toBe(`</api/covid/vintages?limit=5&after=${body.next}>; rel="next"`);
      after = `&after=${body.next}`;
    }
    expect(pages).toEqual(all);

    const csv = await get('/api/covid/vintages?country=Peru&format=csv&limit=2');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="covid-vintages.csv"');
    expect(csv.text).toBe(
      'date,country,iso_code,field,value,issued_at,lag\r\n' +
        '2021-03-01,Peru,PER,total_cases,50,2021-03-01T20:00:00.000Z,0\r\n' +
        '2021-03-01,Peru,PER,total_cases,,2021-03-25T08:00:00.000Z,24\r\n',
    );
    const next = /after=([A-Za-z0-9_-]+)/.exec(String(csv.headers.link))?.[1];
    expect(csv.headers.link).toBe(
      `</api/covid/vintages?country=Peru&limit=2&format=csv&after=${next}>; rel="next"`,
    );
    // A download without `limit` is the whole list (from the cursor when given), with no Link.
    const whole = await get('/api/covid/vintages?format=csv');
    expect(whole.status).toBe(200);
    expect(whole.headers.link).toBeUndefined();
    const lines = whole.text.split('\r\n');
    expect(lines).toHaveLength(1 + all.length + 1);
    expect(lines[1]).toBe('2021-03-01,Chile,CHL,total_cases,100,2021-03-01T20:00:00.000Z,0');
    const ndjson = await get(`/api/covid/vintages?country=Peru&format=ndjson&after=${next}`);
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(
      ndjson.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Vintage),
    ).toEqual(all.filter((v) => v.country === 'Peru').slice(2));
  });

  it('lists a record moved to another date as leaving its date and arriving at the other', async () => {
    const id = await idOf('Chile', '2021-03-08');
    const moved = { ...record(FIRST[7]), date: '2021-03-09' };
    expect((await t.http.put(`/api/covid/data/${id}`).set(auth).send(moved)).status).toBe(200);
    await backdate('2021-03-30T00:00:00.000Z');
    const brief = (p: Page) => p.vintages.map((v) => [v.date, v.field, v.value, v.lag]);
    expect(brief(await page('?country=Chile&from=2021-03-08&fields=total_cases'))).toEqual([
      ['2021-03-08', 'total_cases', 155, 0],
      ['2021-03-08', 'total_cases', null, 22],
      ['2021-03-09', 'total_cases', 155, 21],
    ]);
    // Put back where it was, for the series below.
    const back = record(FIRST[7]);
    expect((await t.http.put(`/api/covid/data/${id}`).set(auth).send(back)).status).toBe(200);
    await backdate('2021-03-31T00:00:00.000Z');
  });

  it('gives each figure as it stood N days after its date, as as_of does for that instant', async () => {
    const first = FIRST.filter((row) => row[1] === 'Chile').map((row) => ({
      date: row[0],
      country: 'Chile',
      iso_code: 'CHL',
      total_cases: row[2],
      new_cases: row[3],
      ...(row[3] < 0 ? { flags: ['negative_new_cases'] } : {}),
    }));
    // Right after each day's sync: the first file's figures.
    expect(await series('&lag=0')).toEqual(first);
    // 2021-03-02 as it stood 17 days on (before the revision), and 18 days on (after it).
    const on0302 = async (query: string) =>
      (await series(`&from=2021-03-02&to=2021-03-02${query}`))[0];
    expect(await on0302('&lag=17')).toEqual(first[1]);
    expect(await on0302('&lag=18')).toEqual({
      ...first[1],
      total_cases: 112,
      new_cases: 12,
      flags: ['corrected'],
    });
    expect(await on0302('&as_of=2021-03-19')).toEqual(await on0302('&lag=17'));
    expect(await on0302('&as_of=2021-03-20')).toEqual(await on0302('&lag=18'));
    // A date nothing was issued for by then is absent.
    expect(await series('&lag=0&from=2021-03-09')).toEqual([]);
    // The day moved away and back: absent while it was elsewhere, present again after.
    const on0308 = (lag: number) => series(`&from=2021-03-08&to=2021-03-08&lag=${lag}`);
    expect(await on0308(22)).toEqual([]);
    // Its deletion there counts as a correction, as on /corrections.
    expect(await on0308(23)).toEqual([{ ...first[7], flags: ['corrected'] }]);
    // Derived metrics and weeks from those values; the corrected flag as it stood then.
    const week = await get('/api/covid/series?country=Chile&lag=30&period=week&metrics=new_cases');
    expect(week.status).toBe(200);
    expect(week.body).toEqual([
      {
        date: '2021-03-07',
        country: 'Chile',
        iso_code: 'CHL',
        new_cases: 57,
        flags: ['negative_new_cases', 'corrected'],
      },
      {
        date: '2021-03-14',
        country: 'Chile',
        iso_code: 'CHL',
        new_cases: 10,
        flags: ['corrected'],
      },
    ]);
    const early = await get('/api/covid/series?country=Chile&lag=0&period=week&metrics=new_cases');
    expect(early.body).toEqual([
      {
        date: '2021-03-07',
        country: 'Chile',
        iso_code: 'CHL',
        new_cases: 55,
        flags: ['negative_new_cases'],
      },
      { date: '2021-03-14', country: 'Chile', iso_code: 'CHL', new_cases: 10 },
    ]);
  });

  it('refuses bad input with a 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['/api/covid/vintages?limit=0', 'limit : doit être un entier de 1 à 10000'],
      [
        '/api/covid/vintages?fields=total_cases,cases',
        'fields : doit valoir total_cases, new_cases, total_deaths ou new_deaths',
      ],
      [
        '/api/covid/vintages?after=nope',
        'after : doit être un curseur reçu dans l\'en-tête Link (rel="next")',
      ],
      [
        '/api/covid/vintages?from=2021-03-05&to=2021-03-01',
        'from : doit être antérieure ou égale à to',
      ],
      [
        '/api/covid/vintages?issued_since=2021-03-05&issued_until=2021-03-01',
        'issued_since : doit être antérieure ou égale à issued_until',
      ],
      [
        '/api/covid/vintages?issued_since=yesterday',
        'issued_since : doit être une date AAAA-MM-JJ ou une date-heure ISO 8601 avec fuseau (2026-11-26T10:00:00Z)',
      ],
      ['/api/covid/series?country=Chile&lag=-1', 'lag : doit être un entier de 0 à 3650'],
      ['/api/covid/series?country=Chile&lag=3651', 'lag : doit être un entier de 0 à 3650'],
      ['/api/covid/series?lag=7', 'country : champ obligatoire'],
      [
        '/api/covid/series?country=World&lag=7',
        'lag : ne peut pas être combiné avec country=World',
      ],
      [
        '/api/covid/series?country=Chile&lag=7&as_of=2021-03-20',
        'lag : ne peut pas être combiné avec as_of',
      ],
    ];
    for (const [path, detail] of cases) {
      const res = await get(path);
      expect([path, res.status, res.body]).toEqual([
        path,
        400,
        { error: MESSAGES.invalidQuery, details: [detail] },
      ]);
    }
    expect((await get('/api/covid/vintages', null)).status).toBe(401);
    expect((await get('/api/mpox/vintages')).body).toEqual({ vintages: [], next: null });
  });
});

describe('vintages of imports', () => {
  const bed = cliTestBed('vintages-');
  const HEADER = 'date,country,total_cases,new_cases,total_deaths,new_deaths';
  const lines = FIRST.map((row) => row.join(','));
  /** The copy with 2 of its `total_cases` revised (one higher). */
  const REVISED = lines.map((line) =>
    /^2021-03-0[36],Chile,/.test(line)
      ? line.replace(
          /^(\d{4}-\d\d-\d\d,Chile,)(\d+)/,
          (_, head: string, n: string) => `${head}${Number(n) + 1}`,
        )
      : line,
  );
  const file = (name: string, rows: string[]) => {
    const path = join(bed.dir, name);
    writeFileSync(path, `${[HEADER, ...rows].join('\n')}\n`);
    return path;
  };
  const get = (path: string) =>
    bed.t.http.get(path).set('Authorization', `Bearer ${TOKENS.reader}`);

  it('lists both versions of each revised figure, one of every other, issued at each import', async () => {
    const before = Date.now();
    expect((await bed.cli('import', 'covid', file('cases.csv', lines))).code).toBe(0);
    const between = Date.now();
    // The whole store as it stood right after the first import, for every date.
    const first = await get('/api/covid/series?country=Chile&lag=3650&metrics=total_cases');
    expect((await bed.cli('import', 'covid', file('cases.csv', REVISED))).code).toBe(0);
    const after = Date.now();

    const res = await get('/api/covid/vintages?fields=total_cases');
    expect(res.status).toBe(200);
    const vintages = (res.body as Page).vintages;
    expect(vintages).toHaveLength(FIRST.length + 2);
    const issued = (v: Vintage) => Date.parse(v.issued_at);
    const revised = vintages.filter((v) => v.date === '2021-03-03' || v.date === '2021-03-06');
    expect(revised.filter((v) => v.country === 'Chile').map((v) => v.value)).toEqual([
      120, 121, 135, 136,
    ]);
    for (const v of vintages) {
      const second = revised.includes(v) && vintages.indexOf(v) % 2 === 1;
      expect(issued(v)).toBeGreaterThanOrEqual(second ? between : before);
      expect(issued(v)).toBeLessThanOrEqual(second ? after : between);
      expect(v.lag).toBe(Math.floor((issued(v) - Date.parse(v.date)) / 86_400_000));
    }
    // The first import's figures still read, now that the second is in, through `as_of`...
    const asOf = new Date(between).toISOString();
    const then = await get(`/api/covid/series?country=Chile&metrics=total_cases&as_of=${asOf}`);
    expect(then.body).toEqual(first.body);
    // ...and the live series is what the lag of ten years sees.
    const live = await get('/api/covid/series?country=Chile&metrics=total_cases');
    const late = await get('/api/covid/series?country=Chile&lag=3650&metrics=total_cases');
    expect(late.body).toEqual(live.body);
    expect(late.body).not.toEqual(first.body);
  });
});
