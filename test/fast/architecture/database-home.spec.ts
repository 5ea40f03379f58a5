import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '../../..');
const BINARIES: Record<string, string> = {
  depcruise: join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
  eslint: join(ROOT, 'node_modules/eslint/bin/eslint.js'),
};

/** The commands of `npm run lint:architecture`, read from its script, split at `&&`. */
function architectureCommands(): string[][] {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return scripts['lint:architecture'].split(' && ').map((command) => command.trim().split(/\s+/));
}

/** A source tree in the house's layout: an app, a bench, a library and the database library. */
const CLEAN: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      baseUrl: '.',
      paths: { '@app/database': ['libs/database/src'], '@app/lib': ['libs/lib/src'] },
    },
  }),
  'libs/lib/src/index.ts': "export const lower = 'SELECTED';\n",
  'libs/database/src/index.ts': "export * from './records/record.repository';\n",
  'libs/database/src/records/record.repository.ts':
    "import { DataSource } from 'typeorm';\n" +
    'export const latest = (dataSource: DataSource, table: string) =>\n' +
    '  dataSource.query(`SELECT id FROM ${table} ORDER BY id DESC LIMIT ?`, [10]);\n',
  'apps/app/src/main.ts':
    "import { latest } from '@app/database';\nimport { lower } from '@app/lib';\n" +
    // Prose and HTTP methods are not SQL.
    "export const help = ['set a limit', 'DELETE', 'Select the rows', lower];\n" +
    'export const main = latest;\n',
  // Unit specs make fixtures and throw-away databases: they may.
  'apps/app/src/main.spec.ts':
    "import { DataSource } from 'typeorm';\nexport const fixture = (d: DataSource) => d.query('DELETE FROM t');\n",
  'bench/src/bench.ts': "import { main } from '../../apps/app/src/main';\nexport const b = main;\n",
};

describe('SQL and the DataSource only in libs/database (npm run lint:architecture)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'database-home-'));
    // The packages resolve as in the project, the configuration files are the project's.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    for (const command of architectureCommands()) {
      const at = command.indexOf('--config');
      if (at !== -1) copyFileSync(join(ROOT, command[at + 1]), join(dir, command[at + 1]));
    }
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the script's commands over `files` as npm does (`&&`): the exit code and report. */
  function lint(files: Record<string, string>): { code: number | null; report: string } {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    let report = '';
    for (const [binary, ...args] of architectureCommands()) {
      if (BINARIES[binary] === undefined) throw new Error(`lint:architecture runs ${binary}`);
      const result = spawnSync(process.execPath, [BINARIES[binary], ...args], {
        cwd: dir,
        encoding: 'utf8',
      });
      report += result.stdout + result.stderr;
      if (result.status !== 0) return { code: result.status, report };
    }
    return { code: 0, report };
  }

  it('passes SQL and TypeORM in libs/database, prose elsewhere, and unit specs', () => {
    const { code, report } = lint(CLEAN);
    expect(report).toContain('no dependency violations found');
    expect(report).not.toContain('error');
    expect(code).toBe(0);
  });

  it('fails on TypeORM or a driver imported by an app, a library or the bench', () => {
    const { code, report } = lint({
      ...CLEAN,
      'apps/app/src/main.ts':
        "import { latest } from '@app/database';\nimport { DataSource } from 'typeorm';\n" +
        'export const main = (d: DataSource) => latest(d, "t");\n',
      'libs/lib/src/index.ts':
        "import type { Pool } from 'mysql2/promise';\nexport type P = Pool;\n",
      'bench/src/bench.ts':
        "import { main } from '../../apps/app/src/main';\nimport type { P } from '../../libs/lib/src';\n" +
        "import { TypeOrmModule } from '@nestjs/typeorm';\nexport const b = [main, TypeOrmModule];\n" +
        'export type Q = P;\n',
    });
    expect(code).not.toBe(0);
    for (const [from, to] of [
      ['apps/app/src/main.ts', 'typeorm'],
      ['libs/lib/src/index.ts', 'mysql2'],
      ['bench/src/bench.ts', '@nestjs/typeorm'],
    ]) {
      expect(report).toMatch(
        new RegExp(`error database-packages-only-in-database: ${from} → \\S*node_modules/${to}/`),
      );
    }
    expect(report).not.toMatch(/database-packages-only-in-database: (libs\/database|\S+\.spec)/);
  });

  it('fails on SQL text outside libs/database, in a string or a template', () => {
    const { code, report } = lint({
      ...CLEAN,
      'apps/app/src/main.ts':
        "import { latest } from '@app/database';\n" +
        "export const lock = 'SELECT GET_LOCK(?, 0) AS got';\n" +
        'export const purge = (table: string) => `\n  DELETE FROM ${table} WHERE id = ?`;\n' +
        // A comment does not turn the rule off.
        '// eslint-disable-next-line no-restricted-syntax\n' +
        "export const size = 'SHOW TABLE STATUS';\n" +
        "import { lower } from '@app/lib';\nexport const main = [latest, lower];\n",
    });
    expect(code).not.toBe(0);
    expect(report).toContain('apps/app/src/main.ts');
    expect(report.match(/error {2}SQL text lives in libs\/database/g)).toHaveLength(3);
    expect(report).toMatch(/2:21 +error/);
    expect(report).toMatch(/3:41 +error/);
    expect(report).toMatch(/6:21 +error/);
    expect(report).not.toContain('record.repository.ts');
  });
});
