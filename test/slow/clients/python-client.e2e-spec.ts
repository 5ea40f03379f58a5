/**
 * The Python client (clients/python) against the built API loaded with the clients' fixtures:
 * its pytest suite runs with the API's URL and a token in its environment and must pass. Tests of
 * routes still to come skip themselves (the live API answers 404, or its document lacks `lag`);
 * any other skip fails here.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../support/built-api';
import { ClientTestApi, startClientTestApi } from '../../support/client-test-api';
import { TEST_DB_TYPE } from '../../support/test-database';

const run = promisify(execFile);
const PYTHON = process.env.PYTHON ?? '/usr/bin/python3';

describe(`the Python client against the built API (${TEST_DB_TYPE})`, () => {
  let api: ClientTestApi;
  beforeAll(async () => {
    api = await startClientTestApi();
  }, 180_000);
  afterAll(() => api?.close());

  it('passes its pytest suite', async () => {
    const args = ['-m', 'pytest', '-q', '-rs', '-p', 'no:cacheprovider', 'clients/python/tests'];
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      COVID_API_URL: api.url,
      COVID_API_TOKEN: api.token,
      PYTHONPATH: join(ROOT, 'clients/python/src'),
      PYTHONDONTWRITEBYTECODE: '1',
    };
    const outcome = await run(PYTHON, args, { cwd: ROOT, env }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        code: error.code ?? -1,
        stdout: `${error.stdout ?? ''}${error.stderr ?? ''}`,
      }),
    );
    // pytest's own report is the failure message.
    expect(outcome.code === 0 ? '' : outcome.stdout).toBe('');
    expect(outcome.stdout).toMatch(/\d+ passed/);
    const skips = outcome.stdout.split('\n').filter((line) => line.startsWith('SKIPPED'));
    for (const line of skips) expect(line).toMatch(/still to come/);
  }, 120_000);
});
