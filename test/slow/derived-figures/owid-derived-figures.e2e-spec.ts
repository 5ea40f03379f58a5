import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { resolveCountry } from '@app/countries';
import { DERIVED_METRICS, STORED_METRICS } from '@app/diseases';
import { cliTestBed } from '../../support/cli-test-bed';
import { SourceServer, fileRoute } from '../../support/source-server';

/** Read from ../shared/data relative to the project root, never copied into the project. */
const DATA = join(__dirname, '../../../../shared/data');
const OWID_MPOX = join(DATA, 'owid-monkeypox-data-2023-11-16.csv.gz');
const POPULATION = join(DATA, 'population-owid-2020.csv');

type Cells = Record<string, string>;
type Row = Record<string, number | string | null>;

/** The OWID file's rows of countries (its `OWID_*` aggregates left out), as text cells. */
function owidCountryRows(): Cells[] {
  const [header, ...lines] = gunzipSync(readFileSync(OWID_MPOX)).toString().trimEnd().split('\n');
  const names = header.split(',');
  return lines
    .map((line) => {
      const cells = line.split(',');
      return Object.fromEntries(names.map((name, i) => [name, cells[i]]));
    })
    .filter((row) => !row.iso_code.startsWith('OWID_'));
}

/**
 * The population OWID's per-million columns imply, per country: total_cases /
 * total_cases_per_million, on the row with the most cases (the least rounding).
 */
function impliedPopulations(rows: Cells[]): Map<string, number> {
  const best = new Map<string, Cells>();
  for (const row of rows) {
    const held = best.get(row.iso_code);
    if (
      Number(row.total_cases_per_million) > 0 &&
      (!held || Number(row.total_cases) > Number(held.total_cases))
    ) {
      best.set(row.iso_code, row);
    }
  }
  return new Map(
    [...best].map(([iso3, row]) => [
      iso3,
      Math.round((Number(row.total_cases) / Number(row.total_cases_per_million)) * 1e6),
    ]),
  );
}

/**
 * How many rows of OWID's file agree with ours, per metric: equal within OWID's rounding (2
 * decimals for its averages, 3 for per-million figures), or both empty. `slack`: a relative
 * tolerance on top (a population known only through OWID's rounded columns).
 */
function agreement(owid: Cells[], ours: Map<string, Row>, slack = 0): Record<string, number> {
  const agree: Record<string, number> = {};
  for (const row of owid) {
    const mine = ours.get(`${row.iso_code} ${row.date}`);
    for (const metric of [...STORED_METRICS, ...DERIVED_METRICS]) {
      const theirs = row[metric] === '' ? null : Number(row[metric]);
      const value = (mine?.[metric] ?? null) as number | null;
      const rounding = metric.endsWith('_smoothed') ? 0.005 : 0.0005;
      const same =
        theirs === null || value === null
          ? theirs === value
          : Math.abs(value - theirs) <= rounding + Math.abs(theirs) * slack + 1e-9;
      if (same) agree[metric] = (agree[metric] ?? 0) + 1;
    }
  }
  return agree;
}

/** The MPOX file imported and every place's series read: longer on MariaDB on a busy host. */
const LONG_MS = 240_000;

describe("the series' derived figures against Our World in Data's own columns (MPOX file)", () => {
  const bed = cliTestBed('owid-derived-figures-');
  const { cli } = bed;
  const owid = owidCountryRows();

  async function ourRows(): Promise<Map<string, Row>> {
    const response = await bed.t.http.get('/api/mpox/series?limit=100000000').set(bed.t.auth());
    expect(response.status).toBe(200);
    const rows = new Map<string, Row>();
    for (const row of response.body as Row[]) {
      rows.set(`${resolveCountry(String(row.country))!.iso3} ${row.date}`, row);
    }
    return rows;
  }

  it('imports the population table: every row written or skipped, aggregates named', async () => {
    const first = await cli('import', 'population', POPULATION);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      [
        'format:    population (entity,iso_code,year,population)',
        'rows read: 217',
        'inserted:  209',
        'updated:   0',
        'unchanged: 0',
        'skipped:   8',
        '  8 Our World in Data aggregates (not countries):',
        ...[
          'Africa',
          'Asia',
          'Europe',
          'European Union',
          'North America',
          'Oceania',
          'South America',
          'World',
        ].map((name) => `    1 ${name}`),
        '',
      ].join('\n'),
    );
    const again = await cli('import', 'population', POPULATION);
    expect(again.stdout).toContain('inserted:  0\nupdated:   0\nunchanged: 209\n');
    const list = await bed.t.http.get('/api/population');
    expect(list.body).toHaveLength(209);
    // Kosovo has no ISO code of its own: OWID_KOS is matched through the directory.
    expect(list.body).toContainEqual({
      country: 'Kosovo',
      iso3: 'XKX',
      iso2: 'XK',
      year: 2020,
      population: 1932774,
      source: 'population-owid-2020.csv',
    });
  });

  it('imports a population URL, unchanged when the server says so', async () => {
    const server = new SourceServer();
    await server.start();
    try {
      server.routes['/population.csv?key=secret'] = fileRoute(() => ({
        body: 'entity,iso_code,year,population,source\nPeru,PER,2023,34352720,UN WPP 2022\nMars,,2023,1,\n',
        etag: '"p1"',
        modified: 'Mon, 01 May 2023 00:00:00 GMT',
      }));
      const url = server.url('/population.csv?key=secret');
      const first = await cli('import', 'population', url);
      expect(first.code).toBe(0);
      expect(first.stdout).toContain(
        'inserted:  1\nupdated:   0\nunchanged: 0\nskipped:   1\n  1 places not matched to a country:\n    1 Mars\n',
      );
      const again = await cli('import', 'population', url);
      expect(again.stdout).toBe('unchanged: not modified (HTTP 304); nothing written\n');
      const peru = (await bed.t.http.get('/api/population?format=ndjson')).text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Row)
        .filter((row) => row.iso3 === 'PER' && row.year === 2023);
      // The source names the URL without its query string.
      expect(peru).toEqual([
        {
          country: 'Peru',
          iso3: 'PER',
          iso2: 'PE',
          year: 2023,
          population: 34352720,
          source: 'UN WPP 2022',
        },
      ]);
      await bed.t.dataSource.query('DELETE FROM population WHERE year = 2023');
    } finally {
      await server.stop();
    }
  });

  it(
    "equals OWID's counts and averages; per-million figures differ by OWID's population",
    async () => {
      expect((await cli('import', 'mpox', OWID_MPOX)).code).toBe(0);
      const ours = await ourRows();
      expect(ours.size).toBe(owid.length);
      expect(owid.length).toBe(48627);
      const agree = agreement(owid, ours);
      // Stored figures: every row.
      for (const metric of STORED_METRICS)
        expect({ metric, rows: agree[metric] }).toEqual({ metric, rows: 48627 });
      // 7-day averages: every row but each place's first 6 days (671 rows), where ours are null
      // and OWID's divide the days it has by 7, as if the days before the first record were 0.
      const firstDays = [...new Set(owid.map((row) => row.iso_code))]
        .map((iso3) => Math.min(6, owid.filter((row) => row.iso_code === iso3).length))
        .reduce((a, b) => a + b, 0);
      expect(firstDays).toBe(671);
      expect(agree.new_cases_smoothed).toBe(48627 - 671);
      expect(agree.new_deaths_smoothed).toBe(48627 - 671);
      expect([...ours.values()].filter((row) => row.new_cases_smoothed === null)).toHaveLength(671);
      // Per million over the 2020 table: only 2877 rows (6 %) agree. OWID's MPOX file divides by
      // UN WPP 2022 populations (derived below: United States 338,291,561, not 331,002,647), and
      // 2180 rows are of places the 2020 table lacks (Puerto Rico, Guadeloupe, Martinique...).
      expect(agree.total_cases_per_million).toBe(2877);
      expect([...ours.values()].filter((row) => row.total_cases_per_million === null)).toHaveLength(
        2180,
      );
    },
    LONG_MS,
  );

  it(
    "equals OWID's per-million figures over the population OWID used",
    async () => {
      const implied = impliedPopulations(owid);
      expect(implied.get('USA')).toBe(338291561);
      // Dated 2022: the MPOX rows of 2022 take it, those of 2023 too (the nearest year).
      const table = ['entity,iso_code,year,population,source']
        .concat(
          [...implied].map(
            ([iso3, population]) => `${iso3},${iso3},2022,${population},implied by OWID`,
          ),
        )
        .join('\n');
      const file = join(bed.dir, 'population-implied.csv');
      writeFileSync(file, `${table}\n`);
      expect((await cli('import', 'population', file)).code).toBe(0);
      const ours = await ourRows();
      const strict = agreement(owid, ours);
      // Within 0.1 % beyond OWID's rounding: the implied population is known to OWID's 3 decimals only.
      const loose = agreement(owid, ours, 0.001);
      // Deaths per million: every row (small counts, exact to OWID's 3 decimals).
      expect(strict.total_deaths_per_million).toBe(48627);
      expect(strict.new_deaths_per_million).toBe(48627);
      // Cases per million: 99.9 % of rows exactly, 98.7 % of the totals within 0.1 % (large
      // totals over a population known to 4 or 5 significant digits only, through OWID's columns).
      expect(strict.new_cases_per_million).toBe(48589);
      expect(strict.total_cases_per_million).toBe(42242);
      expect(loose.total_cases_per_million).toBe(47971);
      // Averages per million: the first 6 days of each place differ as the averages do (671 rows);
      // 99.9 % of the deaths' others agree, 92.8 % of the cases' (OWID's per-million average is
      // not always its rounded average over the implied population: left as found).
      expect(strict.new_deaths_smoothed_per_million).toBe(47926);
      expect(strict.new_cases_smoothed_per_million).toBe(45112);
    },
    LONG_MS,
  );
});
