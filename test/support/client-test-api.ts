import { join } from 'node:path';
import { ApiProcess, ROOT, databaseEnv, startApi } from './built-api';
import { runCli } from './cli';
import { freePort } from './nginx';
import { TestDatabase, createTestDatabase } from './test-database';

/** The fixtures the clients' tests read: a small file, then its copy with 5 figures revised. */
export const CLIENT_FIXTURES = [
  join(ROOT, 'test/fixtures/clients-covid.csv'),
  join(ROOT, 'test/fixtures/clients-covid-revised.csv'),
];
const POPULATION = join(ROOT, '../shared/data/population-owid-2020.csv');

export const CLIENT_TOKEN = 'client-tests-token-0123456789abcdef';

export interface ClientTestApi {
  /** The API's root, `/api` included, as the clients take it. */
  url: string;
  token: string;
  api: ApiProcess;
  close(): Promise<void>;
}

/**
 * The built API on a throw-away database (`DB_TYPE`), loaded by the built command line with the
 * clients' fixtures (two imports: every figure, then 5 of them revised) and the population table.
 * Its caches are off: the command line writes from another process.
 */
export async function startClientTestApi(): Promise<ClientTestApi> {
  const database: TestDatabase = await createTestDatabase();
  const dbEnv = databaseEnv(database.config);
  const port = await freePort();
  const api = await startApi({
    ...dbEnv,
    PORT: String(port),
    API_TOKENS: `analyst:${CLIENT_TOKEN}`,
    THROTTLE_LIMIT: '100000',
    CACHE_TTL_MS: '0',
    LOG_LEVEL: 'silent',
  });
  const close = async () => {
    api.child.kill('SIGTERM');
    await api.exited;
    await database.drop();
  };
  try {
    for (const args of [
      ...CLIENT_FIXTURES.map((file) => ['import', 'covid', file]),
      ['import', 'population', POPULATION],
    ]) {
      const result = await runCli(args, dbEnv);
      if (result.code !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}/api`, token: CLIENT_TOKEN, api, close };
}
