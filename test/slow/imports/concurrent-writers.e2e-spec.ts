import { join } from 'node:path';
import { TEST_ORIGIN, seedWriter } from '../../support/fixtures';
import { databaseEnv, runCli } from '../../support/cli';
import { COVID_DISEASE, RecordValues } from '@app/diseases';
import { TestApp, bootTestApp } from '../../support/test-app';

/** Read from ../shared/data relative to the project root, never copied into the project. */
const TRIMMED_MPOX = join(__dirname, '../../../../shared/data/mpox-owid-2023-11-16.csv.gz');
/** Records of that file (`zcat | tail -n +2 | wc -l`). */
const RECORDS = 48627;

/**
 * Writers in several processes (two admin CLI imports, API bulk writes) take turns on the same
 * database (token commands: test/slow/auth/cli-tokens.e2e-spec.ts). On SQLite a transaction that read before writing used to fail at
 * once with "database is locked" when another process wrote meanwhile.
 */
describe('writers in several processes at once', () => {
  let t: TestApp;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await bootTestApp();
    env = databaseEnv(t.config.db);
  });
  afterAll(() => t.close());

  it('two imports and API bulk writes all succeed', async () => {
    const imports = Promise.all([
      runCli(['import', 'mpox', TRIMMED_MPOX], env),
      runCli(['import', 'mpox', TRIMMED_MPOX], env),
    ]);
    let running = true;
    void imports.finally(() => (running = false));
    const statuses: number[] = [];
    for (let round = 0; running; round++) {
      const batch = Array.from({ length: 2000 }, (_, i) => ({
        date: new Date(Date.UTC(1950, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
        country: `Writer ${round % 5}`,
        total_cases: round,
        new_cases: 0,
        total_deaths: 0,
        new_deaths: 0,
      }));
      statuses.push((await t.http.post('/api/mpox/data/bulk').set(t.auth()).send(batch)).status);
    }
    const results = await imports;
    expect(results.map((r) => [r.code, r.stderr])).toEqual([
      [0, ''],
      [0, ''],
    ]);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const [{ count }] = await t.dataSource.query<{ count: number }[]>(
      "SELECT COUNT(*) AS count FROM mpox_data WHERE country NOT LIKE 'Writer %'",
    );
    expect(Number(count)).toBe(RECORDS);
  });

  it('runs writes started together in one process one after the other', async () => {
    // Two bulk upserts and a single insert started in the same tick, as requests resumed together
    // are: on SQLite their statements interleaved on the process's one connection (a second BEGIN
    // failed; a single write inside another's transaction shared its fate).
    const repository = seedWriter(t.dataSource, COVID_DISEASE, 5000);
    const record = (country: string, day: number): RecordValues => ({
      date: new Date(Date.UTC(1960, 0, 1) + day * 86_400_000).toISOString().slice(0, 10),
      country,
      total_cases: day,
      new_cases: 0,
      total_deaths: 0,
      new_deaths: 0,
    });
    const bulk = (country: string) =>
      repository.upsertMany(
        Array.from({ length: 1500 }, (_, day) => record(country, day)),
        TEST_ORIGIN,
      );
    const results = await Promise.allSettled([
      bulk('Together A'),
      repository.create(record('Together single', 0), TEST_ORIGIN),
      bulk('Together B'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    const [{ count }] = await t.dataSource.query<{ count: number }[]>(
      "SELECT COUNT(*) AS count FROM covid_data WHERE country LIKE 'Together %'",
    );
    expect(Number(count)).toBe(2 * 1500 + 1);
  });
});
