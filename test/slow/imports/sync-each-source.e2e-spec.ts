/**
 * The scheduled sync in its worker thread, without Redis: each source's figures are served as
 * soon as that source's import ends, not once the whole run is over (the API's cached reads of
 * its disease are dropped as the worker reports each source).
 */
import { ServerResponse } from 'node:http';
import { ApiProcess, databaseEnv, getJson as getJsonAs, startApi } from '../../support/built-api';
import { eventually } from '../../support/cli';
import { SourceRoute, SourceServer, V1 } from '../../support/source-server';
import { TestDatabase, createTestDatabase } from '../../support/test-database';

const PORT = 3281;
const TOKEN = 'sync-each-token-0123456789abcdef';
const getJson = (path: string) => getJsonAs(PORT, path, TOKEN);

/** A file whose answer waits until `release()` is called. */
function heldFile(body: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const route: SourceRoute = {
    seen: [],
    answer(res: ServerResponse) {
      void released.then(() =>
        res.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body),
      );
    },
  };
  return { route, release };
}

describe('a sync of several sources in the worker thread (built API, no Redis)', () => {
  const sources = new SourceServer();
  const covid = heldFile(V1);
  const mpox = heldFile(V1);
  let database: TestDatabase;
  let api: ApiProcess | undefined;

  beforeAll(async () => {
    sources.routes['/covid.csv'] = covid.route;
    sources.routes['/mpox.csv'] = mpox.route;
    await sources.start();
    database = await createTestDatabase();
  });
  afterAll(async () => {
    covid.release();
    mpox.release();
    if (api) {
      api.child.kill('SIGTERM');
      await api.exited;
    }
    await sources.stop();
    await database.drop();
  });

  it("serves a source's figures once its import ends, while the next source still runs", async () => {
    api = await startApi({
      ...databaseEnv(database.config),
      PORT: String(PORT),
      API_TOKENS: `ops:${TOKEN}`,
      SYNC_SOURCES: `covid=${sources.url('/covid.csv')},mpox=${sources.url('/mpox.csv')}`,
      SYNC_INTERVAL: '1h',
      // Only the write notice can make the new figures seen within the test.
      CACHE_TTL_MS: '3600000',
      LOG_LEVEL: 'info',
    });
    expect(api.output()).toContain('in a worker thread');
    // Read, and kept, before the import.
    expect((await getJson('/api/covid/public/totals')).body).toEqual({
      total_cases: 0,
      total_deaths: 0,
    });
    covid.release();
    const outcome = async (dataset: string) =>
      ((await getJson('/api/sources')).body.sources as { dataset: string; outcome: string }[]).find(
        (source) => source.dataset === dataset,
      )?.outcome;
    expect(await eventually(async () => (await outcome('covid')) === 'updated')).toBe(true);
    const served = async () => (await getJson('/api/covid/public/totals')).body.total_cases === 15;
    expect(await eventually(served, { attempts: 40 })).toBe(true);
    // The MPOX source is still held: the run is not over.
    expect(mpox.route.seen).toHaveLength(1);
    expect(await outcome('mpox')).toBeNull();
    expect(api.output()).not.toContain('sync done');
    mpox.release();
    expect(await eventually(() => Promise.resolve(api!.output().includes('sync done')))).toBe(true);
    expect(await outcome('mpox')).toBe('updated');
  });
});
