import { addDays } from '@app/common';
import { TEST_ORIGIN, seedWriter } from '../../support/fixtures';
import { COVID_DISEASE, MPOX_DISEASE, RecordValues, RecordWriter } from '@app/diseases';
import { RECORD_KEYS, DISEASE_KEYS } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';

type Row = Record<string, unknown>;

/** Daily records of one country: `days` records ending at `last`, totals growing by day. */
function series(country: string, last: string, days: number, base = 0): RecordValues[] {
  return Array.from({ length: days }, (_, i) => ({
    date: addDays(last, i - days + 1),
    country,
    total_cases: base + (i + 1) * 10,
    new_cases: 10,
    total_deaths: base + i + 1,
    new_deaths: 1,
  }));
}

describe.each(DISEASE_KEYS)('%s reads', (key) => {
  let t: TestApp;
  let repository: RecordWriter;
  beforeAll(async () => {
    // Seeded straight through the repository (like another instance would write): no read cache,
    // which test/fast/caching/public-cache.e2e-spec.ts covers.
    t = await bootTestApp({ CACHE_TTL_MS: '0' });
    repository = seedWriter(t.dataSource, key === 'covid' ? COVID_DISEASE : MPOX_DISEASE);
  });
  afterAll(() => t.close());

  describe('on an empty store', () => {
    it('lists nothing and totals zeros', async () => {
      expect((await t.http.get(`/api/${key}/data`).set(t.auth())).body).toEqual([]);
      expect((await t.http.get(`/api/${key}/countries`).set(t.auth())).body).toEqual([]);
      const stats = await t.http.get('/api/stats/summary').set(t.auth());
      expect(stats.body).toEqual({
        covid: { total_cases: 0, total_deaths: 0 },
        mpox: { total_cases: 0, total_deaths: 0 },
      });
      if (key === 'covid') {
        expect((await t.http.get('/api/covid/public/latest')).body).toEqual([]);
        expect((await t.http.get('/api/covid/public/totals')).body).toEqual({
          total_cases: 0,
          total_deaths: 0,
        });
      } else {
        expect((await t.http.get('/api/mpox/public/summary')).body).toEqual({
          total_cases: 0,
          total_deaths: 0,
          countries: 0,
          last_date: null,
          top_countries: [],
        });
      }
    });
  });

  describe('with data', () => {
    beforeAll(async () => {
      await repository.upsertMany(
        [
          ...series('France', '2021-06-30', 40),
          ...series('Korea, South', '2021-06-15', 5, 1000),
          ...series('Zambia', '2021-06-30', 1, 5),
          {
            date: '2021-06-28',
            country: 'Peru',
            total_cases: 0,
            new_cases: 0,
            total_deaths: 0,
            new_deaths: 0,
          },
        ],
        TEST_ORIGIN,
      );
    });

    async function list(query = ''): Promise<Row[]> {
      const res = await t.http.get(`/api/${key}/data${query}`).set(t.auth());
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      return res.body as Row[];
    }

    it('lists by date then id, descending, 100 by default, each record with its seven fields', async () => {
      const all = await list('?limit=1000');
      expect(all).toHaveLength(47);
      all.forEach((row) => expect(Object.keys(row)).toEqual(RECORD_KEYS));
      const sorted = [...all].sort(
        (a, b) => String(b.date).localeCompare(String(a.date)) || Number(b.id) - Number(a.id),
      );
      expect(all).toEqual(sorted);
      expect(all[0]).toEqual({
        id: expect.any(Number),
        date: '2021-06-30',
        country: 'Zambia',
        total_cases: 15,
        new_cases: 10,
        total_deaths: 6,
        new_deaths: 1,
      });
      expect(await list()).toHaveLength(47);
    });

    it('filters by country (trimmed, any case), dates (inclusive), limit and offset', async () => {
      const all = await list('?limit=1000');
      const france = all.filter((r) => r.country === 'France');
      expect(await list('?country=%20fRANCE%20&limit=1000')).toEqual(france);
      expect(await list('?country=France&from=2021-06-01&to=2021-06-10')).toEqual(
        france.filter((r) => String(r.date) >= '2021-06-01' && String(r.date) <= '2021-06-10'),
      );
      expect(await list('?limit=5&offset=3')).toEqual(all.slice(3, 8));
      expect(await list('?offset=100')).toEqual([]);
      expect(await list('?country=Atlantis')).toEqual([]);
      // Years before 100 are years (Date.UTC would read 0001 as 1901).
      expect(await list('?from=0001-01-01&limit=1000')).toEqual(all);
      expect(await list('?from=0000-02-29&to=0099-12-31')).toEqual([]);
      expect(await list('?limit=10&_=1700000000000')).toEqual(all.slice(0, 10));
    });

    it.each([
      ['limit=abc', 'limit : doit être un entier strictement positif'],
      ['limit=0', 'limit : doit être un entier strictement positif'],
      ['limit=1.5', 'limit : doit être un entier strictement positif'],
      ['limit=-3', 'limit : doit être un entier strictement positif'],
      ['limit=99999999999999999999', 'limit : doit être un entier strictement positif'],
      ['limit=1&limit=2', 'limit : doit être un entier strictement positif'],
      ['offset=-1', 'offset : doit être un entier positif ou nul'],
      ['from=2021-13-01', "from : 2021-13-01 n'est pas une date du calendrier"],
      ['from=0001-02-29', "from : 0001-02-29 n'est pas une date du calendrier"],
      ['to=1900-02-29', "to : 1900-02-29 n'est pas une date du calendrier"],
      ['to=yesterday', 'to : doit être une date au format AAAA-MM-JJ'],
      ['country=', 'country : doit contenir de 1 à 100 caractères'],
      ['from=2021-06-10&to=2021-06-01', 'from : doit être antérieure ou égale à to'],
    ])('refuses ?%s (400), the same way each time', async (query, detail) => {
      // Validated query strings are remembered (ValidationPipe): the second answer comes from there.
      for (let i = 0; i < 2; i++) {
        const res = await t.http.get(`/api/${key}/data?${query}`).set(t.auth());
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'Paramètres de requête invalides.', details: [detail] });
      }
    });

    it('lists countries by name with their record counts and dates', async () => {
      const res = await t.http.get(`/api/${key}/countries`).set(t.auth());
      expect(res.status).toBe(200);
      // `Korea, South` was written under its canonical name; each place with its ISO codes.
      const place = (
        country: string,
        iso2: string,
        iso3: string,
        records: number,
        dates: string,
      ) => {
        const [first_date, last_date] = dates.split(' ');
        return { country, iso2, iso3, records, first_date, last_date };
      };
      expect(res.body).toEqual([
        place('France', 'FR', 'FRA', 40, '2021-05-22 2021-06-30'),
        place('Peru', 'PE', 'PER', 1, '2021-06-28 2021-06-28'),
        place('South Korea', 'KR', 'KOR', 5, '2021-06-11 2021-06-15'),
        place('Zambia', 'ZM', 'ZMB', 1, '2021-06-30 2021-06-30'),
      ]);
      expect(Object.keys(res.body[0])).toEqual([
        'country',
        'iso2',
        'iso3',
        'records',
        'first_date',
        'last_date',
      ]);
    });

    it('gives the statistics of one country', async () => {
      const res = await t.http.get(`/api/${key}/stats?country=korea,%20south`).set(t.auth());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        country: 'South Korea',
        records: 5,
        first_date: '2021-06-11',
        last_date: '2021-06-15',
        total_cases: 1050,
        total_deaths: 1005,
        new_cases_7d: 50,
        new_deaths_7d: 5,
        case_fatality_rate: 1005 / 1050,
      });
      const france = await t.http.get(`/api/${key}/stats?country=France`).set(t.auth());
      expect(france.body).toMatchObject({
        total_cases: 400,
        total_deaths: 40,
        new_cases_7d: 70,
        new_deaths_7d: 7,
      });
      const peru = await t.http.get(`/api/${key}/stats?country=Peru`).set(t.auth());
      expect(peru.body).toMatchObject({ total_cases: 0, case_fatality_rate: null });
    });

    it('answers 400 for stats without a country and 404 for an unknown one', async () => {
      const missing = await t.http.get(`/api/${key}/stats`).set(t.auth());
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        error: 'Paramètres de requête invalides.',
        details: ['country : champ obligatoire'],
      });
      const unknown = await t.http.get(`/api/${key}/stats?country=Atlantis`).set(t.auth());
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'Pays introuvable.' });
    });

    it("totals sum each country's most recent record, whatever its date", async () => {
      const expected = { total_cases: 400 + 1050 + 15 + 0, total_deaths: 40 + 1005 + 6 + 0 };
      const summary = await t.http.get('/api/stats/summary').set(t.auth());
      expect(summary.body[key]).toEqual(expected);
      if (key === 'covid') {
        expect((await t.http.get('/api/covid/public/totals')).body).toEqual(expected);
      } else {
        const res = await t.http.get('/api/mpox/public/summary');
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          ...expected,
          countries: 4,
          last_date: '2021-06-30',
          top_countries: [
            { country: 'South Korea', date: '2021-06-15', total_cases: 1050, total_deaths: 1005 },
            { country: 'France', date: '2021-06-30', total_cases: 400, total_deaths: 40 },
            { country: 'Zambia', date: '2021-06-30', total_cases: 15, total_deaths: 6 },
            { country: 'Peru', date: '2021-06-28', total_cases: 0, total_deaths: 0 },
          ],
        });
      }
    });

    if (key === 'covid') {
      it('public latest: the 10 most recent records, by date then id descending', async () => {
        const res = await t.http.get('/api/covid/public/latest');
        expect(res.status).toBe(200);
        expect(res.body).toEqual(await list('?limit=10'));
        expect(res.body).toHaveLength(10);
        expect((res.body as Row[]).slice(0, 2).map((r) => r.country)).toEqual(['Zambia', 'France']);
      });

      it("public country: the 30 days ending at that country's last record, newest first", async () => {
        const res = await t.http.get('/api/covid/public/country/%20FRANCE%20');
        expect(res.status).toBe(200);
        expect(res.body).toHaveLength(30);
        expect(res.body[0]).toMatchObject({
          date: '2021-06-30',
          country: 'France',
          total_cases: 400,
        });
        expect(res.body[29]).toMatchObject({ date: '2021-06-01' });
        const korea = await t.http.get('/api/covid/public/country/Korea%2C%20South');
        expect((korea.body as Row[]).map((r) => r.date)).toEqual([
          '2021-06-15',
          '2021-06-14',
          '2021-06-13',
          '2021-06-12',
          '2021-06-11',
        ]);
      });

      it('public country: 404 for an unknown country, 400 for an invalid name', async () => {
        const res = await t.http.get('/api/covid/public/country/Atlantis');
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'Pays introuvable.' });
        const invalid = await t.http.get(`/api/covid/public/country/${'x'.repeat(101)}`);
        expect(invalid.status).toBe(400);
        expect(invalid.body).toEqual({
          error: 'Paramètre de chemin invalide.',
          details: ['country : doit contenir de 1 à 100 caractères'],
        });
      });
    }
  });
});

describe('unknown URLs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it.each(['/index.html', '/api', '/api/covid', '/api/covid/public/nope', '/nothing/here'])(
    'GET %s answers 404 JSON',
    async (path) => {
      const res = await t.http.get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({ error: 'Ressource introuvable.' });
    },
  );

  it('answers 404 JSON for a method a route does not have', async () => {
    const res = await t.http.patch('/api/covid/data/1').set(t.auth()).send({});
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Ressource introuvable.' });
  });
});
