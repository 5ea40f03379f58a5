/**
 * The regions (`GET /api/regions`, `/series?country=<region>`): OWID's continents, the European
 * Union and WHO's regions, checked against files in OWID's and WHO's layouts whose aggregate rows
 * (OWID) or region column (WHO) say what each region holds. Made-up figures, real layouts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { MESSAGES } from '@app/common';
import { cliTestBed } from '../../support/cli-test-bed';

const FIXTURES = join(__dirname, '../../fixtures');
const OWID_FILE = join(FIXTURES, 'owid-covid-regions.csv');
const WHO_FILE = join(FIXTURES, 'who-regions.csv');

type Cells = Record<string, string>;
type Member = { country: string; iso2: string; iso3: string };
type RegionBody = {
  name: string;
  code: string;
  grouping: string;
  aliases: string[];
  source: string;
  deviations: string[];
  countries: Member[];
};
type SeriesRow = { date: string; country: string; countries_reporting: number } & Record<
  string,
  number
>;

const rowsOf = (file: string) => parse<Cells>(readFileSync(file), { columns: true });

describe('regions: OWID continents, the European Union, WHO regions', () => {
  const bed = cliTestBed('regions-');
  let regions: RegionBody[];
  const region = (code: string) => regions.find((r) => r.code === code)!;
  const series = async (key: string, country: string) => {
    const response = await bed.t.http
      .get(`/api/${key}/series?country=${encodeURIComponent(country)}`)
      .query({ metrics: 'total_cases,new_cases,total_deaths,new_deaths' })
      .set(bed.t.auth());
    expect([country, response.status]).toEqual([country, 200]);
    return response.body as SeriesRow[];
  };

  beforeAll(async () => {
    expect((await bed.cli('import', 'covid', OWID_FILE)).code).toBe(0);
    expect((await bed.cli('import', 'mpox', WHO_FILE)).code).toBe(0);
    regions = (await bed.t.http.get('/api/regions')).body as RegionBody[];
  });

  it('lists every grouping with its code, source, deviations and members; public, cached', async () => {
    const response = await bed.t.http.get('/api/regions');
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    expect(response.headers.etag).toBeDefined();
    expect(regions.map((r) => [r.grouping, r.code, r.name, r.aliases])).toEqual([
      ['world', 'OWID_WRL', 'World', []],
      ['continent', 'OWID_AFR', 'Africa', []],
      ['continent', 'OWID_ASI', 'Asia', []],
      ['continent', 'OWID_EUR', 'Europe', []],
      ['continent', 'OWID_NAM', 'North America', []],
      ['continent', 'OWID_OCE', 'Oceania', []],
      ['continent', 'OWID_SAM', 'South America', []],
      ['union', 'EU', 'European Union', ['European Union (27)', 'OWID_EUN']],
      ['who', 'AFRO', 'African Region', ['AFR']],
      ['who', 'AMRO', 'Region of the Americas', ['AMR']],
      ['who', 'EMRO', 'Eastern Mediterranean Region', ['EMR']],
      ['who', 'EURO', 'European Region', ['EUR']],
      ['who', 'SEARO', 'South-East Asia Region', ['SEAR']],
      ['who', 'WPRO', 'Western Pacific Region', ['WPR']],
    ]);
    expect(region('OWID_EUR').source).toBe(
      "Our World in Data's continents (owid/covid-19-data, scripts/input/owid/continents.csv), " +
        'the list its continent rows are summed over',
    );
    expect(region('OWID_ASI').deviations).toEqual([
      'Northern Cyprus (OWID_CYN), in Asia for OWID, is not a country here: its records, if any, ' +
        'are a stored place of no region',
    ]);
    expect(region('SEARO').deviations).toEqual([
      "Indonesia stays here as in WHO's COVID-19 files; WHO moved it to the Western Pacific " +
        'Region in May 2025',
    ]);
    expect(region('OWID_EUR').countries).toContainEqual({
      country: 'Russia',
      iso2: 'RU',
      iso3: 'RUS',
    });
    expect(region('OWID_ASI').countries).toContainEqual({
      country: 'Timor-Leste',
      iso2: 'TL',
      iso3: 'TLS',
    });
    expect(region('EU').countries.map((m) => m.iso3)).toEqual(
      [
        ...['Austria', 'Belgium', 'Bulgaria', 'Croatia', 'Cyprus', 'Czechia', 'Denmark'],
        ...['Estonia', 'Finland', 'France', 'Germany', 'Greece', 'Hungary', 'Ireland', 'Italy'],
        ...['Latvia', 'Lithuania', 'Luxembourg', 'Malta', 'Netherlands', 'Poland', 'Portugal'],
        ...['Romania', 'Slovakia', 'Slovenia', 'Spain', 'Sweden'],
      ].map((name) => region('OWID_WRL').countries.find((m) => m.country === name)!.iso3),
    );
    const counts = regions.map((r) => [r.code, r.countries.length]);
    expect(counts).toEqual([
      ['OWID_WRL', 250],
      ['OWID_AFR', 58],
      ['OWID_ASI', 53],
      ['OWID_EUR', 53],
      ['OWID_NAM', 41],
      ['OWID_OCE', 26],
      ['OWID_SAM', 15],
      ['EU', 27],
      ['AFRO', 51],
      ['AMRO', 54],
      ['EMRO', 22],
      ['EURO', 63],
      ['SEARO', 11],
      ['WPRO', 39],
    ]);
  });

  it("equals OWID's aggregate rows (OWID's COVID-19 layout): EU, Europe with Russia, Asia", async () => {
    const owid = rowsOf(OWID_FILE).filter((row) => row.iso_code.startsWith('OWID_'));
    for (const [code, name] of [
      ['OWID_EUN', 'European Union'],
      ['OWID_EUR', 'Europe'],
      ['OWID_ASI', 'Asia'],
    ]) {
      const theirs = owid
        .filter((row) => row.iso_code === code)
        .map((row) => [row.date, Number(row.total_cases), Number(row.new_cases)]);
      const rows = await series('covid', code);
      const ours = rows.map((row) => [row.date, row.total_cases, row.new_cases]);
      expect([name, ours]).toEqual([name, theirs]);
      // Each row names OWID's aggregate by OWID's own code.
      expect([name, [...new Set(rows.map((row) => row.iso_code))]]).toEqual([name, [code]]);
    }
    // The same region by its name, its code or an alias, case ignored.
    const eu = await series('covid', 'European Union');
    for (const spelling of ['eu', 'EU', 'european union (27)', 'owid_eun']) {
      expect([spelling, await series('covid', spelling)]).toEqual([spelling, eu]);
    }
    expect(eu.map((row) => [row.country, row.countries_reporting])).toEqual([
      ['European Union', 27],
      ['European Union', 27],
    ]);
  });

  it("places each country of WHO's file in its WHO_region, and sums each region's", async () => {
    const who = rowsOf(WHO_FILE);
    const world = region('OWID_WRL').countries;
    const byRegion = new Map<string, Cells[]>();
    for (const row of who) {
      const list = byRegion.get(row.WHO_region) ?? [];
      list.push(row);
      byRegion.set(row.WHO_region, list);
    }
    // Every place the file gives a region is a member of it; `Other` (conveyances) of none.
    for (const row of who) {
      const member = world.find((m) => m.iso2 === row.Country_code);
      if (row.WHO_region === 'OTHER') {
        expect(member).toBeUndefined();
        continue;
      }
      const holders = regions
        .filter((r) => r.grouping === 'who' && r.countries.some((m) => m.iso2 === member?.iso2))
        .map((r) => r.code);
      expect([row.Country, holders]).toEqual([row.Country, [row.WHO_region]]);
    }
    for (const code of ['AFRO', 'AMRO', 'EMRO', 'EURO', 'SEARO', 'WPRO']) {
      const rows = byRegion.get(code)!;
      const dates = [...new Set(rows.map((row) => row.Date_reported))].sort();
      const expected = dates.map((date) => {
        const day = rows.filter((row) => row.Date_reported === date);
        const sum = (column: string) => day.reduce((s, row) => s + Number(row[column]), 0);
        return {
          date,
          country: region(code).name,
          // OWID has no row for WHO's regions: no iso_code (decision 0049).
          iso_code: null,
          countries_reporting: day.length,
          total_cases: sum('Cumulative_cases'),
          new_cases: sum('New_cases'),
          total_deaths: sum('Cumulative_deaths'),
          new_deaths: sum('New_deaths'),
        };
      });
      const ours = (await series('mpox', code.toLowerCase())).map(({ flags: _f, ...row }) => row);
      expect([code, ours]).toEqual([code, expected]);
    }
    // WHO's newer codes (its weekly files) name the same regions.
    expect(await series('mpox', 'AMR')).toEqual(await series('mpox', 'Region of the Americas'));
  });

  it('answers an unknown region 400 naming country on /series; /data keeps its empty filter', async () => {
    for (const key of ['covid', 'mpox']) {
      for (const name of ['Eurasia', 'EU28', 'WHO']) {
        const response = await bed.t.http
          .get(`/api/${key}/series?country=${name}`)
          .set(bed.t.auth());
        expect([name, response.status, response.body]).toEqual([
          name,
          400,
          {
            error: MESSAGES.invalidQuery,
            details: [
              "country : n'est ni un pays, ni une région (GET /api/regions liste les régions et leurs codes)",
            ],
          },
        ]);
      }
    }
    // `/data` filters on a stored place (decision 0007): a region is none.
    const data = await bed.t.http.get('/api/covid/data?country=EU').set(bed.t.auth());
    expect([data.status, data.body]).toEqual([200, []]);
  });
});
