import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../support/cli';
import { onlyOn } from '../../support/database-only';

/**
 * A SQLite `DB_PATH` that does not exist (mistyped, or relative and run from another folder):
 * commands that read or change what is there refuse it instead of answering from a new, empty
 * database; an import or a first token creates it, and says so.
 */
onlyOn('sqlite').describe('admin command line: DB_PATH', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'covid-cli-path-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [['tokens', 'list']],
    [['tokens', 'rotate', 'partner']],
    [['tokens', 'revoke', 'partner']],
    [['export', 'covid']],
  ])('refuses %p on a database file that does not exist, and creates none', async (args) => {
    const path = join(dir, 'missing', 'covid.sqlite');
    const result = await runCli(args, { DB_TYPE: 'sqlite', DB_PATH: path });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: no SQLite database at ${path} (DB_PATH): run the command from the API's folder or set DB_PATH\n`,
    });
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('creates the database for a first token, with a note', async () => {
    const path = join(dir, 'new', 'covid.sqlite');
    const result = await runCli(['tokens', 'create', 'partner'], {
      DB_TYPE: 'sqlite',
      DB_PATH: path,
    });
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe(
      `note: no SQLite database at ${path} (DB_PATH): a new one is created`,
    );
    expect(existsSync(path)).toBe(true);
    const listed = await runCli(['tokens', 'list'], { DB_TYPE: 'sqlite', DB_PATH: path });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^CLIENT .*\npartner +cmx_/);
  });
});
