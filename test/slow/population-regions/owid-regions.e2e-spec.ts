/**
 * The continents and World against Our World in Data's own aggregate rows, on OWID's raw MPOX file
 * (`owid-monkeypox-data-2023-11-16.csv.gz`, aggregates included: the import leaves them out).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { cliTestBed } from '../../support/cli-test-bed';

/** Read from ../shared/data relative to the project root, never copied into the project. */
const OWID_MPOX = join(__dirname, '../../../../shared/data/owid-monkeypox-data-2023-11-16.csv.gz');

type Cells = Record<string, string>;
type RegionBody = { name: string; code: string; countries: { iso3: string }[] };

/** OWID's codes of its aggregate rows; `OWID_KOS` is Kosovo, a country (`XKX` here). */
const REGION_CODES = [
  'OWID_WRL',
  'OWID_AFR',
  'OWID_ASI',
  'OWID_EUR',
  'OWID_NAM',
  'OWID_OCE',
  'OWID_SAM',
];
const iso3Of = (code: string) => (code === 'OWID_KOS' ? 'XKX' : code);

/**
 * Each member's last record: OWID's aggregate rows carry a country's last total on after its own
 * rows stop, where a region's sums here count only the members with a record that day.
 */
function lastRecords(rows: Cells[]): Map<string, { date: string; total: number }> {
  const last = new Map<string, { date: string; total: number }>();
  for (const row of rows) {
    const held = last.get(iso3Of(row.iso_code));
    if (row.total_cases !== '' && (!held || row.date > held.date)) {
      last.set(iso3Of(row.iso_code), { date: row.date, total: Number(row.total_cases) });
    }
  }
  return last;
}

describe("the continents against OWID's aggregate rows (MPOX file)", () => {
  const bed = cliTestBed('owid-regions-');
  const rows = parse<Cells>(gunzipSync(readFileSync(OWID_MPOX)), { columns: true });
  const aggregates = rows.filter((row) => REGION_CODES.includes(row.iso_code));
  const countries = rows.filter(
    (row) => !row.iso_code.startsWith('OWID_') || row.iso_code === 'OWID_KOS',
  );
  const last = lastRecords(countries);

  it('is within 0.5 % of every row but after a member stopped reporting; equal with its last total', async () => {
    expect((await bed.cli('import', 'mpox', OWID_MPOX)).code).toBe(0);
    const regions = (await bed.t.http.get('/api/regions')).body as RegionBody[];
    expect(aggregates).toHaveLength(3713);
    const outside: Record<string, number> = {};
    for (const code of REGION_CODES) {
      const region = regions.find((r) => r.code === code)!;
      const members = region.countries.map((m) => m.iso3);
      const response = await bed.t.http
        .get(`/api/mpox/series?country=${code}&metrics=total_cases`)
        .set(bed.t.auth());
      expect(response.status).toBe(200);
      const ours = new Map(
        (response.body as { date: string; total_cases: number }[]).map((r) => [
          r.date,
          r.total_cases,
        ]),
      );
      outside[region.name] = 0;
      for (const row of aggregates.filter((r) => r.iso_code === code)) {
        const theirs = Number(row.total_cases);
        const sum = ours.get(row.date) ?? 0;
        // The totals of the members whose rows ended before this date, as OWID carries them.
        const carried = members
          .map((iso3) => last.get(iso3))
          .filter((l) => l !== undefined && l.date < row.date)
          .reduce((s, l) => s + l!.total, 0);
        const where = `${region.name} ${row.date}: OWID ${theirs}, ours ${sum}, carried ${carried}`;
        // Every row, once the stopped members' last totals are added: equal (so a member on
        // the wrong continent, as Russia's 2 cases in Asia were, shows).
        expect([where, sum + carried]).toEqual([where, theirs]);
        if (Math.abs(sum - theirs) > 0.005 * theirs) {
          // A row outside 0.5 % on its own is one where a member had stopped reporting.
          expect([where, carried > 0]).toEqual([where, true]);
          outside[region.name] += 1;
        }
      }
    }
    // The rows outside 0.5 % on the sums alone, each explained above: e.g. the United Arab
    // Emirates' last row is 2022-07-24 (16 cases), the United States' 2023-10-17 (30,680).
    expect(outside).toEqual({
      World: 46,
      Africa: 194,
      Asia: 477,
      Europe: 0,
      'North America': 14,
      Oceania: 375,
      'South America': 0,
    });
  }, 240_000);
});
