/**
 * A population table's rows hold a whole number of people above 0, in plain digits, of a year
 * from 1800 to next year: any other row refuses the table, naming its line, and nothing of it is
 * written.
 */
import { eventually } from '../../support/cli';
import { SourceServer, staticFile } from '../../support/source-server';
import { TestApp, bootTestApp } from '../../support/test-app';

const NEXT_YEAR = new Date().getUTCFullYear() + 1;
const HEADER = 'entity,iso_code,year,population';
/** Each refused table: its one bad row (after a good one), and the problem named. */
const REFUSED: [string, string, string][] = [
  ['hex', `France,FRA,2020,0x10`, 'population "0x10" is not a whole number of people above 0'],
  ['exponent', `France,FRA,2020,1e3`, 'population "1e3" is not a whole number of people above 0'],
  ['minus-zero', `France,FRA,2020,-0`, 'population "-0" is not a whole number of people above 0'],
  ['zero', `France,FRA,2020,0`, 'population "0" is not a whole number of people above 0'],
  ['fraction', `France,FRA,2020,1.5`, 'population "1.5" is not a whole number of people above 0'],
  ['early', `France,FRA,1799,5`, `year "1799" is not a year from 1800 to ${NEXT_YEAR}`],
  [
    'late',
    `France,FRA,${NEXT_YEAR + 1},5`,
    `year "${NEXT_YEAR + 1}" is not a year from 1800 to ${NEXT_YEAR}`,
  ],
];

describe('population rows: whole numbers of people, plausible years', () => {
  const sources = new SourceServer();
  let t: TestApp;
  const table = (...rows: string[]) => staticFile([HEADER, ...rows].join('\n') + '\n');

  beforeAll(async () => {
    for (const [name, row] of REFUSED) {
      sources.routes[`/${name}.csv`] = table('Peru,PER,2020,33000000', row);
    }
    sources.routes['/good.csv'] = table(
      'Chile,CHL,1800,7',
      `Chile,CHL,${NEXT_YEAR},19000000.0`,
      'Peru,PER,2021,34000000',
    );
    await sources.start();
    const urls = [...REFUSED.map(([name]) => name), 'good'].map(
      (name) => `population=${sources.url(`/${name}.csv`)}`,
    );
    t = await bootTestApp({ SYNC_SOURCES: urls.join(','), SYNC_INTERVAL: '30s' });
  });
  // The server stops even when the app fails to close.
  afterAll(() => t.close().finally(() => sources.stop()));

  it('refuses a table with any other row, naming its line; writes nothing of it', async () => {
    const listed = async () => {
      const res = await t.http.get('/api/sources').set(t.auth());
      expect(res.status).toBe(200);
      return res.body as {
        sync: { running: boolean };
        sources: { url: string; outcome: string | null; last_error: string | null }[];
      };
    };
    const done = async () => {
      const body = await listed();
      return !body.sync.running && body.sources.every((s) => s.outcome !== null);
    };
    expect(await eventually(done, { attempts: 350 })).toBe(true);
    const outcomes = (await listed()).sources.map((s) => [s.url, s.outcome, s.last_error]);
    const expected = [
      ...REFUSED.map(([name, , problem]) => {
        const url = sources.url(`/${name}.csv`);
        const error = `${url}: 1 invalid rows, nothing was imported: line 3: ${problem}`;
        return [url, 'failed', error];
      }),
      [sources.url('/good.csv'), 'updated', null],
    ];
    expect(outcomes).toEqual(expected.sort((a, b) => String(a[0]).localeCompare(String(b[0]))));

    const population = await t.http.get('/api/population');
    expect(population.status).toBe(200);
    const source = sources.url('/good.csv');
    expect(population.body).toEqual([
      { country: 'Chile', iso3: 'CHL', iso2: 'CL', year: 1800, population: 7, source },
      {
        country: 'Chile',
        iso3: 'CHL',
        iso2: 'CL',
        year: NEXT_YEAR,
        population: 19000000,
        source,
      },
      { country: 'Peru', iso3: 'PER', iso2: 'PE', year: 2021, population: 34000000, source },
    ]);
  });
});
