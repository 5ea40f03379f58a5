import { addDays } from '@app/common';
import { COVID_SERIES, LIST_PAGE_SIZE, RecordValues, SeriesRepository } from '@app/series';
import { TestApp, bootTestApp } from './support/test-app';

type Row = { id: number; date: string; country: string };

const COUNTRIES = ['Alpha', 'Beta', 'Gamma'];
const DAYS = 4200; // 12,600 records: more than two pages of LIST_PAGE_SIZE

describe('large lists are streamed page by page', () => {
  let t: TestApp;
  let expected: Row[];
  beforeAll(async () => {
    t = await bootTestApp();
    const records: RecordValues[] = [];
    for (let day = 0; day < DAYS; day++) {
      for (const country of COUNTRIES) {
        records.push({
          date: addDays('2000-01-01', day),
          country,
          total_cases: day,
          new_cases: 1,
          total_deaths: 0,
          new_deaths: 0,
        });
      }
    }
    await new SeriesRepository(t.dataSource, COVID_SERIES).upsertMany(records);
    const ids = await t.dataSource.query<{ id: number; date: string; country: string }[]>(
      'SELECT id, date, country FROM covid_data',
    );
    expected = ids
      .map((r) => ({ id: Number(r.id), date: String(r.date), country: r.country }))
      .sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id);
  });
  afterAll(() => t.close());

  const pick = (rows: Row[]) => rows.map(({ id, date, country }) => ({ id, date, country }));

  it('answers limit=100000000 with every record, in order, as chunked JSON', async () => {
    expect(expected.length).toBeGreaterThan(2 * LIST_PAGE_SIZE);
    const res = await t.http.get('/api/covid/data?limit=100000000').set(t.auth());
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(pick(res.body as Row[])).toEqual(expected);
  });

  it('stops exactly at a limit that falls inside a page, after an offset', async () => {
    const res = await t.http
      .get(`/api/covid/data?limit=${LIST_PAGE_SIZE + 7}&offset=3`)
      .set(t.auth());
    expect(res.status).toBe(200);
    expect(pick(res.body as Row[])).toEqual(expected.slice(3, 3 + LIST_PAGE_SIZE + 7));
  });

  it('streams one country with a date range', async () => {
    const res = await t.http
      .get('/api/covid/data?country=beta&from=2001-01-01&limit=100000000')
      .set(t.auth());
    expect(pick(res.body as Row[])).toEqual(
      expected.filter((r) => r.country === 'Beta' && r.date >= '2001-01-01'),
    );
  });
});
