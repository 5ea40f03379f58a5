/**
 * The history names the writers that are not API clients: a CLI import (`import:<file or URL>`,
 * one import id shared by its revisions) and the scheduled sync (`sync:<URL>`). A row that holds
 * the values already stored appends nothing. Slow layer: it runs the built command line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../../support/cli';
import { cliTestBed } from '../../support/cli-test-bed';
import { SourceServer, V1, V2, fileRoute } from '../../support/source-server';
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
  beforeAll(async () => {
    sources.routes['/covid.csv'] = fileRoute(() => ({
      body: version,
      etag: version === V1 ? '"v1"' : '"v2"',
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
      [`import:${file}`, 'create', '2024-01-01', 10],
      [`import:${file}`, 'create', '2024-01-02', 15],
    ]);
    expect(first[0].request_id).toMatch(UUID);
    expect(first[1].request_id).toBe(first[0].request_id);

    expect((await bed.cli('import', 'covid', file)).code).toBe(0);
    expect(await rowsOf(bed.t)).toEqual(first);

    // From a URL: the revisions name the URL, not the temporary file it was downloaded to.
    version = V2;
    const url = sources.url('/covid.csv');
    const imported = await bed.cli('import', 'covid', url);
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
});

describe('history of the scheduled sync', () => {
  const sources = new SourceServer();
  let t: TestApp;
  beforeAll(async () => {
    sources.routes['/covid.csv'] = fileRoute(() => ({
      body: V1,
      etag: '"v1"',
      modified: 'Mon, 01 Jan 2024 00:00:00 GMT',
    }));
    await sources.start();
    t = await bootTestApp({
      SYNC_SOURCES: `covid=${sources.url('/covid.csv')}`,
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
  });
});
