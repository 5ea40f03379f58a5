/**
 * Partners generate clients from the OpenAPI document: a TypeScript client made from it with
 * `openapi-typescript` type-checks against real answers of the API (slow layer: it runs the
 * generator and the TypeScript compiler as child processes).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../support/built-api';
import { TOKENS, TestApp, bootTestApp } from '../../support/test-app';

const run = promisify(execFile);
const GENERATOR = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** One real answer, and the generated type it must fit (path, method, status). */
interface Sample {
  path: string;
  method: 'get' | 'post' | 'put' | 'delete';
  status: number;
  body: unknown;
}

/** A TypeScript file that assigns each answer, as a literal, to its generated type. */
function checks(samples: Sample[]): string {
  const lines = samples.map(({ path, method, status, body }, i) => {
    const type = `paths[${JSON.stringify(path)}][${JSON.stringify(method)}]['responses'][${status}]['content']['application/json']`;
    return `export const answer${i}: ${type} = ${JSON.stringify(body)};`;
  });
  return [`import type { paths } from './api';`, ...lines, ''].join('\n');
}

/** Runs the TypeScript compiler on the checks alone (no other type packages): its errors, or ''. */
async function typeCheck(dir: string, source: string): Promise<string> {
  writeFileSync(join(dir, 'check.ts'), source);
  const compilerOptions = { strict: true, noEmit: true, target: 'es2022', types: [] };
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions, files: ['check.ts'] }),
  );
  try {
    await run(process.execPath, [TSC, '-p', dir]);
    return '';
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? String(error);
  }
}

describe('a TypeScript client generated from the OpenAPI document', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await bootTestApp();
    dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    const doc = await t.http.get('/api/docs-json');
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc.body));
    await run(process.execPath, [GENERATOR, join(dir, 'openapi.json'), '-o', join(dir, 'api.ts')]);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('type-checks against real answers of every kind of route', async () => {
    const auth = { Authorization: `Bearer ${TOKENS.alice}` };
    const record = (date: string, country: string) => ({
      date,
      country,
      total_cases: 100,
      new_cases: 3,
      total_deaths: 2,
      new_deaths: 0,
    });
    const samples: Sample[] = [];
    await t.dataSource.query(
      "INSERT INTO population (iso3, year, country, population, source) VALUES ('FRA', 2020, 'France', 68147687, 'test')",
    );
    const call = async (
      method: Sample['method'],
      path: string,
      url: string,
      status: number,
      body?: unknown,
    ) => {
      const res = await t.http[method](url)
        .set(auth)
        .send(body as object);
      expect({ url, status: res.status }).toEqual({ url, status });
      samples.push({ path, method, status, body: res.body });
      return res.body as unknown;
    };
    for (const key of ['covid', 'mpox']) {
      const { id } = (await call('post', `/api/${key}/data`, `/api/${key}/data`, 201, {
        ...record('2022-06-01', 'France'),
        total_recovered: null,
      })) as { id: number };
      await call('post', `/api/${key}/data/bulk`, `/api/${key}/data/bulk`, 200, [
        record('2022-06-02', 'France'),
        record('2022-06-02', 'Korea, South'),
      ]);
      await call('get', `/api/${key}/data`, `/api/${key}/data?country=France`, 200);
      await call('put', `/api/${key}/data/{id}`, `/api/${key}/data/${id}`, 200, {
        ...record('2022-06-01', 'France'),
        total_cases: 101,
      });
      await call('get', `/api/${key}/data/{id}`, `/api/${key}/data/${id}`, 200);
      await call('get', `/api/${key}/data/{id}/history`, `/api/${key}/data/${id}/history`, 200);
      await call('get', `/api/${key}/changes`, `/api/${key}/changes?limit=2`, 200);
      await call('get', `/api/${key}/countries`, `/api/${key}/countries`, 200);
      await call('get', `/api/${key}/stats`, `/api/${key}/stats?country=France`, 200);
      await call('get', `/api/${key}/public/weekly`, `/api/${key}/public/weekly`, 200);
      await call(
        'get',
        `/api/${key}/public/country/{country}/weekly`,
        `/api/${key}/public/country/France/weekly`,
        200,
      );
      await call('get', `/api/${key}/public/countries`, `/api/${key}/public/countries`, 200);
      await call('get', `/api/${key}/series`, `/api/${key}/series?country=France`, 200);
      await call('get', `/api/${key}/series`, `/api/${key}/series?country=Europe&period=week`, 200);
      await call('get', `/api/${key}/series`, `/api/${key}/series?metrics=new_cases_smoothed`, 200);
      await call('get', `/api/${key}/public/map`, `/api/${key}/public/map?week=2022-06-01`, 200);
      // The PUT above corrected a figure: the corrections are not empty.
      const corrections = (await call(
        'get',
        `/api/${key}/corrections`,
        `/api/${key}/corrections?country=France`,
        200,
      )) as { corrections: unknown[] };
      expect(corrections.corrections).toHaveLength(1);
      await call(
        'get',
        `/api/${key}/public/country/{country}/corrections`,
        `/api/${key}/public/country/France/corrections?limit=5`,
        200,
      );
      await call('delete', `/api/${key}/data/{id}`, `/api/${key}/data/${id}`, 200);
      // Versions: France's first values, the PUT's, the deletion's nulls (a place, then Korea's).
      await call('get', `/api/${key}/vintages`, `/api/${key}/vintages?limit=20`, 200);
      await call(
        'get',
        `/api/${key}/series`,
        `/api/${key}/series?country=Korea,%20South&lag=30`,
        200,
      );
    }
    await call('get', '/api/covid/public/latest', '/api/covid/public/latest', 200);
    await call('get', '/api/covid/public/totals', '/api/covid/public/totals', 200);
    await call(
      'get',
      '/api/covid/public/country/{country}',
      '/api/covid/public/country/France',
      200,
    );
    await call('get', '/api/mpox/public/summary', '/api/mpox/public/summary', 200);
    await call('get', '/api/stats/summary', '/api/stats/summary', 200);
    await call('get', '/api/sources', '/api/sources', 200);
    await call('get', '/api/population', '/api/population', 200);
    await call('get', '/api/regions', '/api/regions', 200);
    await call('get', '/api/covid/series', '/api/covid/series?metrics=cases', 400);
    await call('get', '/api/covid/corrections', '/api/covid/corrections?after=x', 400);
    await call('get', '/api/covid/vintages', '/api/covid/vintages?fields=cases', 400);
    await call(
      'get',
      '/api/covid/public/country/{country}/corrections',
      '/api/covid/public/country/Atlantis/corrections',
      404,
    );
    await call('get', '/api/health', '/api/health', 200);
    // Errors, in the one error shape.
    await call('post', '/api/covid/data', '/api/covid/data', 400, { date: 'x' });
    await call('get', '/api/covid/stats', '/api/covid/stats?country=Atlantis', 404);
    await call('get', '/api/covid/data/{id}', '/api/covid/data/987654321', 404);
    await call('get', '/api/mpox/data/{id}', '/api/mpox/data/0', 400);

    expect(await typeCheck(dir, checks(samples))).toBe('');
    // Typed records, not `unknown`: a wrong value would be caught (next test).
    expect(readFileSync(join(dir, 'api.ts'), 'utf8')).toMatch(/total_cases: number;/);
  });

  it('would refuse an answer that does not match (the check can fail)', async () => {
    const wrong: Sample[] = [
      { path: '/api/covid/public/totals', method: 'get', status: 200, body: { total_cases: 'x' } },
    ];
    expect(await typeCheck(dir, checks(wrong))).toMatch(
      /check\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
    );
  });
});
