import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTestBed } from '../../support/cli-test-bed';
import { onlyOn } from '../../support/database-only';

/** `countries` countries with `days` daily records each, from 2020-01-01. */
function dailyFile(countries: number, days: number): string {
  const rows = Array.from({ length: countries }, (_, c) =>
    Array.from({ length: days }, (_, day) => {
      const date = new Date(Date.UTC(2020, 0, 1 + day)).toISOString().slice(0, 10);
      return `${date},Country ${c},${day},1,0,0`;
    }),
  ).flat();
  return ['date,country,total_cases,new_cases,total_deaths,new_deaths', ...rows].join('\n');
}

/** How MySQL would read the latest date per country (the public aggregates' first step). */
async function latestDatesPlan(query: (sql: string) => Promise<unknown>): Promise<string> {
  const [plan] = (await query(
    'EXPLAIN SELECT country_key, MAX(date) AS last_date FROM covid_data GROUP BY country_key',
  )) as { type: string; Extra: string }[];
  return `${plan.type}: ${plan.Extra}`;
}

// MySQL only: SQLite's queries walk the index themselves and keep no statistics to refresh.
onlyOn('mysql').describe('statistics after an import (MySQL)', () => {
  const bed = cliTestBed('covid-statistics-');

  it('finds the latest date per country by a loose index scan once an import filled the table', async () => {
    const query = (sql: string) => bed.t.dataSource.query(sql);
    // The server opens the table while it is empty, as the API does before a first sync.
    expect(await query('SELECT COUNT(*) AS n FROM covid_data')).toEqual([{ n: 0 }]);
    const file = join(bed.dir, 'daily.csv');
    writeFileSync(file, dailyFile(40, 300)); // 12,000 records

    const result = await bed.cli('import', 'covid', file);

    expect(result.code).toBe(0);
    expect(await query('SELECT COUNT(*) AS n FROM covid_data')).toEqual([{ n: 12000 }]);
    // Without the refresh: "index: Using index", the whole index read.
    expect(await latestDatesPlan(query)).toBe('range: Using index for group-by');
  });
});
