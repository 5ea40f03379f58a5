/**
 * A source's credentials and signature never reach a reader: a sync of signed URLs (`user:pass@`
 * and a long `X-Amz-Signature` query, longer than any message is cut to) that fail, records and
 * population alike, leaves `/api/sources` and the sync's log lines naming each source by its
 * name only (`sourceName`).
 */
import { eventually } from '../../support/cli';
import { SourceServer, staticFile } from '../../support/source-server';
import { TestApp, bootTestApp } from '../../support/test-app';

const SIGNATURE = `X-Amz-Signature=${'5ec7e7'.repeat(60)}`;
const SECRETS = ['user', 'pass', 'X-Amz', '5ec7e7'];

interface LogLine {
  context?: string;
  msg: string;
}

describe('sync of signed sources that fail: no secret in /api/sources or the log', () => {
  const sources = new SourceServer();
  const raw: string[] = [];
  let t: TestApp;
  /** A URL of the test server with credentials or not, and the long signature. */
  const signed = (path: string, credentials = false) =>
    `${sources.url(path).replace('//', credentials ? '//user:pass@' : '//')}?${SIGNATURE}`;

  beforeAll(async () => {
    // An empty file: the import's error names the downloaded file, shown as the URL's name.
    sources.routes[`/mpox.csv?${SIGNATURE}`] = staticFile('');
    sources.routes[`/population.csv?${SIGNATURE}`] = staticFile('country,year\nFrance,2020\n');
    await sources.start();
    const urls = [
      `covid=${signed('/covid.csv', true)}`,
      `mpox=${signed('/mpox.csv')}`,
      `population=${signed('/missing.csv')}`,
      `population=${signed('/population.csv')}`,
      `population=${signed('/signed.csv', true)}`,
    ];
    t = await bootTestApp(
      { SYNC_SOURCES: urls.join(','), SYNC_INTERVAL: '30s', LOG_LEVEL: 'info' },
      { logDestination: { write: (line: string) => void raw.push(line) } },
    );
  });
  // The server stops even when the app fails to close.
  afterAll(() => t.close().finally(() => sources.stop()));

  it('names each source by its name in last_error and the log lines, cut after', async () => {
    const listed = async () => {
      const res = await t.http.get('/api/sources').set(t.auth());
      expect(res.status).toBe(200);
      return res;
    };
    const done = async () => {
      const body = (await listed()).body as {
        sync: { running: boolean };
        sources: { outcome: string | null }[];
      };
      return !body.sync.running && body.sources.every((s) => s.outcome !== null);
    };
    expect(await eventually(done, { attempts: 350 })).toBe(true);
    const res = await listed();
    for (const secret of SECRETS) expect(res.text).not.toContain(secret);
    const name = (path: string) => sources.url(path);
    // fetch's error comes from another realm under Jest: its message may start with its class.
    const refused = (path: string) =>
      `cannot download ${name(path)}: TypeError: Request cannot be constructed from a URL that ` +
      `includes credentials: ${name(path)}`;
    const errors = {
      covid: refused('/covid.csv'),
      mpox: `${name('/mpox.csv')} is empty (no CSV header)`,
      missing: `${name('/missing.csv')} answered HTTP 404 Not Found`,
      population:
        `${name('/population.csv')}: unrecognised population header: expected ` +
        'entity,iso_code,year,population (and optionally source), missing entity, iso_code, population',
      signed: refused('/signed.csv'),
    };
    const rows = (res.body as { sources: { dataset: string; url: string }[] }).sources;
    expect(rows.map((s) => [s.dataset, s.url, (s as { last_error?: string }).last_error])).toEqual([
      ['covid', name('/covid.csv'), errors.covid],
      ['mpox', name('/mpox.csv'), errors.mpox],
      ['population', name('/missing.csv'), errors.missing],
      ['population', name('/population.csv'), errors.population],
      ['population', name('/signed.csv'), errors.signed],
    ]);

    const logged = (): LogLine[] =>
      raw
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as LogLine)
        .filter(
          (line) => line.context === 'Sync' && /^sync (covid|mpox|population|done) /.test(line.msg),
        );
    expect(
      await eventually(() => Promise.resolve(logged().some((l) => l.msg.startsWith('sync done')))),
    ).toBe(true);
    for (const secret of SECRETS) expect(raw.join('')).not.toContain(secret);
    const line = (dataset: string, path: string, error: string) =>
      `sync ${dataset} ${name(path)}: failed, 0 record(s) written, 0 figures corrected: ${error}`;
    expect(logged().map((l) => l.msg)).toEqual([
      line('covid', '/covid.csv', errors.covid),
      line('mpox', '/mpox.csv', errors.mpox),
      line('population', '/missing.csv', errors.missing),
      line('population', '/population.csv', errors.population),
      line('population', '/signed.csv', errors.signed),
      expect.stringMatching(/^sync done in \d+\.\d s$/),
    ]);
  });
});
