import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
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
  const match = /^depcruise ((?:[a-z]+ )+)--config \.dependency-cruiser\.cjs(?: && |$)/.exec(
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
  // A repository in the one home of persistence.
  'libs/database/src/index.ts': "export * from './records/record.repository';\n",
  'libs/database/src/records/record.repository.ts':
    "import { run } from '../sql-runner';\nexport const record = run;\n",
  // The one runner of SQL, through its index.
  'libs/database/src/sql-runner/index.ts': "export * from './sql-runner';\n",
  'libs/database/src/sql-runner/sql-runner.ts': 'export const run = 1;\n',
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
        "import { a } from './a/a';\nimport { e } from './e/e';\nimport { g } from './g/record.repository';\n" +
        'export const main = [a, e, g];\n',
      // A library that imports an application, and an application one of a library's files.
      'libs/lib/src/parts/part.ts':
        "import { b } from '../../../../apps/app/src/b/b';\nexport const part = b;\n",
      'bench/src/bench.ts':
        "import { part } from '../../libs/lib/src/parts/part';\nexport const bench = part;\n",
      // A file nothing imports and that imports nothing.
      'apps/app/src/a/left-over.ts': 'export {};\n',
      // A repository outside libs/database.
      'apps/app/src/g/record.repository.ts':
        "import { part } from '@app/lib';\nexport const g = part;\n",
      // A repository that reaches into the runner's files.
      'libs/database/src/records/record.repository.ts':
        "import { run } from '../sql-runner/sql-runner';\nexport const record = run;\n",
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
    expect(report).toContain(
      'error repositories-live-in-database: apps/app/src/g/record.repository.ts → libs/lib/src/index.ts',
    );
    expect(report).toContain(
      'error sql-through-the-runner: libs/database/src/records/record.repository.ts → libs/database/src/sql-runner/sql-runner.ts',
    );
    expect(report).not.toMatch(/repositories-live-in-database: libs\/database/);
  });
});

/** The TypeScript sources under `folders` of `root` (specs left out), relative to `root`. */
function sources(root: string, folders: string[]): string[] {
  return folders
    .filter((folder) => existsSync(join(root, folder)))
    .flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' }).map((file) =>
        join(folder, file).split('\\').join('/'),
      ),
    )
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
    .sort();
}

/** The sources outside libs/database/src that send SQL of their own (`.query(`, a query runner). */
function sqlOutsideDatabase(root: string): string[] {
  return sources(root, ['apps', 'libs']).filter(
    (file) =>
      !file.startsWith('libs/database/src/') &&
      /\.query\s*[<(]|createQueryRunner\s*\(/.test(readFileSync(join(root, file), 'utf8')),
  );
}

/** The sources (and the tests' shared helpers) of more than `max` lines. */
function longerThan(root: string, max: number): string[] {
  return sources(root, ['apps', 'libs', 'test/support']).filter(
    (file) => readFileSync(join(root, file), 'utf8').split('\n').length - 1 > max,
  );
}

/** The topics docs/testing.md names in its paragraph on them: each a quoted word before its "(". */
function documentedTopics(root: string): string[] {
  const text = readFileSync(join(root, 'docs/testing.md'), 'utf8');
  const start = text.indexOf('Both layers use the same topics');
  const paragraph = text.slice(start, text.indexOf('\n\n', start));
  return [...paragraph.matchAll(/`([a-z]+(?:-[a-z]+)*)`\s+\(/g)].map((match) => match[1]);
}

/** The test layers' folders docs/testing.md does not name, and the topics it names of no folder. */
function topicMismatches(root: string): string[] {
  const topics = documentedTopics(root);
  const folders = ['test/fast', 'test/slow'].flatMap((layer) =>
    readdirSync(join(root, layer), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${layer}/${entry.name}`),
  );
  const named = (folder: string) => topics.includes(folder.slice(folder.lastIndexOf('/') + 1));
  return [
    ...folders.filter((folder) => !named(folder)),
    ...topics
      .filter((topic) => !folders.some((folder) => folder.endsWith(`/${topic}`)))
      .map((topic) => `docs/testing.md: ${topic}`),
  ].sort();
}

/** The helpers that make a suite slow (docs/testing.md, "Which layer"): a server or a browser. */
const SLOW_HELPERS =
  /\b(startApi|startNginx|launchChromium|serveToBrowser)\(|\bnew (PrivateMariaDb|DedicatedMariaDb)\b/;

/** The fast layer's suites under `root`'s `test/fast` that call one of the slow layer's helpers. */
function slowInFast(root: string): string[] {
  return (
    readdirSync(join(root, 'test/fast'), { recursive: true, encoding: 'utf8' })
      .map((file) => `test/fast/${file.split('\\').join('/')}`)
      // This file names the helpers in its examples.
      .filter((file) => file.endsWith('.ts') && join(root, file) !== __filename)
      .filter((file) => SLOW_HELPERS.test(readFileSync(join(root, file), 'utf8')))
      .sort()
  );
}

describe("the libraries' order (npm run lint:architecture)", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'library-order-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Two libraries and an app that imports both, `messaging` importing `imported`. */
  function cruise(imported: string): { code: number | null; report: string } {
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          baseUrl: '.',
          paths: {
            '@app/messaging': ['libs/messaging/src'],
            [`@app/${imported}`]: [`libs/${imported}/src`],
          },
        },
      }),
      [`libs/${imported}/src/index.ts`]: 'export const lower = 1;\n',
      'libs/messaging/src/index.ts': `import { lower } from '@app/${imported}';\nexport const m = lower;\n`,
      'apps/app/src/main.ts':
        "import { m } from '@app/messaging';\n" +
        `import { lower } from '@app/${imported}';\nexport const main = [m, lower];\n`,
      'bench/src/bench.ts':
        "import { main } from '../../apps/app/src/main';\nexport const b = main;\n",
    };
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

  it('lets messaging import config, and refuses countries though no cycle would form', () => {
    const allowed = cruise('config');
    expect(allowed.report).toContain('no dependency violations found');
    expect(allowed.code).toBe(0);
    const refused = cruise('countries');
    expect(refused.code).not.toBe(0);
    expect(refused.report).toContain(
      'error library-order-messaging: libs/messaging/src/index.ts → libs/countries/src/index.ts',
    );
  });
});

describe('the house rules a scan keeps (decision 0035, issue 46)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'house-rules-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function tree(files: Record<string, string>): void {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  }

  it('finds SQL sent from outside libs/database, and none in the source', () => {
    tree({
      'libs/database/src/records/record.repository.ts': "await manager.query('SELECT 1');\n",
      'libs/lib/src/misplaced.ts': "await manager.query<Row[]>('SELECT 1');\n",
      'apps/app/src/runner.ts': 'const runner = dataSource.createQueryRunner();\n',
      'apps/app/src/reads.ts': 'const query = request.query;\n',
      'apps/app/src/reads.spec.ts': "await dataSource.query('SELECT 1');\n",
    });
    expect(sqlOutsideDatabase(dir)).toEqual([
      'apps/app/src/runner.ts',
      'libs/lib/src/misplaced.ts',
    ]);
    expect(sqlOutsideDatabase(ROOT)).toEqual([]);
  });

  it('skips a test on one database only through onlyOn (test/support/database-only.ts)', () => {
    const tests = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
      .map((file) => `test/${file.split('\\').join('/')}`)
      .filter((file) => file.endsWith('.ts') && file !== 'test/support/database-only.ts');
    expect(tests.length).toBeGreaterThan(100);
    const ownSkips = tests.filter((file) =>
      /TEST_DB_TYPE[^;\n]*\b(it|describe)\.skip\b/.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(ownSkips).toEqual([]);
  });

  it('finds a fast suite that starts a server or a browser, and none in the tests', () => {
    tree({
      'test/fast/api/served.e2e-spec.ts': 'const api = await startApi(env);\n',
      'test/fast/dashboard/browsed.e2e-spec.ts': 'const browser = await launchChromium();\n',
      'test/fast/operations/outage.e2e-spec.ts': 'const db = new DedicatedMariaDb();\n',
      'test/fast/imports/commands.e2e-spec.ts': "await bed.cli('import', 'covid', file);\n",
      'test/slow/api/served.e2e-spec.ts': 'const api = await startApi(env);\n',
    });
    expect(slowInFast(dir)).toEqual([
      'test/fast/api/served.e2e-spec.ts',
      'test/fast/dashboard/browsed.e2e-spec.ts',
      'test/fast/operations/outage.e2e-spec.ts',
    ]);
    expect(slowInFast(ROOT)).toEqual([]);
  });

  it('finds a test folder that is no topic of docs/testing.md, and none in the tests', () => {
    tree({
      'docs/testing.md':
        'Both layers use the same topics: `api` (the document), `weekly`\n(its answers), ' +
        '`history` (revisions).\n\nLater `records` (not a topic).\n',
      'test/fast/api/document.e2e-spec.ts': '',
      'test/slow/weekly/answers.e2e-spec.ts': '',
      'test/fast/figures/map.e2e-spec.ts': '',
      'test/slow/series/series.e2e-spec.ts': '',
    });
    expect(topicMismatches(dir)).toEqual([
      'docs/testing.md: history',
      'test/fast/figures',
      'test/slow/series',
    ]);
    expect(documentedTopics(ROOT)).toContain('population-regions');
    expect(topicMismatches(ROOT)).toEqual([]);
  });

  it('finds a source over 400 lines, and none in the source', () => {
    tree({
      'libs/lib/src/long.ts': 'export {};\n'.repeat(401),
      'libs/lib/src/full.ts': 'export {};\n'.repeat(400),
      'libs/lib/src/long.spec.ts': 'export {};\n'.repeat(401),
      'test/support/long-helper.ts': 'export {};\n'.repeat(401),
    });
    expect(longerThan(dir, 400)).toEqual(['libs/lib/src/long.ts', 'test/support/long-helper.ts']);
    expect(longerThan(ROOT, 400)).toEqual([]);
  });
});
