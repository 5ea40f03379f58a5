import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { FIGURE_MAX } from '@app/diseases';
import { databaseEnv, runCli } from '../../support/cli';
import { cliTestBed } from '../../support/cli-test-bed';
import { tableRows } from '../../support/table-snapshot';
import { createTestDatabase } from '../../support/test-database';

/** Read from ../shared/data relative to the project root, never copied into the project. */
const DATA = join(__dirname, '../../../../shared/data');
const OWID_MPOX = join(DATA, 'owid-monkeypox-data-2023-11-16.csv.gz');
const TRIMMED_MPOX = join(DATA, 'mpox-owid-2023-11-16.csv.gz');

/*
 * Expected counts, computed independently of the code with zcat and awk:
 *   rows:        zcat owid-monkeypox-data-2023-11-16.csv.gz | tail -n +2 | wc -l                 -> 52340
 *   aggregates:  ... | awk -F, 'NR>1 && $2 ~ /^OWID_/' | wc -l                                   -> 3713
 *   records:     ... | awk -F, 'NR>1 && $2 !~ /^OWID_/ {k[$1","$3]++} END {print length(k)}'   -> 48627
 *   latest totals per country summed (116 countries): 91468 cases, 168 deaths, last date 2023-11-16
 */
const ROWS = 52340;
const AGGREGATES = 3713;
const RECORDS = 48627;

const HEADER = 'date,country,total_cases,new_cases,total_deaths,new_deaths';

function summary(
  rows: number,
  inserted: number,
  updated: number,
  unchanged: number,
  skipped: number,
): string {
  return [
    `rows read: ${rows}`,
    `inserted:  ${inserted}`,
    `updated:   ${updated}`,
    `unchanged: ${unchanged}`,
    `skipped:   ${skipped}`,
  ].join('\n');
}

describe('admin command line: import and export', () => {
  const bed = cliTestBed('covid-cli-test-');
  const { cli } = bed;

  it('imports the raw Our World in Data MPOX file with exact counts, then again idempotently', async () => {
    const first = await cli('import', 'mpox', OWID_MPOX);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `format:    Our World in Data\n${summary(ROWS, RECORDS, 0, 0, AGGREGATES)}\n` +
        `  ${AGGREGATES} Our World in Data aggregates (World, continents, income groups...)\n` +
        'renamed:   1470 rows to the canonical country name\n' +
        '  531 Congo -> Republic of the Congo\n' +
        '  427 Curacao -> Curaçao\n' +
        '  512 Democratic Republic of Congo -> Democratic Republic of the Congo\n' +
        'time: ',
    );
    // Not a terminal: plain periodic progress lines on stderr, nothing else.
    expect(first.stderr).toBe('progress: 50000 rows read (100% of the file)\n');

    const totals = await bed.t.http.get('/api/mpox/public/summary');
    expect(totals.body).toMatchObject({
      total_cases: 91468,
      total_deaths: 168,
      countries: 116,
      last_date: '2023-11-16',
    });
    expect((await bed.t.http.get('/api/mpox/countries').set(bed.t.auth())).body).toHaveLength(116);

    const again = await cli('import', 'mpox', OWID_MPOX);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(summary(ROWS, 0, 0, RECORDS, AGGREGATES));

    // The trimmed file holds the same records: all of them are updates.
    const trimmed = await cli('import', 'mpox', TRIMMED_MPOX);
    expect(trimmed.code).toBe(0);
    expect(trimmed.stdout).toContain(`format:    trimmed\n${summary(RECORDS, 0, 0, RECORDS, 0)}\n`);
  });

  it('exports CSV that imports back into another database unchanged', async () => {
    const exported = await cli('export', 'mpox');
    expect(exported.code).toBe(0);
    expect(exported.stderr).toBe('');
    const lines = exported.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(HEADER);
    expect(lines).toHaveLength(RECORDS + 1);
    const file = join(bed.dir, 'mpox-export.csv');
    writeFileSync(file, exported.stdout);

    const other = await createTestDatabase();
    try {
      const otherEnv = databaseEnv(other.config);
      const imported = await runCli(['import', 'mpox', file], otherEnv);
      expect(imported.code).toBe(0);
      expect(imported.stdout).toContain(summary(RECORDS, RECORDS, 0, 0, 0));
      const back = await runCli(['export', 'mpox'], otherEnv);
      // Same records in the same order: those of one date keep their relative ids, hence the
      // order of the API's lists and of /public/latest.
      expect(back.stdout).toBe(exported.stdout);
    } finally {
      await other.drop();
    }
  });

  it('exports CSV by default, or JSON and NDJSON as the API lists the records', async () => {
    const csv = await cli('export', 'mpox', '--country', 'peru');
    expect(csv.code).toBe(0);
    expect((await cli('export', 'mpox', '--country', 'peru', '--format', 'csv')).stdout).toBe(
      csv.stdout,
    );
    const api = await bed.t.http.get('/api/mpox/data?country=peru&limit=100000').set(bed.t.auth());
    const records = (api.body as Record<string, unknown>[]).reverse();
    expect(records.length).toBe(csv.stdout.trimEnd().split('\n').length - 1);
    const json = await cli('export', 'mpox', '--country', 'peru', '--format', 'json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(records);
    const ndjson = await cli('export', 'mpox', '--country', 'peru', '--format', 'ndjson');
    expect(ndjson.code).toBe(0);
    expect(ndjson.stdout.endsWith('}\n')).toBe(true);
    const lines = ndjson.stdout.split('\n').slice(0, -1);
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(records);
  });

  it('exports one country, matched ignoring case and blanks', async () => {
    const result = await cli('export', 'mpox', '--country', '  FRANCE ');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(HEADER);
    expect(lines).toHaveLength(532);
    expect(
      lines.slice(1).every((l) => /^\d{4}-\d\d-\d\d,France,\d+,-?[\d.]+,\d+,-?[\d.]+$/.test(l)),
    ).toBe(true);
    // Oldest first.
    expect(lines[1] < lines[lines.length - 1]).toBe(true);
  });

  it('reports each bad row with its line number and imports nothing of the file', async () => {
    const file = join(bed.dir, 'mixed.csv.gz');
    const csv = [
      'country,date,total_cases,new_cases,total_deaths,new_deaths', // any column order
      'Testland,2021-01-01,10,10,1,1',
      'Testland,2021-02-30,11,1,1,0',
      'Testland,2021-01-02,,1,1,0',
      'Testland,2021-01-03,12,abc,1,0',
      'Testland,2021-01-04,12.5,0.5,-1,0',
      'Testland,2021-01-05,13',
      ',2021-01-06,,,,',
      '"Quoted, Land",2021-01-01,5.0,5.0,0.0,-2.5',
      '',
      'Testland,2021-01-01,15,5,2,1',
    ].join('\n');
    writeFileSync(file, gzipSync(csv));
    const result = await cli('import', 'covid', file);
    expect(result.code).toBe(1);
    // Line 4's blank total_cases follows the place's previous row: 10 + its new 1.
    expect(result.stdout).toContain(
      `format:    trimmed\n${summary(9, 0, 0, 0, 5)}\n` +
        '  5 invalid rows (each reported above with its line number)\n' +
        'filled:    1 blank cells\n' +
        '  1 total_cases: blank, previous total plus the new figure\n' +
        'not countries, kept as named: 2\n' +
        '  5 Testland\n' +
        '  1 Quoted, Land\n',
    );
    expect(result.stderr).toBe(
      [
        "line 3: date : 2021-02-30 n'est pas une date du calendrier",
        "line 5: new_cases : « abc » n'est pas un nombre",
        `line 6: total_cases : doit être un entier de 0 à ${FIGURE_MAX}; total_deaths : doit être un entier de 0 à ${FIGURE_MAX}`,
        'line 7: 6 colonnes attendues, 3 trouvées',
        'line 8: country : doit contenir de 1 à 100 caractères',
        'error: 5 invalid row(s) (see their line numbers above); nothing was imported',
        '',
      ].join('\n'),
    );
    expect(await tableRows(bed.t.dataSource, 'covid_data')).toEqual([]);
    expect(await tableRows(bed.t.dataSource, 'covid_revisions')).toEqual([]);

    // The file without its bad rows is imported whole.
    const bad = [3, 5, 6, 7, 8];
    const fixed = csv.split('\n').filter((_, i) => !bad.includes(i + 1));
    writeFileSync(file, gzipSync(fixed.join('\n')));
    const again = await cli('import', 'covid', file);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(summary(4, 3, 1, 0, 0));
    const list = await bed.t.http.get('/api/covid/data').set(bed.t.auth());
    const rows = (list.body as Record<string, unknown>[]).map((r) =>
      [r.date, r.country, r.total_cases, r.new_deaths].join('|'),
    );
    // Ids (hence the order within one date) differ between the drivers.
    expect(rows.sort()).toEqual([
      '2021-01-01|Quoted, Land|5|-2.5',
      '2021-01-01|Testland|15|1',
      '2021-01-02|Testland|11|0',
    ]);
  });

  it('refuses a truncated gzip file as a whole: nothing of it is written', async () => {
    const file = join(bed.dir, 'truncated.csv.gz');
    writeFileSync(file, readFileSync(TRIMMED_MPOX).subarray(0, 4000));
    const result = await cli('import', 'covid', file);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: ${file} is a damaged or truncated gzip file (unexpected end of file); nothing was imported\n`,
    );
    // Only the three records of the test above.
    expect(await tableRows(bed.t.dataSource, 'covid_data')).toHaveLength(3);
  });

  it('refuses bad arguments and unreadable files with a clear message', async () => {
    const empty = join(bed.dir, 'empty.csv');
    writeFileSync(empty, '');
    const unknown = join(bed.dir, 'unknown.csv');
    writeFileSync(unknown, 'a,b,c\n1,2,3\n');
    const cases: [string[], number, string][] = [
      [
        ['import', 'flu', OWID_MPOX],
        2,
        'error: unknown dataset "flu": expected covid, mpox or population',
      ],
      [['import', 'covid'], 2, "error: missing required argument 'file'"],
      [['import', 'covid', join(bed.dir, 'missing.csv')], 2, 'error: cannot read '],
      [['import', 'covid', bed.dir], 2, 'error: cannot read '],
      [['import', 'covid', empty], 1, `error: ${empty} is empty (no CSV header)`],
      [['import', 'covid', unknown], 1, 'error: unrecognised CSV header: expected the columns'],
      [['export'], 2, "error: missing required argument 'disease'"],
      [['export', 'flu'], 2, 'error: unknown disease "flu"'],
      [
        ['export', 'covid', '--country', ' '],
        2,
        'error: invalid --country " ": 1 to 100 characters once trimmed, no control characters',
      ],
      [['export', 'mpox', '--country', 'Narnia'], 1, 'error: no mpox records for country "Narnia"'],
      [
        ['export', 'mpox', '--country', 'Narnia', '--format', 'json'],
        1,
        'error: no mpox records for country "Narnia"',
      ],
      [
        ['export', 'mpox', '--format', 'xml'],
        2,
        'error: invalid --format "xml": csv, ndjson or json',
      ],
    ];
    for (const [args, code, message] of cases) {
      const result = await cli(...args);
      expect({ args, code: result.code }).toEqual({ args, code });
      expect(result.stderr).toContain(message);
      if (args[0] === 'export') expect(result.stdout).toBe('');
    }
  });
});
