/**
 * The history names the writers that are not API clients: a CLI import (`import:<file or URL>`,
 * one import id shared by its revisions) and the scheduled sync (`sync:<URL>`), each by the
 * source's name only: a file's name without its folder, a URL without its query string,
 * fragment or credentials, cut to the column's size. A row that holds the values already stored
 * appends nothing. Slow layer: it runs the built command line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../../support/cli';
import { cliTestBed } from '../../support/cli-test-bed';
import { SourceServer, V1, V2, csv, fileRoute } from '../../support/source-server';
import { TestApp, bootTestApp } from '../../support/test-app';

interface RevisionRow {
  record_id: number;
  actor: string;
  request_id: string | null;
  kind: string;
  date: string;
  total_cases: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const rowsOf = (t: TestApp) =>
  t.dataSource.query<RevisionRow[]>(
    `SELECT record_id, actor, request_id, kind, date, total_cases FROM covid_revisions ORDER BY id`,
  );

describe('history of imports', () => {
  const bed = cliTestBed('history-imports-');
  const sources = new SourceServer();
  let version = V1;
  const longPath = `/${'long-name-'.repeat(40)}.csv`;
  beforeAll(async () => {
    const route = fileRoute(() => ({
      body: version,
      etag: version === V1 ? '"v1"' : '"v2"',
      modified: 'Mon, 01 Jan 2024 00:00:00 GMT',
    }));
    sources.routes['/covid.csv'] = route;
    sources.routes['/covid.csv?sig=SECRET&expires=1'] = route;
    sources.routes[longPath] = fileRoute(() => ({
      body: csv('2024-02-01,Chad,1,1,0,0'),
      etag: '"long"',
      modified: 'Mon, 01 Jan 2024 00:00:00 GMT',
    }));
    await sources.start();
  });
  afterAll(() => sources.stop());

  it('names the file and one import id; a second import of the same rows appends nothing', async () => {
    const file = join(bed.dir, 'first.csv');
    writeFileSync(file, V1);
    expect((await bed.cli('import', 'covid', file)).code).toBe(0);
    const first = await rowsOf(bed.t);
    expect(first.map((r) => [r.actor, r.kind, r.date, Number(r.total_cases)])).toEqual([
      ['import:first.csv', 'create', '2024-01-01', 10],
      ['import:first.csv', 'create', '2024-01-02', 15],
    ]);
    expect(first[0].request_id).toMatch(UUID);
    expect(first[1].request_id).toBe(first[0].request_id);

    expect((await bed.cli('import', 'covid', file)).code).toBe(0);
    expect(await rowsOf(bed.t)).toEqual(first);

    // From a URL: the revisions name the URL, not the temporary file it was downloaded to, nor
    // its query string (a signed URL's signature).
    version = V2;
    const url = sources.url('/covid.csv');
    const imported = await bed.cli('import', 'covid', `${url}?sig=SECRET&expires=1`);
    expect(imported.code).toBe(0);
    const added = (await rowsOf(bed.t)).slice(first.length);
    // One transaction: its new records first, then those it changed.
    expect(added.map((r) => [r.actor, r.kind, r.date, Number(r.total_cases)])).toEqual([
      [`import:${url}`, 'create', '2024-01-03', 20],
      [`import:${url}`, 'update', '2024-01-02', 16],
    ]);
    expect(added[0].request_id).toMatch(UUID);
    expect(added[0].request_id).not.toBe(first[0].request_id);
    expect(added[1].request_id).toBe(added[0].request_id);
  });

  it('shows readers each source by its name, never its secret or folder', async () => {
    const url = sources.url('/covid.csv');
    const feed = await bed.t.http.get('/api/covid/changes').set(bed.t.auth('reader'));
    expect(feed.status).toBe(200);
    const listed = await bed.cli('sources');
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n').filter((l) => l.startsWith('covid '))).toEqual([
      'covid first.csv',
      `covid ${url}`,
    ]);
    for (const text of [JSON.stringify(feed.body), listed.stdout]) {
      expect(text).not.toContain('SECRET');
      expect(text).not.toContain(bed.dir);
    }
  });

  it('cuts a long URL to the column: the import succeeds, its actor recognisable', async () => {
    const url = sources.url(longPath);
    expect(url.length).toBeGreaterThan(400);
    const imported = await bed.cli('import', 'covid', url);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    const [row] = (await rowsOf(bed.t)).filter((r) => r.date === '2024-02-01');
    expect(Array.from(row.actor)).toHaveLength(255);
    expect(row.actor.startsWith(`import:${sources.url('/long-name-long-name-')}`)).toBe(true);
    expect(row.actor).toMatch(/…[0-9a-f]{8}$/);
    const history = await bed.t.http
      .get(`/api/covid/data/${row.record_id}/history`)
      .set(bed.t.auth());
    expect((history.body as { actor: string }[]).map((r) => r.actor)).toEqual([row.actor]);
  });
});

describe('history of the scheduled sync', () => {
  const sources = new SourceServer();
  let t: TestApp;
  beforeAll(async () => {
    sources.routes['/covid.csv?token=SECRET'] = fileRoute(() => ({
      body: V1,
      etag: '"v1"',
      modified: 'Mon, 01 Jan 2024 00:00:00 GMT',
    }));
    await sources.start();
    t = await bootTestApp({
      SYNC_SOURCES: `covid=${sources.url('/covid.csv?token=SECRET')}`,
      SYNC_INTERVAL: '1d',
    });
  });
  afterAll(async () => {
    await t?.close();
    await sources.stop();
  });

  it('names the source URL', async () => {
    expect(await eventually(async () => (await rowsOf(t)).length === 2, { attempts: 150 })).toBe(
      true,
    );
    const rows = await rowsOf(t);
    const url = sources.url('/covid.csv');
    expect(rows.map((r) => [r.actor, r.kind, r.date])).toEqual([
      [`sync:${url}`, 'create', '2024-01-01'],
      [`sync:${url}`, 'create', '2024-01-02'],
    ]);
    expect(rows[0].request_id).toMatch(UUID);
    const history = await t.http.get(`/api/covid/data/${rows[1].record_id}/history`).set(t.auth());
    expect(history.status).toBe(200);
    expect((history.body as { actor: string }[]).map((r) => r.actor)).toEqual([`sync:${url}`]);
    // The sources' report shows the URL without its query string: that stays in the config.
    const report = await t.http.get('/api/sources').set(t.auth());
    expect(report.status).toBe(200);
    expect((report.body as { sources: { url: string }[] }).sources.map((s) => s.url)).toEqual([
      url,
    ]);
    expect(JSON.stringify(report.body)).not.toContain('SECRET');
  });
});
