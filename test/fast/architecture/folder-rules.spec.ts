import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '../../..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/** The folders `npm run lint:architecture` cruises, read from its script. */
function cruisedFolders(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const match = /^depcruise ((?:[a-z]+ )+)--config \.dependency-cruiser\.cjs$/.exec(
    scripts['lint:architecture'],
  );
  if (match === null) throw new Error(`lint:architecture: ${scripts['lint:architecture']}`);
  return match[1].trim().split(' ');
}

/** A small source tree in the house's layout: an app, a library reached by its alias. */
const CLEAN: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { baseUrl: '.', paths: { '@app/lib': ['libs/lib/src'] } },
  }),
  'libs/lib/src/index.ts': "export * from './parts/part';\n",
  'libs/lib/src/parts/part.ts': 'export const part = 1;\n',
  'apps/app/src/main.ts': "import { a } from './a/a';\nexport const main = a;\n",
  'apps/app/src/a/a.ts': "import { b } from '../b/b';\nexport const a = b;\n",
  'apps/app/src/b/b.ts': "import { part } from '@app/lib';\nexport const b = part;\n",
  'bench/src/bench.ts': "import { part } from '@app/lib';\nexport const bench = part;\n",
};

describe('the folder rules (npm run lint:architecture, .dependency-cruiser.cjs)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'folder-rules-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the rules over `files` as the npm script does: its exit code and report. */
  function cruise(files: Record<string, string>): { code: number | null; report: string } {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const result = spawnSync(
      process.execPath,
      [DEPCRUISE, ...cruisedFolders(), '--config', CONFIG, '--output-type', 'err'],
      { cwd: dir, encoding: 'utf8' },
    );
    return { code: result.status, report: result.stdout + result.stderr };
  }

  it('passes a tree whose folders import one way', () => {
    const { code, report } = cruise(CLEAN);
    expect(report).toContain('no dependency violations found');
    expect(code).toBe(0);
  });

  it('fails on each rule broken, naming the rule and the files or folders', () => {
    const { code, report } = cruise({
      ...CLEAN,
      // Folders a and b import each other, though no file imports itself back.
      'apps/app/src/b/b.ts': "import { c } from '../a/c';\nexport const b = c;\n",
      'apps/app/src/a/c.ts': 'export const c = 3;\n',
      // Two files that import each other, in a folder of their own.
      'apps/app/src/e/e.ts': "import { f } from './f';\nexport const e = f;\n",
      'apps/app/src/e/f.ts': "import { e } from './e';\nexport const f = e;\n",
      'apps/app/src/main.ts':
        "import { a } from './a/a';\nimport { e } from './e/e';\nexport const main = [a, e];\n",
      // A library that imports an application, and an application one of a library's files.
      'libs/lib/src/parts/part.ts':
        "import { b } from '../../../../apps/app/src/b/b';\nexport const part = b;\n",
      'bench/src/bench.ts':
        "import { part } from '../../libs/lib/src/parts/part';\nexport const bench = part;\n",
      // A file nothing imports and that imports nothing.
      'apps/app/src/a/left-over.ts': 'export {};\n',
    });
    expect(code).not.toBe(0);
    expect(report).toMatch(
      /error no-folder-cycles: apps\/app\/src\/a → \s*apps\/app\/src\/b →\s*apps\/app\/src\/a/,
    );
    expect(report).not.toMatch(/no-file-cycles: apps\/app\/src\/[ab]\//);
    expect(report).toContain('error no-file-cycles: apps/app/src/e/e.ts → ');
    expect(report).toContain(
      'error libs-never-import-apps: libs/lib/src/parts/part.ts → apps/app/src/b/b.ts',
    );
    expect(report).toContain(
      'error no-library-internals: bench/src/bench.ts → libs/lib/src/parts/part.ts',
    );
    expect(report).toContain('error no-orphans: apps/app/src/a/left-over.ts');
  });
});
