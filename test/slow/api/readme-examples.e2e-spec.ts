import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ApiProcess, ROOT, databaseEnv, getJson, startApi } from '../../support/built-api';
import { freePort } from '../../support/nginx';
import { TestDatabase, createTestDatabase } from '../../support/test-database';

/*
 * The README's examples, run verbatim and in order on a fresh store: every ```bash block but those
 * marked `<!-- readme-test: skip, <why> -->` just above it. The only change is the address: the
 * README's http://localhost:3000 becomes this test's port.
 */

interface ReadmeBlock {
  /** Line of the opening fence, 1-based. */
  line: number;
  text: string;
  /** Why the test does not run it, from the marker above it. */
  skip?: string;
}

const SKIP_MARKER = /^<!-- readme-test: skip, (.+) -->$/;

function readmeBlocks(): ReadmeBlock[] {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```bash') continue;
    const end = lines.indexOf('```', i + 1);
    const skip = SKIP_MARKER.exec(lines[i - 1] ?? '')?.[1];
    blocks.push({ line: i + 1, text: lines.slice(i + 1, end).join('\n'), skip });
    i = end;
  }
  return blocks;
}

/**
 * Every runnable block in one bash script, so that the variables of one (`API`, `TOKEN`, `ID`)
 * serve the next. `curl` fails on any 4xx or 5xx answer (keeping its body), so an example that
 * answers an error stops the run.
 */
function script(blocks: ReadmeBlock[], port: number): string {
  const prelude = [
    'set -euo pipefail',
    'curl() { command curl --silent --show-error --fail-with-body "$@"; printf "\\n"; }',
  ];
  const body = blocks.flatMap((block) => [
    `printf '%s\\n' '### README line ${block.line}'`,
    block.text.replaceAll('http://localhost:3000', `http://127.0.0.1:${port}`),
  ]);
  return [...prelude, ...body, `printf '%s\\n' '### done'`].join('\n');
}

function runBash(text: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('bash', ['-c', text], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe("the README's examples", () => {
  const blocks = readmeBlocks();
  const runnable = blocks.filter((block) => !block.skip);

  it('are bash blocks, each run by this test unless marked with the reason it is not', () => {
    expect(blocks.filter((block) => block.skip).map((block) => block.skip)).toEqual([
      'the test starts the built API itself, as npm start does',
      'reads the internet',
      'needs Docker',
      'development commands',
    ]);
    // Imports, tokens, public and token routes, command line: the newcomer's whole path.
    expect(runnable.length).toBeGreaterThanOrEqual(6);
  });

  describe('run in order on a fresh store', () => {
    let db: TestDatabase;
    let api: ApiProcess;
    let port: number;
    let run: { code: number | null; output: string };
    // Files the examples write into the project folder, removed afterwards unless already there.
    const exportFile = join(ROOT, 'france.csv');
    const seriesFile = join(ROOT, 'covid-series.csv');
    const written = [exportFile, seriesFile].filter((file) => !existsSync(file));

    beforeAll(async () => {
      db = await createTestDatabase();
      port = await freePort();
      const env = databaseEnv(db.config);
      api = await startApi({ ...env, PORT: String(port) });
      run = await runBash(script(runnable, port), env);
    }, 900_000);

    afterAll(async () => {
      api?.child.kill('SIGTERM');
      await api?.exited;
      await db?.drop();
      for (const file of written) rmSync(file, { force: true });
    });

    it('every example succeeds', () => {
      if (run.code !== 0) throw new Error(`a README example failed:\n${run.output.slice(-4000)}`);
      expect(run.output).toContain('### done');
    });

    it('the totals after the three imports are the ones the README shows', () => {
      const claimed = /totals +# (\{.*\})$/m.exec(runnable.map((b) => b.text).join('\n'))?.[1];
      expect(claimed).toBeDefined();
      expect(run.output).toContain(`${claimed}\n`);
    });

    it('the record the POST created was replaced, then deleted; the bulk wrote its two', async () => {
      const { body } = await getJson(port, '/api/health', '');
      expect(body).toEqual({ status: 'ok', database: 'up' });
      const france = await fetch(`http://127.0.0.1:${port}/api/covid/public/country/France`).then(
        (res) => res.json() as Promise<Array<{ date: string }>>,
      );
      expect(france[0].date).toBe('2023-03-09');
      const totals = await fetch(`http://127.0.0.1:${port}/api/covid/public/latest`).then(
        (res) => res.json() as Promise<Array<{ date: string; country: string }>>,
      );
      expect(
        totals.filter((record) => record.date === '2023-03-10').map((record) => record.country),
      ).toEqual(expect.arrayContaining(['Germany', 'Italy']));
      expect(run.output).toMatch(/"revision":2,"at":"[^"]+","actor":"readme","change":"update"/);
      expect(run.output).toContain('"success":true,"inserted":2,"updated":0');
      expect(run.output).toContain('Données supprimées avec succès.');
    });

    it("the series download is every place, whole, with OWID's columns", () => {
      const csv = readFileSync(seriesFile, 'utf8').split('\r\n');
      expect(csv[0]).toMatch(/^date,country,iso_code,total_cases,/);
      // Every record of the JHU file and the two of the bulk, one row each, and the header.
      expect(csv.filter(Boolean)).toHaveLength(225_171 + 2 + 1);
    });

    it("the export wrote France's MPOX figures as CSV", () => {
      const csv = readFileSync(exportFile, 'utf8').split('\n');
      expect(csv[0]).toBe('date,country,total_cases,new_cases,total_deaths,new_deaths');
      expect(csv.length).toBeGreaterThan(100);
    });
  });
});
