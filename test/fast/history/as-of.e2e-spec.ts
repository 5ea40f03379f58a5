/**
 * Reads as of an instant (`as_of`): `/data` and the public country route answer as they would
 * have then, from the history (records deleted since reappear, later ones are absent, values as
 * they were); a date alone is the end of that day (UTC); an invalid or future instant is a 400
 * naming `as_of`; the in-memory caches keep such answers apart from the live ones.
 */
import { MESSAGES } from '@app/common';
import { RevisionAsOf1765100000000 } from '@app/database/migrations/1765100000000-revision-as-of';
import { DISEASE_KEYS, instantBetweenWrites, recordBody } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';

const NOT_AN_INSTANT =
  'as_of : doit être une date AAAA-MM-JJ ou une date-heure ISO 8601 avec fuseau (2026-11-26T10:00:00Z)';
const IN_THE_FUTURE = 'as_of : ne doit pas être dans le futur';

const q = (value: string) => encodeURIComponent(value);

describe.each(DISEASE_KEYS)('%s data as of an instant', (key) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  const create = async (overrides: Record<string, unknown>): Promise<number> => {
    const res = await t.http.post(`/api/${key}/data`).set(t.auth()).send(recordBody(overrides));
    expect(res.status).toBe(201);
    return (res.body as { id: number }).id;
  };
  const get = (url: string) => t.http.get(url).set(t.auth('reader'));

  const A1 = { country: 'Chile', date: '2021-05-01', total_cases: 10 };
  const A2 = { ...A1, total_cases: 12 };
  const B = { country: 'Chile', date: '2021-05-02', total_cases: 20 };
  const C = { country: 'Chile', date: '2021-05-03', total_cases: 30 };
  let a: number;
  let b: number;
  let c: number;
  const at: Record<'before' | 'created' | 'updated' | 'deleted' | 'recreated', string> = {
    before: '',
    created: '',
    updated: '',
    deleted: '',
    recreated: '',
  };
  const rec = (id: number, values: Record<string, unknown>) => ({ id, ...recordBody(values) });

  beforeAll(async () => {
    at.before = await instantBetweenWrites();
    a = await create(A1);
    b = await create(B);
    at.created = await instantBetweenWrites();
    expect(
      (await t.http.put(`/api/${key}/data/${a}`).set(t.auth()).send(recordBody(A2))).status,
    ).toBe(200);
    at.updated = await instantBetweenWrites();
    expect((await t.http.delete(`/api/${key}/data/${b}`).set(t.auth())).status).toBe(200);
    at.deleted = await instantBetweenWrites();
    c = await create(C);
    at.recreated = await instantBetweenWrites();
  });

  const list = async (asOf: string, extra = '') => {
    const res = await get(`/api/${key}/data?country=chile&as_of=${q(asOf)}${extra}`);
    return { status: res.status, body: res.body as unknown };
  };

  it('answers the records as they were before and after a create, an update and a delete', async () => {
    expect(await list(at.before)).toEqual({ status: 200, body: [] });
    expect(await list(at.created)).toEqual({ status: 200, body: [rec(b, B), rec(a, A1)] });
    expect(await list(at.updated)).toEqual({ status: 200, body: [rec(b, B), rec(a, A2)] });
    // The deleted record is gone from then on; the later one is absent before its creation.
    expect(await list(at.deleted)).toEqual({ status: 200, body: [rec(a, A2)] });
    expect(await list(at.recreated)).toEqual({ status: 200, body: [rec(c, C), rec(a, A2)] });
    const live = await get(`/api/${key}/data?country=chile`);
    expect(live.body).toEqual([rec(c, C), rec(a, A2)]);
  });

  it('keeps from, to, limit and offset, and the other formats', async () => {
    expect(await list(at.updated, '&from=2021-05-02')).toEqual({ status: 200, body: [rec(b, B)] });
    expect(await list(at.updated, '&to=2021-05-01')).toEqual({ status: 200, body: [rec(a, A2)] });
    expect(await list(at.updated, '&offset=1')).toEqual({ status: 200, body: [rec(a, A2)] });
    const csv = await get(`/api/${key}/data?country=Chile&as_of=${q(at.updated)}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.text).toBe(
      'id,date,country,total_cases,new_cases,total_deaths,new_deaths\r\n' +
        `${b},2021-05-02,Chile,20,20000,86000,250\r\n` +
        `${a},2021-05-01,Chile,12,20000,86000,250\r\n`,
    );
    const ndjson = await get(`/api/${key}/data?country=Chile&as_of=${q(at.created)}&format=ndjson`);
    expect(ndjson.text).toBe(`${JSON.stringify(rec(b, B))}\n${JSON.stringify(rec(a, A1))}\n`);
  });

  it('carries as_of in the Link of each page, so that the next page is as of the same instant', async () => {
    const first = await get(`/api/${key}/data?country=Chile&limit=1&as_of=${q(at.updated)}`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual([rec(b, B)]);
    const after = Buffer.from(`2021-05-02,${b}`).toString('base64url');
    expect(first.headers.link).toBe(
      `</api/${key}/data?country=Chile&limit=1&as_of=${q(at.updated)}&after=${after}>; rel="next"`,
    );
    const [, nextUrl] = /<([^>]+)>/.exec(String(first.headers.link)) ?? [];
    const next = await get(nextUrl);
    expect(next.status).toBe(200);
    expect(next.body).toEqual([rec(a, A2)]);
    expect(next.headers.link).toBeUndefined();
  });

  it('streams a large list as of an instant, and ends a long page where its Link says', async () => {
    const days = Array.from({ length: 700 }, (_, i) =>
      recordBody({
        country: 'Alpha',
        date: new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10),
        total_cases: i,
      }),
    );
    const bulk = await t.http.post(`/api/${key}/data/bulk`).set(t.auth()).send(days);
    expect(bulk.status).toBe(200);
    const whole = (await get(`/api/${key}/data?country=Alpha&limit=100000000`)).body as {
      id: number;
      date: string;
    }[];
    expect(whole).toHaveLength(700);
    const then = await instantBetweenWrites();
    expect((await t.http.delete(`/api/${key}/data/${whole[10].id}`).set(t.auth())).status).toBe(
      200,
    );
    const dump = await get(`/api/${key}/data?country=Alpha&limit=100000000&as_of=${q(then)}`);
    expect(dump.status).toBe(200);
    expect(dump.body).toEqual(whole);
    expect(dump.headers.link).toBeUndefined();
    const page = await get(`/api/${key}/data?country=Alpha&limit=600&as_of=${q(then)}`);
    expect(page.body).toEqual(whole.slice(0, 600));
    const after = Buffer.from(`${whole[599].date},${whole[599].id}`).toString('base64url');
    expect(page.headers.link).toBe(
      `</api/${key}/data?country=Alpha&limit=600&as_of=${q(then)}&after=${after}>; rel="next"`,
    );
  });

  it('is kept apart from the live answer, never served for it nor it for the live one', async () => {
    const url = `/api/${key}/data?country=Chile`;
    expect((await get(url)).body).toEqual([rec(c, C), rec(a, A2)]);
    expect(await list(at.created)).toEqual({ status: 200, body: [rec(b, B), rec(a, A1)] });
    expect((await get(url)).body).toEqual([rec(c, C), rec(a, A2)]);
    const res = await get(`${url}&as_of=${q(at.created)}`);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.etag).toEqual(expect.any(String));
  });

  it('refuses an invalid or future as_of with a 400 naming it', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const cases = [
      ['yesterday', NOT_AN_INSTANT],
      ['2021-02-30', NOT_AN_INSTANT],
      ['2021-05-01T10:00:00', NOT_AN_INSTANT],
      ['2021-05-01T25:00:00Z', NOT_AN_INSTANT],
      ['2021-05-01 10:00:00Z', NOT_AN_INSTANT],
      [new Date(Date.now() + 60_000).toISOString(), IN_THE_FUTURE],
      [tomorrow, IN_THE_FUTURE],
    ];
    for (const [value, detail] of cases) {
      const res = await get(`/api/${key}/data?as_of=${q(value)}`);
      expect({ value, status: res.status, body: res.body as unknown }).toEqual({
        value,
        status: 400,
        body: { error: MESSAGES.invalidQuery, details: [detail] },
      });
    }
  });

  it('reads a date alone as the end of that day, UTC', async () => {
    const id = await create({ country: 'Peru', date: '2021-06-01', total_cases: 1 });
    // Stamped at the last millisecond of a past day: in that day's answer, not the day before's.
    await t.dataSource.query(`UPDATE ${key}_revisions SET at = ? WHERE record_id = ?`, [
      Date.parse('2026-01-10T23:59:59.999Z'),
      id,
    ]);
    const peru = (asOf: string) => get(`/api/${key}/data?country=Peru&as_of=${asOf}`);
    expect((await peru('2026-01-10')).body).toEqual([
      rec(id, { country: 'Peru', date: '2021-06-01', total_cases: 1 }),
    ]);
    expect((await peru('2026-01-09')).body).toEqual([]);
    expect((await peru('2026-01-10T23:59:59.998Z')).body).toEqual([]);
    expect((await peru(q('2026-01-11T00:59:59.999+01:00'))).body).toHaveLength(1);
  });

  it('keeps in a deletion revision the values the record had; its history still shows none', async () => {
    const rows = await t.dataSource.query<Record<string, unknown>[]>(
      `SELECT kind, date, country, country_key, total_cases FROM ${key}_revisions
       WHERE record_id = ? ORDER BY id`,
      [b],
    );
    expect(
      rows.map((r) => ({ ...r, date: String(r.date), total_cases: Number(r.total_cases) })),
    ).toEqual([
      {
        kind: 'create',
        date: '2021-05-02',
        country: 'Chile',
        country_key: 'chile',
        total_cases: 20,
      },
      {
        kind: 'delete',
        date: '2021-05-02',
        country: 'Chile',
        country_key: 'chile',
        total_cases: 20,
      },
    ]);
    const history = await get(`/api/${key}/data/${b}/history`);
    expect((history.body as { record: unknown }[]).map((r) => r.record)).toEqual([rec(b, B), null]);
  });
});

describe('the public country route as of an instant', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('answers the window as it was, 404 before the country had records, apart from the live one', async () => {
    const before = await instantBetweenWrites();
    const created = await t.http
      .post('/api/covid/data')
      .set(t.auth())
      .send(recordBody({ country: 'Chile', date: '2021-05-01', total_cases: 10 }));
    const id = (created.body as { id: number }).id;
    const first = await instantBetweenWrites();
    await t.http
      .put(`/api/covid/data/${id}`)
      .set(t.auth())
      .send(recordBody({ country: 'Chile', date: '2021-05-01', total_cases: 11 }));
    const record = (total_cases: number) => ({
      id,
      ...recordBody({ country: 'Chile', date: '2021-05-01', total_cases }),
    });

    const live = await t.http.get('/api/covid/public/country/Chile');
    expect(live.status).toBe(200);
    expect(live.body).toEqual([record(11)]);
    const then = await t.http.get(`/api/covid/public/country/chile?as_of=${q(first)}`);
    expect({ status: then.status, body: then.body as unknown }).toEqual({
      status: 200,
      body: [record(10)],
    });
    // A recent instant may still gain revisions: the live answer's caching.
    expect(then.headers['cache-control']).toBe(live.headers['cache-control']);
    expect((await t.http.get('/api/covid/public/country/Chile')).body).toEqual([record(11)]);
    const csv = await t.http.get(`/api/covid/public/country/Chile?as_of=${q(first)}&format=csv`);
    expect(csv.text).toBe(
      'id,date,country,total_cases,new_cases,total_deaths,new_deaths\r\n' +
        `${id},2021-05-01,Chile,10,20000,86000,250\r\n`,
    );

    const none = await t.http.get(`/api/covid/public/country/Chile?as_of=${q(before)}`);
    expect({ status: none.status, body: none.body as unknown }).toEqual({
      status: 404,
      body: { error: MESSAGES.countryNotFound },
    });
    const future = await t.http.get(
      `/api/covid/public/country/Chile?as_of=${q(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect({ status: future.status, body: future.body as unknown }).toEqual({
      status: 400,
      body: { error: MESSAGES.invalidQuery, details: [IN_THE_FUTURE] },
    });
    const invalid = await t.http.get('/api/covid/public/country/Chile?as_of=soon');
    expect({ status: invalid.status, body: invalid.body as unknown }).toEqual({
      status: 400,
      body: { error: MESSAGES.invalidQuery, details: [NOT_AN_INSTANT] },
    });
  });

  it('lets shared caches keep an answer as of a settled instant for a day', async () => {
    const res = await t.http.get('/api/covid/public/country/Chile?as_of=2026-01-10');
    expect(res.status).toBe(404);
    await t.http
      .post('/api/covid/data')
      .set(t.auth())
      .send(recordBody({ country: 'Peru', date: '2021-06-01', total_cases: 1 }));
    await t.dataSource.query(`UPDATE covid_revisions SET at = ? WHERE country_key = 'peru'`, [
      Date.parse('2026-01-10T12:00:00Z'),
    ]);
    const settled = await t.http.get('/api/covid/public/country/Peru?as_of=2026-01-10');
    expect(settled.status).toBe(200);
    expect(settled.headers['cache-control']).toBe('public, max-age=86400, immutable');
    expect(settled.headers.etag).toEqual(expect.any(String));
  });
});

describe('the as_of migration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('gives deletions recorded without values those of the revision before', async () => {
    const migration = new RevisionAsOf1765100000000();
    const runner = t.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      const insert = `INSERT INTO covid_revisions (record_id, at, actor, kind, date, country,
        country_key, total_cases, new_cases, total_deaths, new_deaths) VALUES (?, ?, 'test', ?, ?, ?, ?, ?, ?, ?, ?)`;
      await runner.query(insert, [77, 1, 'create', '2021-01-01', 'Chile', 'chile', 1, 1, 0, 0]);
      await runner.query(insert, [77, 2, 'update', '2021-01-02', 'Chile', 'chile', 2, 1, 0, 0]);
      await runner.query(insert, [77, 3, 'delete', null, null, null, null, null, null, null]);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const rows = await t.dataSource.query<Record<string, unknown>[]>(
      `SELECT kind, date, country, country_key, total_cases FROM covid_revisions
       WHERE record_id = 77 ORDER BY id`,
    );
    expect(
      rows.map((r) => [r.kind, String(r.date), r.country, r.country_key, Number(r.total_cases)]),
    ).toEqual([
      ['create', '2021-01-01', 'Chile', 'chile', 1],
      ['update', '2021-01-02', 'Chile', 'chile', 2],
      ['delete', '2021-01-02', 'Chile', 'chile', 2],
    ]);
  });
});
