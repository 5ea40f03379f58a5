import { eventually } from '../../support/cli';
import { SourceServer, fileRoute } from '../../support/source-server';
import { TestApp, bootTestApp } from '../../support/test-app';

const TABLE = 'entity,iso_code,year,population\nFrance,FRA,2020,2000000\nWorld,OWID_WRL,2020,7\n';

describe('scheduled sync of a population table (SYNC_SOURCES=population=<url>)', () => {
  const sources = new SourceServer();
  let t: TestApp;

  beforeAll(async () => {
    sources.routes['/population.csv?sig=SECRET'] = fileRoute(() => ({
      body: TABLE,
      etag: '"p1"',
      modified: 'Mon, 01 Jan 2024 00:00:00 GMT',
    }));
    await sources.start();
    t = await bootTestApp({
      // A signed URL: its signature must not reach any reader.
      SYNC_SOURCES: `population=${sources.url('/population.csv')}?sig=SECRET`,
      SYNC_INTERVAL: '30s',
    });
  });
  afterAll(async () => {
    await t?.close();
    await sources.stop();
  });

  it('loads the table like the other sources, and the per-million figures use it at once', async () => {
    const written = await t.http.post('/api/covid/data').set(t.auth()).send({
      date: '2024-01-01',
      country: 'France',
      total_cases: 10,
      new_cases: 10,
      total_deaths: 0,
      new_deaths: 0,
    });
    expect(written.status).toBe(201);
    // Read (and cached) before the table is there: no population yet.
    const before = await t.http.get('/api/covid/public/country/France/weekly');
    expect(before.body.population).toBeNull();
    const listed = async () =>
      (
        (await t.http.get('/api/sources').set(t.auth())).body as {
          sources: Record<string, unknown>[];
        }
      ).sources;
    expect(
      await eventually(async () => (await listed())[0]?.outcome === 'updated', { attempts: 350 }),
    ).toBe(true);
    expect(await listed()).toEqual([
      expect.objectContaining({
        dataset: 'population',
        url: sources.url('/population.csv'),
        outcome: 'updated',
        rows_inserted: 1,
        rows_skipped: 1,
        last_error: null,
      }),
    ]);
    const population = await t.http.get('/api/population');
    expect(population.text).not.toContain('SECRET');
    expect(population.body).toEqual([
      {
        country: 'France',
        iso3: 'FRA',
        iso2: 'FR',
        year: 2020,
        population: 2000000,
        source: sources.url('/population.csv'),
      },
    ]);
    const after = await t.http.get('/api/covid/public/country/France/weekly');
    expect(after.body).toMatchObject({ population: 2000000, total_cases_per_million: [5] });
  });
});
