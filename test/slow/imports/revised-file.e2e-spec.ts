/**
 * A routine source revision: the real JHU file is loaded, then a copy of it in which 1% of the
 * rows, scattered over the file, has a revised `total_cases`. The import succeeds (on SQLite it
 * failed with "Expression tree is too large", nothing imported), every revised record reads its
 * new figure through the API, nothing else changed, and each has its revision in the change feed.
 */
import { join } from 'node:path';
import { StoredRecord } from '@app/diseases';
import { changesSince } from '../../support/change-feed';
import { cliTestBed } from '../../support/cli-test-bed';
import { writeRevisedCopy } from '../../support/revised-file';

const JHU = join(__dirname, '../../../../shared/data/covid-jhu-2023-03-09.csv.gz');

type Stored = StoredRecord;

describe('import of the JHU file with 1% of its rows revised, over the loaded file', () => {
  const bed = cliTestBed('covid-revised-');

  const all = async (): Promise<Map<number, Stored>> => {
    const res = await bed.t.http
      .get('/api/covid/data')
      .query({ limit: 1_000_000 })
      .set(bed.t.auth());
    expect(res.status).toBe(200);
    return new Map((res.body as Stored[]).map((r) => [r.id, r]));
  };

  it('updates every revised record, and only those, each with its revision', async () => {
    const first = await bed.cli('import', 'covid', JHU);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('inserted:  225171\n');
    const before = await all();

    const revisedFile = join(bed.dir, 'covid-jhu-revised.csv.gz');
    const revised = writeRevisedCopy(JHU, revisedFile, 0.01);
    expect(revised.length).toBeGreaterThan(2_000);
    const since = new Date().toISOString();
    const second = await bed.cli('import', 'covid', revisedFile);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      `inserted:  0\nupdated:   ${revised.length}\nunchanged: ${225_171 - revised.length}\n`,
    );

    // Through the API: the records whose figures changed are the revised rows, one higher.
    const after = await all();
    expect(after.size).toBe(before.size);
    const changed = [...after.values()].filter(
      (r) => JSON.stringify(r) !== JSON.stringify(before.get(r.id)),
    );
    for (const r of changed) expect(r).toEqual({ ...before.get(r.id), total_cases: r.total_cases });
    const byDateAndFigure = (rows: { date: string; total_cases: number }[]) =>
      rows.map((r) => `${r.date}|${r.total_cases}`).sort();
    expect(byDateAndFigure(changed)).toEqual(byDateAndFigure(revised));
    for (const r of changed) expect(r.total_cases).toBe(before.get(r.id)!.total_cases + 1);

    // In the history: one update per revised record, by the import, named by its file.
    const changes = await changesSince(bed.t, 'covid', since);
    expect(new Set(changes.map((c) => `${c.actor} ${c.change}`))).toEqual(
      new Set(['import:covid-jhu-revised.csv.gz update']),
    );
    expect(changes.map((c) => c.id).sort((a, b) => a - b)).toEqual(
      changed.map((r) => r.id).sort((a, b) => a - b),
    );
  }, 900_000);
});
