/**
 * What a write's closing statements (decision 0036) read on MariaDB: what its change set touched,
 * never the history kept before it. An import's cost grew with each revised import when the
 * regions' corrected days were joined from the members' side, and the country summaries' dates
 * read every record of each country the change set touched.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CountrySummaryStatements } from '@app/database/records/country-summary-statements';
import { RegionDayStatements } from '@app/database/records/derived-figures/region-day-statements';
import { cliTestBed } from '../../support/cli-test-bed';
import { onlyOn } from '../../support/database-only';

const HEADER = 'date,country,total_cases,new_cases,total_deaths,new_deaths';
/** Countries that belong to regions (continents, income groups, World). */
const COUNTRIES = ['France', 'Germany', 'Italy', 'Spain', 'Chile', 'Japan', 'Brazil', 'India'];
const DAYS = 120;

/** Each country's DAYS days from 2021-01-01, `total_cases` moved by `shift`. */
function records(shift: number): string[] {
  return COUNTRIES.flatMap((country) =>
    Array.from({ length: DAYS }, (_, day) => {
      const date = new Date(Date.UTC(2021, 0, 1 + day)).toISOString().slice(0, 10);
      return `${date},${country},${1000 + day + shift},1,0,0`;
    }),
  );
}

interface Plan {
  table: string;
  key: string | null;
}

onlyOn('mysql').describe("a write's closing statements on MariaDB", () => {
  const bed = cliTestBed('closing-cost-');
  const query = <T>(sql: string, params: unknown[] = []) => bed.t.dataSource.query<T>(sql, params);
  const importRecords = async (name: string, shift: number) => {
    const path = join(bed.dir, name);
    writeFileSync(path, `${[HEADER, ...records(shift)].join('\n')}\n`);
    expect((await bed.cli('import', 'covid', path)).code).toBe(0);
  };
  const lastChangeSet = async () => {
    const [last] = await query<{ c: string }[]>(
      `SELECT CAST(change_set AS CHAR) AS c FROM covid_revision_commits ORDER BY at DESC,
         change_set DESC LIMIT 1`,
    );
    return last.c;
  };
  /** Index rows a statement reads, on a connection of its own, its writes rolled back. */
  const rowsRead = async ({ sql, params }: { sql: string; params: unknown[] }) => {
    const runner = bed.t.dataSource.createQueryRunner();
    const read = async () => {
      const rows = (await runner.query(
        "SHOW SESSION STATUS WHERE Variable_name IN ('Handler_read_next', 'Handler_read_prev')",
      )) as { Value: string }[];
      return rows.reduce((n, r) => n + Number(r.Value), 0);
    };
    try {
      await runner.startTransaction();
      const before = await read();
      await runner.query(sql, params);
      return (await read()) - before;
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  };

  beforeAll(async () => {
    // Statistics that lag behind the history, as the server's were after a run of imports: the
    // plans below must not depend on them.
    await query('ANALYZE TABLE covid_corrections');
    await query('ALTER TABLE covid_corrections STATS_AUTO_RECALC = 0');
    await importRecords('first.csv', 0);
    await importRecords('revised-1.csv', 1);
    await importRecords('revised-2.csv', 2);
  });

  it("flags the regions' days from the change set's corrections, not the members' history", async () => {
    const changeSet = await lastChangeSet();
    const [{ n }] = await query<{ n: string }[]>(
      'SELECT CAST(COUNT(*) AS CHAR) AS n FROM covid_corrections WHERE change_set = ?',
      [changeSet],
    );
    expect(Number(n)).toBe(COUNTRIES.length * DAYS);
    const { sql, params } = new RegionDayStatements('covid', true).correctedBy(changeSet);
    const plan = await query<Plan[]>(`EXPLAIN ${sql}`, params);
    expect(plan.map((p) => ({ table: p.table, key: p.key }))).toEqual([
      { table: 'k', key: 'idx_covid_corrections_change_set' },
      { table: 'm', key: 'idx_region_members_country' },
    ]);
  });

  it("reads a touched country's first and last dates in two seeks, not its records", async () => {
    const [france] = await query<{ id: number }[]>(
      "SELECT id FROM covid_data WHERE country = 'France' AND date = '2021-02-01'",
    );
    const res = await bed.t.http.put(`/api/covid/data/${france.id}`).set(bed.t.auth('bob')).send({
      date: '2021-02-01',
      country: 'France',
      total_cases: 5,
      new_cases: 1,
      total_deaths: 0,
      new_deaths: 0,
    });
    expect(res.status).toBe(200);
    const changeSet = await lastChangeSet();
    const [, dates] = new CountrySummaryStatements('covid', 'covid_data', true).ofChangeSet(
      changeSet,
    );
    // One revision and the one before it, France's two ends: a few rows, where reading France's
    // records would be 2 x DAYS.
    expect(await rowsRead(dates)).toBeLessThan(20);
  });
});
