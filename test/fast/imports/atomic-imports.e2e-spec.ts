import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { cliTestBed } from '../../support/cli-test-bed';
import { SourceServer } from '../../support/source-server';
import { historySnapshot, snapshot } from '../../support/table-snapshot';
import { TEST_DB_TYPE } from '../../support/test-database';

const HEADER = 'date,country,total_cases,new_cases,total_deaths,new_deaths';

/** `days` daily rows for each of `countries`, from 2022-01-01, figures from `base`. */
function rows(countries: string[], days: number, base = 0): string[] {
  return countries.flatMap((country) =>
    Array.from({ length: days }, (_, day) => {
      const date = new Date(Date.UTC(2022, 0, 1 + day)).toISOString().slice(0, 10);
      return `${date},${country},${base + day},1,0,0`;
    }),
  );
}

const COUNTRIES = ['Chile', 'Peru', 'Chad', 'Cuba', 'Mali', 'Iran'];
/** 3,000 rows: three chunks of the upsert, so a failure at its end follows committed-looking work. */
const GOOD = rows(COUNTRIES, 500, 100);

/** Fails any write of the country `Boom`: a database error in the middle of an import. */
async function failingCountry(query: (sql: string) => Promise<unknown>): Promise<void> {
  if (TEST_DB_TYPE === 'mysql') {
    await query('DROP TRIGGER IF EXISTS covid_boom');
    await query(
      `CREATE TRIGGER covid_boom BEFORE INSERT ON covid_data FOR EACH ROW
       BEGIN IF NEW.country = 'Boom' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'boom'; END IF; END`,
    );
  } else {
    await query('DROP TRIGGER IF EXISTS covid_boom');
    await query(
      `CREATE TRIGGER covid_boom BEFORE INSERT ON covid_data WHEN NEW.country = 'Boom'
       BEGIN SELECT RAISE(ABORT, 'boom'); END`,
    );
  }
}

describe('imports apply whole or not at all (CLI, both databases)', () => {
  const bed = cliTestBed('covid-atomic-');
  const server = new SourceServer();
  const state = async () =>
    (await snapshot(bed.t.dataSource)) + (await historySnapshot(bed.t.dataSource, 'covid'));

  beforeAll(async () => {
    server.routes['/cut.csv'] = {
      seen: [],
      answer(res) {
        const body = [HEADER, ...rows(COUNTRIES, 500, 7)].join('\n');
        res.writeHead(200, { 'content-length': Buffer.byteLength(body) });
        // Half of the body, then the connection is cut.
        res.write(body.slice(0, body.length / 2), () => res.destroy());
      },
    };
    await server.start();
    // A store with records and a history of them.
    const file = join(bed.dir, 'first.csv');
    writeFileSync(file, [HEADER, ...GOOD].join('\n'));
    expect((await bed.cli('import', 'covid', file)).code).toBe(0);
  });
  afterAll(() => server.stop());

  it('records the applied file as a source: import id, hash, counts, and its revisions carry the id', async () => {
    const file = join(bed.dir, 'second.csv');
    const content = [HEADER, ...rows(COUNTRIES, 501, 100), '2023-06-01,Chile,,,,'].join('\n');
    writeFileSync(file, content);
    const result = await bed.cli('import', 'covid', file);
    expect(result.code).toBe(0);
    const sources = await bed.t.http.get('/api/sources').set(bed.t.auth());
    // Named by the file's name: the server's folders are not shown.
    const url = 'second.csv';
    const source = (sources.body as { sources: Record<string, unknown>[] }).sources.find(
      (s) => s.url === url,
    );
    expect(source).toEqual({
      dataset: 'covid',
      url,
      scheduled: false,
      last_attempt_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      last_success_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      outcome: 'updated',
      rows_inserted: 6,
      rows_updated: 0,
      rows_unchanged: 3000,
      rows_skipped: 1,
      figures_corrected: 0,
      last_import_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      last_error: null,
      next_run_at: null,
    });
    const carried = await bed.t.dataSource.query<
      { actor: string; request_id: string; n: unknown }[]
    >(
      `SELECT actor, request_id, COUNT(*) AS n FROM covid_revisions WHERE request_id = ?
       GROUP BY actor, request_id`,
      [source?.last_import_id],
    );
    expect(carried.map((r) => ({ ...r, n: Number(r.n) }))).toEqual([
      { actor: 'import:second.csv', request_id: source?.last_import_id, n: 6 },
    ]);
    const hash = createHash('sha256').update(content).digest('hex');
    const [row] = await bed.t.dataSource.query<{ content_hash: string }[]>(
      'SELECT content_hash FROM sources WHERE url = ?',
      [pathToFileURL(file).href],
    );
    expect(row.content_hash).toBe(hash);
    const listed = await bed.cli('sources');
    expect(listed.stdout).toContain(
      `covid ${url}\n  last attempt: ${String(source?.last_attempt_at)}  updated\n` +
        `  last success: ${String(source?.last_success_at)}\n` +
        '  rows:         6 inserted, 0 updated, 3000 unchanged, 1 skipped\n' +
        '  corrected:    0 figure(s) (docs/corrections.md)\n' +
        `  last import:  ${String(source?.last_import_id)}\n`,
    );
  });

  it('a bad row at the end of the file: nothing written, not even the rows before it', async () => {
    const before = await state();
    const file = join(bed.dir, 'bad-row.csv');
    writeFileSync(
      file,
      [HEADER, ...rows(COUNTRIES, 600, 9), '2022-13-01,Chile,1,1,0,0'].join('\n'),
    );
    const result = await bed.cli('import', 'covid', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "line 3602: date : 2022-13-01 n'est pas une date du calendrier\n" +
        'error: 1 invalid row(s) (see their line numbers above); nothing was imported\n',
    );
    expect(await state()).toBe(before);
  });

  it('a gzip file cut in its middle: nothing written', async () => {
    const before = await state();
    const file = join(bed.dir, 'cut.csv.gz');
    const whole = gzipSync([HEADER, ...rows(COUNTRIES, 600, 11)].join('\n'));
    writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)));
    const result = await bed.cli('import', 'covid', file);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${file} is a damaged or truncated gzip file (unexpected end of file); nothing was imported\n`,
    });
    expect(await state()).toBe(before);
  });

  it('a download cut in its middle: nothing written, and the error names the URL', async () => {
    const before = await state();
    const url = `${server.base}/cut.csv`;
    const result = await bed.cli('import', 'covid', url);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^error: .*${url.replace(/[.?/]/g, '\\$&')}`));
    expect(result.stderr).not.toMatch(/\/tmp\//);
    expect(await state()).toBe(before);
  });

  it('a database error on its last row: the rows before it are rolled back', async () => {
    await failingCountry((sql) => bed.t.dataSource.query(sql));
    try {
      const before = await state();
      const file = join(bed.dir, 'boom.csv');
      writeFileSync(
        file,
        [HEADER, ...rows(COUNTRIES, 700, 13), '2022-01-01,Boom,1,1,0,0'].join('\n'),
      );
      const result = await bed.cli('import', 'covid', file);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('inserted:  0\nupdated:   0\nunchanged: 0\n');
      expect(result.stderr).toMatch(
        /^error: writing the records failed, nothing was imported: .*boom.*\n$/,
      );
      expect(await state()).toBe(before);
      // The same file without the failing row applies whole.
      writeFileSync(file, [HEADER, ...rows(COUNTRIES, 700, 13)].join('\n'));
      const again = await bed.cli('import', 'covid', file);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('inserted:  1194\nupdated:   3006\nunchanged: 0\n');
    } finally {
      await bed.t.dataSource.query('DROP TRIGGER IF EXISTS covid_boom');
    }
  });
  it('a file read again writes only what changed; a key named twice keeps its last values', async () => {
    // 1,200 rows: on SQLite, compared with the stored records before the write lock is taken.
    const base = rows(['Fiji', 'Oman'], 600, 5);
    const first = join(bed.dir, 'again-1.csv');
    writeFileSync(first, [HEADER, ...base].join('\n'));
    expect((await bed.cli('import', 'covid', first)).code).toBe(0);
    const changed = [...base];
    changed[3] = '2022-01-04,Fiji,999,1,0,0';
    changed[604] = '2022-01-05,Oman,777,1,0,0';
    const again = join(bed.dir, 'again-2.csv');
    // Oman's 2022-01-05 changed, then named again with its stored values.
    writeFileSync(again, [HEADER, ...changed, base[604]].join('\n'));
    expect((await bed.cli('import', 'covid', again)).code).toBe(0);

    const sources = await bed.t.http.get('/api/sources').set(bed.t.auth());
    const source = (sources.body as { sources: Record<string, unknown>[] }).sources.find(
      (s) => s.url === 'again-2.csv',
    );
    expect(source).toMatchObject({ rows_inserted: 0, rows_updated: 3, rows_unchanged: 1198 });
    const figure = async (country: string, date: string) => {
      const res = await bed.t.http
        .get(`/api/covid/data?country=${country}&from=${date}&to=${date}`)
        .set(bed.t.auth());
      return (res.body as { total_cases: number }[]).map((r) => r.total_cases);
    };
    expect(await figure('Fiji', '2022-01-04')).toEqual([999]);
    expect(await figure('Oman', '2022-01-05')).toEqual([9]);
    const revisions = await bed.t.dataSource.query<{ country: string; total_cases: unknown }[]>(
      'SELECT country, total_cases FROM covid_revisions WHERE request_id = ? ORDER BY id',
      [source?.last_import_id],
    );
    expect(revisions.map((r) => [r.country, Number(r.total_cases)])).toEqual([
      ['Fiji', 999],
      ['Oman', 777],
      ['Oman', 9],
    ]);
  });
});
