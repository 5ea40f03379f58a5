import {
  chmodSync,
  copyFileSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseEnv, runCli } from './support/cli';
import { tableRows } from './support/table-snapshot';
import { TestApp, bootTestApp } from './support/test-app';

/** Read from ../shared/data relative to the project root, never copied into the project. */
const DATA = join(__dirname, '../../shared/data');
const TRIMMED_MPOX = join(DATA, 'mpox-owid-2023-11-16.csv.gz');

describe('admin command line: files that import refuses or stops on', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let dir: string;
  const cli = (...args: string[]) => runCli(args, env);

  beforeAll(async () => {
    t = await bootTestApp();
    env = databaseEnv(t.config.db);
    dir = mkdtempSync(join(tmpdir(), 'covid-cli-files-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    for (const table of ['covid_data', 'mpox_data'])
      await t.dataSource.query(`DELETE FROM ${table}`);
  });

  it('refuses a damaged gzip file as a whole: nothing of it is written', async () => {
    // Six bytes overwritten in the middle of the deflate stream: gzip notices only at the
    // checksum at the end; the lines decoded in between are garbage that may pass validation.
    const file = join(dir, 'corrupt.csv.gz');
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
    expect(await tableRows(t.dataSource, 'mpox_data')).toEqual([]);
  });
});
