/**
 * `revert` at its edges (docs/history.md, decision 0029): a history pruned past the state to go
 * back to (left alone, never guessed), a record deleted and created again under the same country
 * and date, records that took each other's keys, a key another client holds now (reported, the
 * rest reverted), a second revert of the same actor, the actor's name in another case, and
 * another client writing while a revert of thousands of records runs. The dry run says exactly
 * what the run then does. Slow layer: it runs the built command line.
 */
import { CliResult, databaseEnv, runCli, startCli } from '../../support/cli';
import { instantBetweenWrites, recordBody } from '../../support/fixtures';
import { snapshot } from '../../support/table-snapshot';
import { recordClient } from '../../support/record-client';
import { TOKENS, TestApp, bootTestApp } from '../../support/test-app';

const MALLORY = 'mallory-token-0123456789abcdef';
const ISO = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';

describe('revert at its edges (command line)', () => {
  let t: TestApp;
  let env: Record<string, string>;
  const cli = (...args: string[]): Promise<CliResult> => runCli(args, env);
  const { as, write, latest: current, changes } = recordClient(() => t);
  /** The dry run, then the run: the same lines but for the verbs and the summary's. */
  const dryRunThenRun = async (series: string, actor: string, since: string) => {
    const before = await snapshot(t.dataSource);
    const dry = await cli('revert', series, '--actor', actor, '--since', since, '--dry-run');
    expect(dry).toMatchObject({ code: 0, stderr: '' });
    expect(await snapshot(t.dataSource)).toBe(before);
    const done = await cli('revert', series, '--actor', actor, '--since', since);
    expect(done).toMatchObject({ code: 0, stderr: '' });
    const planned = dry.stdout
      .replace(/: would be /g, ': ')
      .replace('would revert:', 'reverted:')
      .replace(' (--dry-run: nothing written)', '');
    expect(done.stdout).toBe(planned);
    return done.stdout.trimEnd().split('\n');
  };

  beforeAll(async () => {
    t = await bootTestApp({
      API_TOKENS: `alice:${TOKENS.alice},bob:${TOKENS.bob},mallory:${MALLORY}`,
      CACHE_TTL_MS: '0',
    });
    env = databaseEnv(t.config.db);
  });
  afterAll(() => t.close());

  it('brings back a record deleted and created again, and records that swapped keys', async () => {
    const body = (country: string, date: string, total_cases: number) =>
      recordBody({ country, date, total_cases });
    const a = (await write(TOKENS.alice, 'post', '', body('Clash A', '2022-05-01', 1))).id!;
    const s1 = (await write(TOKENS.alice, 'post', '', body('Swap', '2022-05-01', 1))).id!;
    const s2 = (await write(TOKENS.alice, 'post', '', body('Swap', '2022-05-02', 2))).id!;
    const since = await instantBetweenWrites();
    await write(MALLORY, 'delete', `/${a}`);
    const again = (await write(MALLORY, 'post', '', body('Clash A', '2022-05-01', 666))).id!;
    // s1 and s2 take each other's date, through a third.
    await write(MALLORY, 'put', `/${s1}`, body('Swap', '2022-05-03', 1));
    await write(MALLORY, 'put', `/${s2}`, body('Swap', '2022-05-01', 2));
    await write(MALLORY, 'put', `/${s1}`, body('Swap', '2022-05-02', 1));

    const lines = await dryRunThenRun('covid', 'mallory', since);
    expect(lines).toEqual([
      `covid record ${a}: brought back (1 change(s) undone)`,
      `covid record ${s1}: put back (2 change(s) undone)`,
      `covid record ${s2}: put back (1 change(s) undone)`,
      `covid record ${again}: removed (1 change(s) undone)`,
      'reverted: 4 record(s); left alone: 0',
    ]);
    expect(await current(a)).toEqual({ id: a, ...body('Clash A', '2022-05-01', 1) });
    expect(await current(again)).toBeNull();
    expect(await current(s1)).toEqual({ id: s1, ...body('Swap', '2022-05-01', 1) });
    expect(await current(s2)).toEqual({ id: s2, ...body('Swap', '2022-05-02', 2) });
    expect(await changes(s1)).toEqual([
      'alice create',
      'mallory update',
      'mallory update',
      'cli:revert update',
    ]);
  });

  it('reports a record whose key another client took, one by one, and reverts the rest', async () => {
    const body = (country: string, total_cases: number) =>
      recordBody({ country, date: '2022-06-01', total_cases });
    const taken = (await write(TOKENS.alice, 'post', '', body('Taken', 1))).id!;
    const other = (await write(TOKENS.alice, 'post', '', body('Other', 1))).id!;
    const since = await instantBetweenWrites();
    await write(MALLORY, 'delete', `/${taken}`);
    await write(MALLORY, 'put', `/${other}`, body('Other', 666));
    const bobs = (await write(TOKENS.bob, 'post', '', body('Taken', 2))).id!;

    expect(await dryRunThenRun('covid', 'mallory', since)).toEqual([
      `covid record ${taken}: left alone, record ${bobs} now holds Taken on 2022-06-01`,
      `covid record ${other}: put back (1 change(s) undone)`,
      'reverted: 1 record(s); left alone: 1',
    ]);
    expect(await current(taken)).toBeNull();
    expect(await current(bobs)).toEqual({ id: bobs, ...body('Taken', 2) });
    expect(await current(other)).toEqual({ id: other, ...body('Other', 1) });
  });

  it("undoes the actor's newer changes on a second revert", async () => {
    const body = (total_cases: number) =>
      recordBody({ country: 'Twice', date: '2022-07-01', total_cases });
    const id = (await write(TOKENS.alice, 'post', '', body(1))).id!;
    const since = await instantBetweenWrites();
    await write(MALLORY, 'put', `/${id}`, body(666));
    expect((await cli('revert', 'covid', '--actor', 'mallory', '--since', since)).code).toBe(0);
    await write(MALLORY, 'put', `/${id}`, body(667));
    expect(await dryRunThenRun('covid', 'mallory', since)).toEqual([
      `covid record ${id}: put back (1 change(s) undone)`,
      'reverted: 1 record(s); left alone: 0',
    ]);
    expect(await current(id)).toEqual({ id, ...body(1) });
    expect(await changes(id)).toEqual([
      'alice create',
      'mallory update',
      'cli:revert update',
      'mallory update',
      'cli:revert update',
    ]);
    // Someone else's change after it is still someone else's.
    await write(MALLORY, 'put', `/${id}`, body(668));
    await write(TOKENS.bob, 'put', `/${id}`, body(2));
    const left = await dryRunThenRun('covid', 'mallory', since);
    expect(left[0]).toMatch(
      new RegExp(`^covid record ${id}: left alone, changed by bob at ${ISO} afterwards$`),
    );
    expect(await current(id)).toEqual({ id, ...body(2) });
  });

  it('matches the actor ignoring case', async () => {
    const body = (total_cases: number) =>
      recordBody({ country: 'Case', date: '2022-07-02', total_cases });
    const id = (await write(TOKENS.alice, 'post', '', body(1))).id!;
    const since = await instantBetweenWrites();
    await write(MALLORY, 'put', `/${id}`, body(666));
    expect(await dryRunThenRun('covid', 'MALLORY', since)).toEqual([
      `covid record ${id}: put back (1 change(s) undone)`,
      'reverted: 1 record(s); left alone: 0',
    ]);
    expect(await current(id)).toEqual({ id, ...body(1) });
  });

  it('leaves a record whose earlier state was pruned, naming the horizon; never removes it', async () => {
    const body = (country: string, total_cases: number) =>
      recordBody({ country, date: '2022-08-01', total_cases });
    const updated = (await write(TOKENS.alice, 'post', '', body('Pruned', 1), 'mpox')).id!;
    const since = await instantBetweenWrites();
    await write(MALLORY, 'put', `/${updated}`, body('Pruned', 666), 'mpox');
    const created = (await write(MALLORY, 'post', '', body('Created', 5), 'mpox')).id!;
    const deleted = (await write(TOKENS.alice, 'post', '', body('Deleted', 7), 'mpox')).id!;
    await write(MALLORY, 'delete', `/${deleted}`, undefined, 'mpox');
    const horizon = await instantBetweenWrites();
    expect((await cli('prune-history', 'mpox', '--before', horizon)).code).toBe(0);
    expect(await changes(updated, 'mpox')).toEqual(['mallory update']);
    expect(await changes(deleted, 'mpox')).toEqual(['mallory delete']);

    const lines = await dryRunThenRun('mpox', 'mallory', since);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      new RegExp(
        `^mpox record ${updated}: left alone, its state before the change by mallory at ${ISO} was pruned \\(history kept from ${horizon.replace(/\./g, '\\.')}\\)$`,
      ),
    );
    // A creation kept in the history proves that nothing was there before it; a deletion keeps
    // the values it removed.
    expect(lines.slice(1)).toEqual([
      `mpox record ${created}: removed (1 change(s) undone)`,
      `mpox record ${deleted}: brought back (1 change(s) undone)`,
      'reverted: 2 record(s); left alone: 1',
    ]);
    expect(await current(deleted, 'mpox')).toEqual({ id: deleted, ...body('Deleted', 7) });
    expect(await current(updated, 'mpox')).toEqual({ id: updated, ...body('Pruned', 666) });
    expect(await current(created, 'mpox')).toBeNull();
  });

  it("never overwrites another client's write acknowledged while a revert of thousands runs", async () => {
    const COUNT = 3000;
    const day = (i: number) => new Date(Date.UTC(2010, 0, 1 + i)).toISOString().slice(0, 10);
    const rows = (total: (i: number) => number) =>
      Array.from({ length: COUNT }, (_, i) =>
        recordBody({ country: 'Raceland', date: day(i), total_cases: total(i) }),
      );
    const bulk = async (token: string, records: object[]) => {
      const res = await t.http.post('/api/covid/data/bulk').set(as(token)).send(records);
      expect(res.status).toBeLessThan(300);
    };
    await bulk(
      TOKENS.alice,
      rows((i) => i),
    );
    const ids = (
      await t.dataSource.query<{ id: unknown }[]>(
        `SELECT id FROM covid_data WHERE country = 'Raceland' ORDER BY date`,
      )
    ).map((row) => Number(row.id));
    expect(ids).toHaveLength(COUNT);
    const since = await instantBetweenWrites();
    await bulk(
      MALLORY,
      rows((i) => 1_000_000 + i),
    );

    // bob writes records at random (each loop its own share of them) until the revert is over.
    const revert = startCli(['revert', 'covid', '--actor', 'mallory', '--since', since], env);
    let running = true;
    void revert.result.then(() => (running = false));
    const acknowledged = new Map<number, number>();
    const attempted = new Set<number>();
    const LOOPS = 4;
    const loop = async (share: number) => {
      for (let n = 0; running; n++) {
        const index = Math.floor(Math.random() * (COUNT / LOOPS)) * LOOPS + share;
        const total = 2_000_000 + n * LOOPS + share;
        attempted.add(index);
        const res = await t.http
          .put(`/api/covid/data/${ids[index]}`)
          .set(as(TOKENS.bob))
          .send(recordBody({ country: 'Raceland', date: day(index), total_cases: total }));
        if (res.status === 200) acknowledged.set(index, total);
        else expect(res.status).toBe(503);
      }
    };
    await Promise.all(Array.from({ length: LOOPS }, (_, share) => loop(share)));
    const done = await revert.result;
    expect(done).toMatchObject({ code: 0, stderr: '' });
    expect(acknowledged.size).toBeGreaterThan(0);

    const stored = new Map(
      (
        await t.dataSource.query<{ date: unknown; total_cases: unknown }[]>(
          `SELECT date, total_cases FROM covid_data WHERE country = 'Raceland'`,
        )
      ).map((row) => [String(row.date).slice(0, 10), Number(row.total_cases)]),
    );
    const overwritten = [...acknowledged].filter(([i, total]) => stored.get(day(i)) !== total);
    expect(overwritten).toEqual([]);
    // Every record bob never wrote is back as alice left it.
    const notBack = ids
      .map((_, i) => i)
      .filter((i) => !attempted.has(i) && stored.get(day(i)) !== i);
    expect(notBack).toEqual([]);
    expect(done.stdout).toMatch(/\nreverted: \d+ record\(s\); left alone: \d+\n$/);
  });
});
