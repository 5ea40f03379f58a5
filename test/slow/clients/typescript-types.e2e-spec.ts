/**
 * The TypeScript client cannot drift from the API: its types, regenerated from the OpenAPI
 * document the application serves now, equal the committed clients/typescript/src/openapi.ts
 * (slow layer: it runs the generator as a child process). On a difference, regenerate them
 * with `npm run build:api && npm run generate -w clients/typescript` and commit the result.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../support/built-api';
import { TestApp, bootTestApp } from '../../support/test-app';

const run = promisify(execFile);
const GENERATOR = join(ROOT, 'clients/typescript/scripts/generate-types.mjs');
const COMMITTED = join(ROOT, 'clients/typescript/src/openapi.ts');

describe("the TypeScript client's generated types", () => {
  let t: TestApp;
  let dir: string;
  let document: { paths: Record<string, unknown> };
  beforeAll(async () => {
    t = await bootTestApp();
    dir = mkdtempSync(join(tmpdir(), 'client-types-'));
    document = (await t.http.get('/api/docs-json')).body as typeof document;
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The generator's output for `doc`. */
  const generate = async (doc: unknown): Promise<string> => {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
    const out = join(dir, 'openapi.ts');
    await run(process.execPath, [GENERATOR, '--from', join(dir, 'openapi.json'), '--out', out]);
    return readFileSync(out, 'utf8');
  };

  it('equal the committed ones, regenerated from the API of this commit', async () => {
    expect(await generate(document)).toBe(readFileSync(COMMITTED, 'utf8'));
  }, 60_000);

  it('would differ from them after a change to the API (the check can fail)', async () => {
    const { ['/api/regions']: _gone, ...paths } = document.paths;
    const generated = await generate({ ...document, paths });
    expect(generated).not.toBe(readFileSync(COMMITTED, 'utf8'));
    expect(generated).not.toContain("'/api/regions'");
  }, 60_000);
});
