/**
 * `/api/population`'s public `source` column names a table's sources without their secrets, for
 * any URL scheme and any absolute path, cleaned before it is cut to the column; values and
 * `sources.last_error` kept from before are cleaned by a migration.
 */
import { SourceNamesWithoutSecrets1765640000000 } from '@app/database/migrations/1765640000000-source-names-without-secrets';
import { eventually } from '../../support/cli';
import { SourceServer, staticFile } from '../../support/source-server';
import { TestApp, bootTestApp } from '../../support/test-app';

const SIGNATURE = `X-Amz-Signature=${'5ec7e7'.repeat(60)}`;
const SECRETS = ['admin', 'hunter2', 'token', 'X-Amz', '5ec7e7', '/srv'];
/** The `source` cells, and what `/api/population` shows of each. */
const CELLS: [string, string][] = [
  ['ftp://admin:hunter2@ftp.example/pub/p.csv?token=T#x', 'ftp://ftp.example/pub/p.csv'],
  [`s3://bucket/tables/p.csv?${SIGNATURE}`, 's3://bucket/tables/p.csv'],
  ['UN WPP, /srv/imports/2022/p.csv', 'UN WPP, p.csv'],
  [
    `${'UN WPP 2022 '.repeat(14)}(https://admin:hunter2@h.example/p.csv?${SIGNATURE})`,
    `${'UN WPP 2022 '.repeat(14)}(https://h.example/p.csv)`.slice(0, 200),
  ],
];
const COUNTRIES = [
  ['Chile', 'CHL', 'CL'],
  ['France', 'FRA', 'FR'],
  ['Peru', 'PER', 'PE'],
  ['Spain', 'ESP', 'ES'],
];

async function population(t: TestApp): Promise<{ text: string; body: unknown }> {
  const res = await t.http.get('/api/population');
  expect(res.status).toBe(200);
  return res;
}

describe("/api/population's source column", () => {
  const sources = new SourceServer();
  let t: TestApp;

  beforeAll(async () => {
    const rows = COUNTRIES.map(
      ([name, iso3], i) => `${name},${iso3},2020,${1000 + i},"${CELLS[i][0]}"`,
    );
    const header = 'entity,iso_code,year,population,source';
    sources.routes['/population.csv'] = staticFile([header, ...rows].join('\n') + '\n');
    await sources.start();
    t = await bootTestApp({
      SYNC_SOURCES: `population=${sources.url('/population.csv')}`,
      SYNC_INTERVAL: '30s',
    });
  });
  // The server stops even when the app fails to close.
  afterAll(() => t.close().finally(() => sources.stop()));

  it('keeps no credential, query string or folder, for any scheme, cut after', async () => {
    const loaded = async () => ((await population(t)).body as unknown[]).length === 4;
    expect(await eventually(loaded, { attempts: 350 })).toBe(true);
    const res = await population(t);
    for (const secret of SECRETS) expect(res.text).not.toContain(secret);
    const expected = COUNTRIES.map(([country, iso3, iso2], i) => ({
      country,
      iso3,
      iso2,
      year: 2020,
      population: 1000 + i,
      source: CELLS[i][1],
    }));
    // Listed by code.
    expect(res.body).toEqual(expected.sort((a, b) => a.iso3.localeCompare(b.iso3)));
  });

  it('a migration cleans the sources and errors kept from before', async () => {
    const kept = `https://user:pass@h.example/covid.csv?${SIGNATURE}`;
    await t.dataSource.query(`UPDATE population SET source = ? WHERE iso3 = 'CHL'`, [CELLS[0][0]]);
    await t.dataSource.query(`UPDATE population SET source = ? WHERE iso3 = 'FRA'`, [
      CELLS[1][0].slice(0, 200),
    ]);
    await t.dataSource.query(
      `INSERT INTO sources (dataset, url, url_hash, last_attempt_at, outcome, last_error)
       VALUES ('covid', ?, ?, 1, 'failed', ?)`,
      [kept, 'f'.repeat(64), `cannot download ${kept}: refused`.slice(0, 300)],
    );
    const runner = t.dataSource.createQueryRunner();
    try {
      await new SourceNamesWithoutSecrets1765640000000().up(runner);
    } finally {
      await runner.release();
    }
    const stored = await t.dataSource.query<{ iso3: string; source: string }[]>(
      `SELECT iso3, source FROM population ORDER BY iso3`,
    );
    expect(stored.map((row) => [row.iso3, row.source])).toEqual([
      ['CHL', CELLS[0][1]],
      ['ESP', CELLS[3][1]],
      ['FRA', CELLS[1][1]],
      ['PER', CELLS[2][1]],
    ]);
    const errors = await t.dataSource.query<{ last_error: string }[]>(
      `SELECT last_error FROM sources WHERE dataset = 'covid'`,
    );
    // Cut before it was named: the signature's start is gone too.
    expect(errors).toEqual([{ last_error: 'cannot download https://h.example/covid.csv' }]);
    for (const secret of SECRETS) expect((await population(t)).text).not.toContain(secret);
  });
});
