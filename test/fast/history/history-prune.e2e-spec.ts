/**
 * Keeping the history bounded (`prune-history`): the revisions superseded before a moment go,
 * each record keeps the one that held then and every later one, so reads as of that moment or
 * later answer as before, earlier ones are a 400, the change feed still mirrors the store, and
 * no record changes. `--dry-run` only counts.
 */
import { MESSAGES } from '@app/common';
import { instantBetweenWrites, recordBody } from '../../support/fixtures';
import { cliTestBed } from '../../support/cli-test-bed';
import { historySnapshot, snapshot } from '../../support/table-snapshot';

interface Change {
  cursor: string;
  change: string;
  id: number;
  record: Record<string, unknown> | null;
}

describe('prune-history (CLI, both databases)', () => {
  const bed = cliTestBed('history-prune-');
  const auth = () => bed.t.auth();
  const write = async (method: 'post' | 'put' | 'delete', path: string, body?: object) => {
    const res = await bed.t.http[method](`/api/covid/data${path}`).set(auth()).send(body);
    expect(res.status).toBeLessThan(300);
    return res.body as { id?: number };
  };
  const body = (country: string, total_cases: number) =>
    recordBody({ country, date: '2022-03-03', total_cases });
  const asOf = async (at: string) => {
    const res = await bed.t.http
      .get(`/api/covid/data?limit=1000&as_of=${encodeURIComponent(at)}`)
      .set(auth());
    return { status: res.status, body: res.body as unknown };
  };
  const country = async (name: string, at: string) => {
    const res = await bed.t.http.get(
      `/api/covid/public/country/${name}?as_of=${encodeURIComponent(at)}`,
    );
    return { status: res.status, body: res.body as unknown };
  };
  const changes = async (id: number) =>
    (
      (await bed.t.http.get(`/api/covid/data/${id}/history`).set(auth())).body as {
        change: string;
        record: { total_cases: number } | null;
      }[]
    ).map((r) => `${r.change} ${r.record?.total_cases ?? '-'}`);
  /** The store as a partner mirrors it: the feed read from the start, a page of 2 at a time. */
  const mirror = async () => {
    const store = new Map<number, Record<string, unknown>>();
    let after = '';
    for (let pages = 0; pages < 100; pages++) {
      const res = await bed.t.http.get(`/api/covid/changes?limit=2${after}`).set(auth());
      expect(res.status).toBe(200);
      const page = res.body as { changes: Change[]; next: string | null };
      if (page.next === null) break;
      for (const c of page.changes) {
        if (c.record === null) store.delete(c.id);
        else store.set(c.id, c.record);
      }
      after = `&after=${page.next}`;
    }
    return [...store.values()].sort((a, b) => Number(a.id) - Number(b.id));
  };
  const live = async () =>
    (
      (await bed.t.http.get('/api/covid/data?limit=1000').set(auth())).body as {
        id: number;
      }[]
    ).sort((a, b) => a.id - b.id);

  it('removes what was superseded before the moment; later reads, the feed and records hold', async () => {
    const a = (await write('post', '', body('Zone A', 1))).id!;
    const b = (await write('post', '', body('Zone B', 2))).id!;
    const early = await instantBetweenWrites();
    await write('put', `/${a}`, body('Zone A', 10));
    await write('delete', `/${b}`);
    await write('put', `/${a}`, body('Zone A', 100));
    const horizon = await instantBetweenWrites();
    const c = (await write('post', '', body('Zone C', 3))).id!;
    const middle = await instantBetweenWrites();
    await write('put', `/${a}`, body('Zone A', 1000));
    const now = await instantBetweenWrites();

    const moments = [horizon, middle, now];
    const answers = await Promise.all(moments.map(asOf));
    const zoneA = await country('Zone A', horizon);
    expect(answers.map((x) => x.status)).toEqual([200, 200, 200]);
    expect(zoneA.status).toBe(200);
    const records = await snapshot(bed.t.dataSource);
    const history = await historySnapshot(bed.t.dataSource, 'covid');

    const dry = await bed.cli('prune-history', 'covid', '--before', horizon, '--dry-run');
    expect([dry.code, dry.stderr, dry.stdout]).toEqual([
      0,
      '',
      `would remove: 3 revision(s) of covid superseded before ${horizon} (--dry-run: nothing written)\n`,
    ]);
    expect(await historySnapshot(bed.t.dataSource, 'covid')).toBe(history);
    expect(await asOf(early)).toEqual({ status: 200, body: expect.any(Array) });

    const done = await bed.cli('prune-history', 'covid', '--before', horizon);
    expect([done.code, done.stderr, done.stdout]).toEqual([
      0,
      '',
      `removed: 3 revision(s) of covid superseded before ${horizon}, 3 emptied commit(s) of the ` +
        `change feed; as_of before ${horizon} is refused from now on\n`,
    ]);
    // A: two updates superseded before the moment; B: its creation, superseded by its deletion.
    expect(await changes(a)).toEqual(['update 100', 'update 1000']);
    expect(await changes(b)).toEqual(['delete -']);
    expect(await changes(c)).toEqual(['create 3']);
    expect(await snapshot(bed.t.dataSource)).toBe(records);
    expect(await Promise.all(moments.map(asOf))).toEqual(answers);
    expect(await country('Zone A', horizon)).toEqual(zoneA);
    expect(await mirror()).toEqual(await live());

    const refused = {
      status: 400,
      body: {
        error: MESSAGES.invalidQuery,
        details: [
          `as_of : doit être postérieur ou égal à ${horizon} : l'historique antérieur a été élagué`,
        ],
      },
    };
    expect(await asOf(early)).toEqual(refused);
    expect(await country('Zone A', early)).toEqual(refused);
    // An earlier moment does not move the horizon back; pruning again removes nothing more.
    const again = await bed.cli('prune-history', 'covid', '--before', early);
    expect([again.code, again.stdout.split(',')[0]]).toEqual([
      0,
      `removed: 0 revision(s) of covid superseded before ${early}`,
    ]);
    expect(await asOf(early)).toEqual(refused);
    expect(await asOf(horizon)).toEqual(answers[0]);
    // MPOX's history is whole.
    const mpox = await bed.t.http
      .get(`/api/mpox/data?as_of=${encodeURIComponent(early)}`)
      .set(auth());
    expect(mpox.status).toBe(200);
  });

  it('refuses a moment to come or not a moment, and an unknown dataset, changing nothing', async () => {
    const history = await historySnapshot(bed.t.dataSource, 'covid');
    const future = new Date(Date.now() + 60_000).toISOString();
    const cases: [string[], string][] = [
      [['covid', '--before', future], `error: invalid --before "${future}": it is in the future\n`],
      [
        ['covid', '--before', 'yesterday'],
        'error: invalid --before "yesterday": expected an ISO 8601 date or date-time ' +
          '(2026-11-26, 2026-11-26T10:00:00Z)\n',
      ],
    ];
    for (const [args, stderr] of cases) {
      const res = await bed.cli('prune-history', ...args);
      expect([res.code, res.stdout, res.stderr]).toEqual([2, '', stderr]);
    }
    const unknown = await bed.cli('prune-history', 'flu', '--before', '2026-01-01');
    expect(unknown.code).toBe(2);
    const missing = await bed.cli('prune-history', 'covid');
    expect([missing.code, missing.stderr.split('\n')[0]]).toEqual([
      2,
      "error: required option '--before <time>' not specified",
    ]);
    expect(await historySnapshot(bed.t.dataSource, 'covid')).toBe(history);
  });
});
