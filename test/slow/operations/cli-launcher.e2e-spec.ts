import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SCOPES } from '@app/config';
import { DEFAULT_DOWNLOAD } from '@app/importer';
import { builtEntry, needsBuild } from '../../../scripts/build-freshness';
import { ROOT } from '../../support/built-api';

/** Runs the launcher of `root` as an admin script would, from another folder; times it. */
function launch(args: string[], root = ROOT) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [join(root, 'bin/covid-cli.js'), ...args], {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { ...result, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

function write(path: string, text: string, mtimeSeconds?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  if (mtimeSeconds !== undefined) utimesSync(path, mtimeSeconds, mtimeSeconds);
}

/** A project of its own: the real launcher, sources, and a `nest` that "builds" by writing main.js. */
function fakeProject(nest: string): string {
  const root = mkdtempSync(join(tmpdir(), 'covid-launcher-'));
  for (const file of ['bin/covid-cli.js', 'scripts/build-freshness.js']) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(root, file));
  }
  write(join(root, 'apps/cli/src/main.ts'), '');
  write(join(root, 'libs/common/src/index.ts'), '');
  write(join(root, 'node_modules/.bin/nest'), nest);
  chmodSync(join(root, 'node_modules/.bin/nest'), 0o755);
  return root;
}

const BUILDING = 'covid-cli: building the command line first (nest build cli)\n';

describe('the admin command line launcher (bin/covid-cli.js)', () => {
  it('is the package\'s "covid-cli" bin, and what npm run cli runs', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.bin).toEqual({ 'covid-cli': 'bin/covid-cli.js' });
    expect(pkg.scripts.cli).toBe('node bin/covid-cli.js');
  });

  it('answers --help at once on a built checkout, building nothing', () => {
    expect(needsBuild(ROOT, 'cli')).toBe(false); // the global set-up built it
    const built = statSync(builtEntry(ROOT, 'cli')).mtimeMs;
    const result = launch(['--help']);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: covid-cli \[options\] \[command\]\n/);
    // Loose, for a loaded machine; `npm run bench` holds it under a second.
    expect(result.seconds).toBeLessThan(5);
    expect(statSync(builtEntry(ROOT, 'cli')).mtimeMs).toBe(built);
  });

  it('loads neither Nest, TypeORM nor the validators for --help', () => {
    // The built command line in a process that records every module it requires.
    const script = `
      const Module = require('node:module');
      const load = Module._load;
      const seen = new Set();
      Module._load = function (request, ...rest) { seen.add(request); return load.call(this, request, ...rest); };
      process.argv = [process.argv[0], 'covid-cli', '--help'];
      process.on('exit', () => process.stderr.write(JSON.stringify([...seen])));
      require(${JSON.stringify(builtEntry(ROOT, 'cli'))});`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    const loaded = JSON.parse(result.stderr) as string[];
    expect(loaded).toContain('commander');
    for (const heavy of ['@nestjs/common', '@nestjs/core', 'typeorm', 'class-validator']) {
      expect([heavy, loaded.includes(heavy)]).toEqual([heavy, false]);
    }
  });

  it("shows the libraries' scopes and download timeout in the commands' help", () => {
    const words = (args: string[]) => launch(args).stdout.replace(/\s+/g, ' ');
    expect(words(['tokens', 'create', '--help'])).toContain(
      `(comma-separated: ${SCOPES.join(', ')}; default: read only)`,
    );
    expect(words(['tokens', 'scope', '--help'])).toContain(`comma-separated: ${SCOPES.join(', ')}`);
    expect(words(['import', '--help'])).toContain(
      `send more bytes (default: ${DEFAULT_DOWNLOAD.timeoutMs / 1000})`,
    );
  });

  describe('on a project of its own', () => {
    let root: string;
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('builds first when dist/ is missing or older than a source, then runs the built file', () => {
      const nest = `#!/bin/sh
echo "nest $*"
mkdir -p dist/apps/cli/apps/cli/src
echo 'process.stdout.write("built cli " + process.argv.slice(2).join(" ") + "\\\\n")' > dist/apps/cli/apps/cli/src/main.js
`;
      root = fakeProject(nest);
      const first = launch(['tokens', 'list'], root);
      expect(first).toMatchObject({
        status: 0,
        stdout: 'built cli tokens list\n',
        stderr: `${BUILDING}nest build cli\n`,
      });

      // Built after every source: runs at once.
      const entry = builtEntry(root, 'cli');
      utimesSync(entry, 2_000_000_000, 2_000_000_000);
      expect(launch(['sources'], root)).toMatchObject({
        status: 0,
        stdout: 'built cli sources\n',
        stderr: '',
      });

      // A unit spec is not built: editing one needs no build; a library's source does.
      write(join(root, 'libs/common/src/index.spec.ts'), '', 2_000_000_100);
      expect(launch([], root).stderr).toBe('');
      write(join(root, 'libs/common/src/index.ts'), '', 2_000_000_100);
      expect(launch([], root).stderr).toBe(`${BUILDING}nest build cli\n`);
    });

    it('says the build failed and exits 1, running nothing', () => {
      root = fakeProject('#!/bin/sh\necho "TS2304: Cannot find name" >&2\nexit 2\n');
      expect(launch(['tokens', 'list'], root)).toMatchObject({
        status: 1,
        stdout: '',
        stderr: `${BUILDING}TS2304: Cannot find name\ncovid-cli: the build failed: see above\n`,
      });
    });

    it('runs a production image as it is: dist/ without sources', () => {
      root = fakeProject('#!/bin/sh\nexit 1\n');
      rmSync(join(root, 'apps'), { recursive: true });
      write(builtEntry(root, 'cli'), 'process.stdout.write("as built\\n")');
      expect(launch([], root)).toMatchObject({ status: 0, stdout: 'as built\n', stderr: '' });
    });
  });
});
