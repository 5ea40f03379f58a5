/**
 * The TypeScript client (clients/typescript) against the built API loaded with the clients'
 * fixtures: typed pages followed through `Link` and `next`, retries after 429 and 503, one error
 * type. Tests of routes still to come (the live API answers 404, or its document lacks `lag`)
 * pass with a note until the route lands, then check it.
 */
import { readFileSync } from 'node:fs';
import { ApiError, CovidApiClient, retryDelayMs } from '@covid-mpox/client';
import { CLIENT_FIXTURES, ClientTestApi, startClientTestApi } from '../../support/client-test-api';
import { TEST_DB_TYPE } from '../../support/test-database';

/** The store the fixtures leave: the revised file's rows, countries under their stored names. */
function storedRows() {
  const [, ...lines] = readFileSync(CLIENT_FIXTURES[1], 'utf8').trim().split('\n');
  return lines.map((line) => {
    const cells = line.split(',');
    const figures = cells.slice(-4).map(Number);
    const country = cells.slice(1, -4).join(',').replace(/"/g, '');
    return {
      date: cells[0],
      country: country === 'Korea, South' ? 'South Korea' : country,
      total_cases: figures[0],
      new_cases: figures[1],
      total_deaths: figures[2],
      new_deaths: figures[3],
    };
  });
}
const STORED = 'total_cases,new_cases,total_deaths,new_deaths';

describe(`the TypeScript client against the built API (${TEST_DB_TYPE})`, () => {
  let api: ClientTestApi;
  let client: CovidApiClient;
  const stored = storedRows();
  beforeAll(async () => {
    api = await startClientTestApi();
    client = new CovidApiClient({ url: api.url, token: api.token });
  }, 180_000);
  afterAll(() => api?.close());

  const routeExists = async (path: string) =>
    (await fetch(`${api.url}${path}`, { headers: { Authorization: `Bearer ${api.token}` } }))
      .status !== 404;

  it("reads France's series whole, as the file has it", async () => {
    const rows = await client.series('covid', { country: 'France', metrics: STORED }).all();
    expect(
      rows.map(({ date, country, total_cases, new_cases, total_deaths, new_deaths }) => ({
        date,
        country,
        total_cases,
        new_cases,
        total_deaths,
        new_deaths,
      })),
    ).toEqual(stored.filter((r) => r.country === 'France'));
    expect(rows.find((r) => r.date === '2021-01-10')?.flags).toEqual(['negative_new_cases']);
  });

  it('follows Link from page to page through every place', async () => {
    const pages: number[] = [];
    for await (const page of client.series('covid', { metrics: STORED, limit: 7 }).pages()) {
      pages.push(page.length);
    }
    expect(pages).toEqual([...Array<number>(11).fill(7), 3]);
    const rows = await client.series('covid', { metrics: STORED, limit: 7 }).all();
    const key = (r: { country: string; date: string }) => `${r.country} ${r.date}`;
    expect(rows.map(key).sort()).toEqual(stored.map(key).sort());

    const records = [];
    for await (const record of client.data('covid', { limit: 30 })) records.push(record);
    expect(records).toHaveLength(stored.length);
    expect(records.map((r) => r.date)).toEqual(
      records
        .map((r) => r.date)
        .sort()
        .reverse(),
    );
  });

  it("follows the feeds' next cursors", async () => {
    const corrections = await client.corrections('covid', { limit: 2 }).all();
    expect(corrections.map((c) => `${c.country} ${c.field}`).sort()).toEqual([
      'France new_cases',
      'France total_cases',
      'Germany total_deaths',
      'Namibia new_cases',
      'Namibia total_cases',
    ]);
    const changes = await client.changes('covid', { limit: 25 }).all();
    expect(changes).toHaveLength(stored.length + 3);
  });

  it("keeps Namibia's code NA in the regions and the population table", async () => {
    const africa = (await client.regions()).find((r) => r.name === 'Africa');
    expect(africa?.countries.find((c) => c.country === 'Namibia')?.iso2).toBe('NA');
    const namibia = (await client.population()).find((r) => r.country === 'Namibia');
    expect(namibia).toMatchObject({ iso2: 'NA', year: 2020, population: 2540916 });
  });

  it('throws one error type with the status and the message', async () => {
    const stranger = new CovidApiClient({ url: api.url, token: 'not-a-token' });
    await expect(stranger.data('covid').all()).rejects.toMatchObject({
      status: 401,
      apiMessage: 'Jeton invalide.',
    });
    const refused = await client
      .series('covid', { country: 'France', metrics: 'cases' })
      .all()
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, details: [expect.stringMatching(/^metrics/)] });
    const nowhere = new CovidApiClient({ url: 'http://127.0.0.1:9/api', retries: 0 });
    await expect(nowhere.regions()).rejects.toMatchObject({ status: null });
  });

  it('asks again after a 429 or a 503, waiting Retry-After, a bounded number of times', async () => {
    const answers = [429, 503];
    const seen: string[] = [];
    const flaky = new CovidApiClient({
      url: api.url,
      token: api.token,
      fetch: (request) => {
        seen.push(request.url);
        const status = answers.shift();
        return status
          ? Promise.resolve(new Response('{}', { status, headers: { 'Retry-After': '0' } }))
          : fetch(request);
      },
    });
    expect(await flaky.population()).not.toHaveLength(0);
    expect(seen).toHaveLength(3);

    // A long Retry-After waits no longer than maxWaitMs.
    const answered = [429];
    const patient = new CovidApiClient({
      url: api.url,
      maxWaitMs: 20,
      fetch: (request) => {
        const status = answered.shift();
        return status
          ? Promise.resolve(new Response('{}', { status, headers: { 'Retry-After': '3600' } }))
          : fetch(request);
      },
    });
    const started = Date.now();
    expect(await patient.regions()).not.toHaveLength(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(retryDelayMs('2')).toBe(2_000);
    expect(retryDelayMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.UTC(2026, 0, 1))).toBe(10_000);

    let calls = 0;
    const down = new CovidApiClient({
      url: api.url,
      retries: 2,
      fetch: () => {
        calls++;
        const body = JSON.stringify({ error: 'Service indisponible.' });
        return Promise.resolve(
          new Response(body, { status: 503, headers: { 'Retry-After': '0' } }),
        );
      },
    });
    await expect(down.regions()).rejects.toMatchObject({
      status: 503,
      apiMessage: 'Service indisponible.',
    });
    expect(calls).toBe(3);
  });

  it('lists one row per version of each figure (once /vintages exists)', async () => {
    if (!(await routeExists('/covid/vintages?limit=1'))) {
      console.warn('GET /api/covid/vintages answers 404: the route is still to come; not checked');
      return;
    }
    const versions = await client.vintages('covid', { limit: 50 }).all();
    expect(versions).toHaveLength(stored.length * 4 + 5);
    const france = await client
      .vintages('covid', { country: 'France', from: '2021-01-05', to: '2021-01-05' })
      .all();
    const totals = france.filter((v) => v.field === 'total_cases').map((v) => v.value);
    expect(totals).toEqual([1254, 1264]);
  });

  it('reads the series as it stood lag days after each date (once lag exists)', async () => {
    const doc = (await (await fetch(`${api.url}/docs-json`)).json()) as {
      paths: Record<string, { get: { parameters?: { name: string }[] } }>;
    };
    const declared = doc.paths['/api/covid/series'].get.parameters ?? [];
    if (!declared.some((p) => p.name === 'lag')) {
      console.warn('/api/covid/series does not declare lag yet: still to come; not checked');
      return;
    }
    expect(await client.series('covid', { country: 'France', lag: 0 }).all()).toEqual([]);
    const later = await client.series('covid', { country: 'France', lag: 3650 }).all();
    expect(later).toEqual(await client.series('covid', { country: 'France' }).all());
  });
});
