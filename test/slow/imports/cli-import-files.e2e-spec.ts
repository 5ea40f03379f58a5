import {
  appendFileSync,
  chmodSync,
  closeSync,
  copyFileSync,
  openSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CLI_ENTRY, CliProcess, databaseEnv, eventually, startCli } from '../../support/cli';
import { cliTestBed, flushRedisDb } from '../../support/cli-test-bed';
import { tableRows } from '../../support/table-snapshot';
import { emptyStore } from '../../support/fixtures';
import { TestApp, bootTestApp } from '../../support/test-app';

/** Read from ../shared/data relative to the project root, never copied into the project. */
const DATA = join(__dirname, '../../../../shared/data');
const TRIMMED_MPOX = join(DATA, 'mpox-owid-2023-11-16.csv.gz');
const JHU = join(DATA, 'covid-jhu-2023-03-09.csv.gz');

const HEADER = 'date,country,total_cases,new_cases,total_deaths,new_deaths';
const BOM = '\uFEFF';
/** Where the first chunk of a plain file ends (fs.createReadStream reads 64 KiB at a time). */
const FIRST_CHUNK = 64 * 1024;

/** `days` daily rows per country from 2020-01-01 (valid records, total_cases = day number). */
function dailyRows(countries: string[], days: number): string[] {
  return countries.flatMap((country) =>
    Array.from({ length: days }, (_, day) => {
      const date = new Date(Date.UTC(2020, 0, 1 + day)).toISOString().slice(0, 10);
      return `${date},${country},${day},1,0,0`;
    }),
  );
}

/**
 * `rows` as a CSV file's bytes (with a BOM) in which a three-byte character (’) straddles the end
 * of the first 64 KiB chunk: its first byte is the chunk's last one. The first row's new_cases
 * gets leading zeros (still the number 1) to shift it there.
 */
function straddlingFirstChunk(rows: string[]): Buffer {
  const text = (padding: number) =>
    BOM +
    [HEADER, rows[0].replace(/,1,0,0$/, `,${'0'.repeat(padding)}1,0,0`), ...rows.slice(1)].join(
      '\n',
    );
  const quote = Buffer.from('’');
  const at = Buffer.from(text(0)).lastIndexOf(quote, FIRST_CHUNK - 1);
  const bytes = Buffer.from(text(FIRST_CHUNK - 1 - at));
  expect(bytes.subarray(FIRST_CHUNK - 1, FIRST_CHUNK + 2)).toEqual(quote);
  return bytes;
}

/** Polls until `output()` tells that the import is writing its records (20 s at most). */
function writing(output: () => string): Promise<boolean> {
  return eventually(() => Promise.resolve(/writing .+ \(all or nothing\)/.test(output())), {
    everyMs: 5,
    attempts: 4000,
  });
}

/** The message of an import interrupted by `signal`: nothing of the file was written. */
const interrupted = (signal: string) =>
  `error: interrupted by ${signal}: nothing was imported; importing the file again imports it`;

describe('admin command line: files that import refuses or stops on', () => {
  const bed = cliTestBed('covid-cli-files-');
  const { cli } = bed;
  beforeEach(async () => {
    for (const key of ['covid', 'mpox'] as const) {
      await emptyStore(bed.t.dataSource, key, { history: false });
    }
  });

  it('refuses a damaged gzip file as a whole: nothing of it is written', async () => {
    // Six bytes overwritten in the middle of the deflate stream: gzip notices only at the
    // checksum at the end; the lines decoded in between are garbage that may pass validation.
    const file = join(bed.dir, 'corrupt.csv.gz');
    copyFileSync(TRIMMED_MPOX, file);
    chmodSync(file, 0o600);
    const fd = openSync(file, 'r+');
    writeSync(fd, 'XXXXXX', 60000);
    closeSync(fd);

    const result = await cli('import', 'mpox', file);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${file} is a damaged or truncated gzip file (incorrect data check); nothing was imported\n`,
    });
    expect(await tableRows(bed.t.dataSource, 'mpox_data')).toEqual([]);

    // Damage wins over a byte that is not UTF-8 early on: garbage seldom is UTF-8, and the
    // file should be fetched again, not converted.
    const truncated = join(bed.dir, 'latin1-truncated.csv.gz');
    const latin1 = Buffer.from([HEADER, ...dailyRows(['Curaçao'], 1000)].join('\n'), 'latin1');
    const whole = gzipSync(latin1);
    writeFileSync(truncated, whole.subarray(0, whole.length / 2));
    expect(await cli('import', 'covid', truncated)).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${truncated} is a damaged or truncated gzip file (unexpected end of file); nothing was imported\n`,
    });
  });

  it('refuses a file that is not UTF-8 as a whole, naming the line of the first bad byte', async () => {
    // Latin-1 ç: the parser would have stored U+FFFD in its place (« Fran�e »).
    const latin1 = join(bed.dir, 'latin1.csv');
    writeFileSync(latin1, Buffer.from(`${HEADER}\n2021-01-01,Fran\xe7e,1,1,0,0\n`, 'latin1'));
    expect(await cli('import', 'covid', latin1)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `error: ${latin1} is not UTF-8 text: line 2 holds a byte that is not UTF-8 (a Latin-1 or ` +
        `Windows-1252 file?); nothing was imported; convert the file first, e.g. ` +
        `iconv -f latin1 -t utf-8 ${latin1} > utf8.csv\n`,
    });

    // Deep in a gzip file, after many good lines: Windows-1252's ’ (0x92) in place of UTF-8's
    // three bytes, on line 901.
    const lines = [HEADER, ...dailyRows(['Côte d’Azur', 'Curaçao'], 1000)];
    const text = Buffer.from(lines.join('\n'));
    const at =
      Buffer.byteLength(`${lines.slice(0, 900).join('\n')}\n`) +
      Buffer.from(lines[900]).indexOf('’');
    expect(text.subarray(at, at + 3).toString()).toBe('’');
    const windows = join(bed.dir, 'windows-1252.csv.gz');
    writeFileSync(
      windows,
      gzipSync(Buffer.concat([text.subarray(0, at), Buffer.from([0x92]), text.subarray(at + 3)])),
    );
    const deep = await cli('import', 'covid', windows);
    expect(deep).toMatchObject({ code: 1, stdout: '' });
    expect(deep.stderr).toBe(
      `error: ${windows} is not UTF-8 text: line 901 holds a byte that is not UTF-8 (a Latin-1 or ` +
        `Windows-1252 file?); nothing was imported; convert the file first, e.g. ` +
        `gunzip -c ${windows} | iconv -f latin1 -t utf-8 > utf8.csv\n`,
    );
    expect(await tableRows(bed.t.dataSource, 'covid_data')).toEqual([]);
  });

  it('reads UTF-8 with a BOM and characters split between two chunks', async () => {
    const rows = dailyRows(['Côte d’Azur', 'Curaçao', '🦠land'], 800);
    const plain = join(bed.dir, 'straddling.csv');
    writeFileSync(plain, straddlingFirstChunk(rows));
    // The same rows gzipped (gunzip hands out 16 KiB pieces) and with a BOM.
    const gzip = join(bed.dir, 'utf8-bom.csv.gz');
    writeFileSync(gzip, gzipSync(`${BOM}${[HEADER, ...rows].join('\r\n')}\r\n`));

    for (const [file, inserted, unchanged] of [
      [plain, rows.length, 0],
      [gzip, 0, rows.length],
    ] as const) {
      const result = await cli('import', 'covid', file);
      expect({ file, code: result.code, stderr: result.stderr }).toEqual({
        file,
        code: 0,
        stderr: '',
      });
      expect(result.stdout).toContain(
        `format:    trimmed\nrows read: ${rows.length}\ninserted:  ${inserted}\nupdated:   0\nunchanged: ${unchanged}\n`,
      );
    }
    const stored = await tableRows(bed.t.dataSource, 'covid_data');
    const lines = stored.map((r) => `${r.date},${r.country},${r.total_cases},${r.new_cases},0,0`);
    expect(lines.sort()).toEqual([...rows].sort());
  });

  it('says that a header it cannot read is unreadable, not that the file is empty', async () => {
    const file = join(bed.dir, 'badheader.csv');
    writeFileSync(file, '"date,country\n2021-01-01,Q\n');
    expect(await cli('import', 'covid', file)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `error: ${file} has no readable CSV header (Quote Not Closed: the parsing is finished ` +
        'with an opening quote at line 2); nothing was imported\n',
    });
  });

  it('refuses a file without line breaks once its first record exceeds 64 KiB', async () => {
    // Before the limit, csv-parse piled the whole file into one field (a few MB: seconds; a huge
    // file: minutes and a gigabyte of memory), then said `unrecognised CSV header`.
    const file = join(bed.dir, 'no-newline.csv');
    writeFileSync(file, 'date,country,'.repeat(400_000));
    expect(await cli('import', 'covid', file)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `error: ${file} has no readable CSV header (the first record exceeds 65536 bytes by ` +
        'line 1, while rows of these files are under 1 KB: line breaks missing, or a quote left ' +
        'open); nothing was imported\n',
    });
  });

  it('refuses a file with a record that exceeds 64 KiB: nothing of it is written', async () => {
    // A quote left open on line 6002 swallows the lines after it into one field: the parser
    // used to report one bad row at the end of the file, and to lose every row after it.
    const before = dailyRows(['Chile'], 1000).concat(
      dailyRows(['Peru', 'Chad', 'Cuba'], 1000),
      dailyRows(['Mali', 'Iran'], 1000),
    );
    const after = dailyRows(['Oman', 'Fiji', 'Togo'], 1000);
    const file = join(bed.dir, 'open-quote.csv');
    writeFileSync(file, [HEADER, ...before, '2021-01-01,"Open, 1,1,0,0', ...after].join('\n'));
    const stored = await tableRows(bed.t.dataSource, 'covid_data');
    const history = await tableRows(bed.t.dataSource, 'covid_revisions');
    const result = await cli('import', 'covid', file);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'rows read: 6000\ninserted:  0\nupdated:   0\nunchanged: 0\nskipped:   0\n',
    );
    // The 65536 bytes run out on line 8535 (the lines after line 6002 have 24 to 26 bytes).
    expect(result.stderr).toBe(
      `error: ${file}: the CSV record after line 6001 exceeds 65536 bytes by line 8535, while ` +
        'rows of these files are under 1 KB: line breaks missing, or a quote left open; ' +
        'nothing was imported\n',
    );
    expect(await tableRows(bed.t.dataSource, 'covid_data')).toEqual(stored);
    expect(await tableRows(bed.t.dataSource, 'covid_revisions')).toEqual(history);
  });

  it('refuses a file written to while it is imported: nothing of it is written', async () => {
    // 225,000 rows: long enough to append a row while they are parsed.
    const countries = Array.from({ length: 300 }, (_, i) => `Land ${i}`);
    const file = join(bed.dir, 'growing.csv');
    writeFileSync(file, [HEADER, ...dailyRows(countries, 750)].join('\n') + '\n');
    const importing = startCli(['import', 'covid', file], bed.env);
    try {
      expect(
        await eventually(
          () => Promise.resolve(importing.stderr().includes('progress: 50000 rows read')),
          {
            everyMs: 5,
            attempts: 4000,
          },
        ),
      ).toBe(true);
      appendFileSync(file, '2023-01-01,Land 0,1,1,0,0\n');
      const result = await importing.result;

      expect(result.code).toBe(1);
      expect(result.stdout).toContain('inserted:  0\nupdated:   0\nunchanged: 0\nskipped:   0\n');
      expect(result.stderr.split('\n').filter((l) => !l.startsWith('progress: '))).toEqual([
        `error: ${file} was written to while it was imported; nothing was imported`,
        '',
      ]);
      expect(await tableRows(bed.t.dataSource, 'covid_data')).toEqual([]);
    } finally {
      importing.child.kill('SIGKILL');
    }
  });

  it('puts the terminal back after Ctrl-C: cursor shown, line wrap on, summary printed', async () => {
    // `script` (util-linux) runs the command on a terminal of its own, where the progress bar
    // hides the cursor and turns line wrap off; ^C typed there is SIGINT.
    const command = [process.execPath, CLI_ENTRY, 'import', 'covid', JHU]
      .map((word) => `'${word}'`)
      .join(' ');
    const terminal = spawn('script', ['-qefc', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', TERM: 'xterm', ...bed.env },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let output = '';
    terminal.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => terminal.on('close', resolve));
    try {
      // Interrupted while it writes: the transaction is rolled back.
      expect(await writing(() => output)).toBe(true);
      terminal.stdin.write('\x03');
      expect(await exited).toBe(130);
    } finally {
      terminal.kill('SIGKILL');
    }
    const hidden = output.lastIndexOf('\x1b[?25l\x1b[?7l');
    expect(hidden).toBeGreaterThanOrEqual(0);
    expect(output.slice(hidden)).toContain('\x1b[?25h\x1b[?7h');
    expect(await tableRows(bed.t.dataSource, 'covid_data')).toEqual([]);
    // MySQL writes as it reads: the signal may stop the reading before the end of the file.
    expect(output).toMatch(
      /format: {4}trimmed\r\nrows read: \d+\r\ninserted: {2}0\r\nupdated: {3}0\r\nunchanged: 0\r\nskipped: {3}0\r\n/,
    );
    expect(output.endsWith(`\r\n${interrupted('SIGINT')}\r\n`)).toBe(true);
  });
});

describe('admin command line: import seen by API instances that share Redis (REDIS_URL)', () => {
  /** A Redis database of this file's own (the other files use 1 to 3), flushed first. */
  const REDIS_URL = 'redis://127.0.0.1:6379/5';

  beforeAll(() => flushRedisDb(REDIS_URL));

  const totalsOf = async (t: TestApp) =>
    (await t.http.get('/api/covid/public/totals')).body as Record<string, number>;

  /** Polls (every 20 ms, 2 s at most): true once `t` answers totals above zero. */
  const totalsBecomeNonZero = (t: TestApp) =>
    eventually(async () => (await totalsOf(t)).total_cases > 0, { everyMs: 20, attempts: 100 });

  /**
   * An instance that caches its reads for an hour (and has cached the empty table) and, on the
   * same database, one without cache that tells the truth; `run` gets them and the import started.
   */
  async function whileImporting(
    run: (cached: TestApp, truth: TestApp, cli: CliProcess) => Promise<void>,
  ): Promise<void> {
    const cached = await bootTestApp({ REDIS_URL, CACHE_TTL_MS: '3600000' });
    const truth = await bootTestApp({ CACHE_TTL_MS: '0' }, {}, cached);
    try {
      expect((await totalsOf(cached)).total_cases).toBe(0);
      const cli = startCli(['import', 'covid', JHU], {
        ...databaseEnv(cached.config.db),
        REDIS_URL,
      });
      try {
        await run(cached, truth, cli);
      } finally {
        cli.child.kill('SIGKILL');
      }
    } finally {
      await truth.close();
      await cached.close();
    }
  }

  it('drop their cached reads once the import has committed', () =>
    whileImporting(async (cached, truth, cli) => {
      const result = await cli.result;
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('inserted:  225171\n');
      expect(await totalsBecomeNonZero(cached)).toBe(true);
      expect((await totalsOf(cached)).total_cases).toBe((await totalsOf(truth)).total_cases);
    }));

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('see nothing of an import %s stopped while it wrote (exit code %i)', (signal, code) =>
    whileImporting(async (cached, truth, cli) => {
      expect(await writing(cli.stderr)).toBe(true);
      cli.child.kill(signal);
      const result = await cli.result;
      expect(result.code).toBe(code);

      // Rolled back whole: no record, no revision.
      expect(await tableRows(cached.dataSource, 'covid_data')).toEqual([]);
      expect(await tableRows(cached.dataSource, 'covid_revisions')).toEqual([]);
      expect(result.stdout).toMatch(
        /^format: {4}trimmed\nrows read: \d+\ninserted: {2}0\nupdated: {3}0\nunchanged: 0\nskipped: {3}0\n/,
      );
      const messages = result.stderr.split('\n').filter((l) => !l.startsWith('progress: '));
      expect(messages).toEqual([interrupted(signal), '']);
      expect((await totalsOf(truth)).total_cases).toBe(0);
      expect((await totalsOf(cached)).total_cases).toBe(0);
    }),
  );
});
