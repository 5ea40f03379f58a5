/**
 * Putting records back from the command line: `history`, `restore` (a deleted record comes back
 * with its id) and `revert` (the leaked-token case: every change of one actor since a moment is
 * undone, a record someone else changed afterwards is reported and left alone). Each is itself a
 * new revision. Slow layer: it runs the built command line.
 */
import { CliResult, databaseEnv, runCli } from '../../support/cli';
import { recordBody } from '../../support/fixtures';
import { snapshot } from '../../support/table-snapshot';
import { recordClient } from '../../support/record-client';
import { TOKENS, TestApp, bootTestApp } from '../../support/test-app';

const MALLORY = 'mallory-token-0123456789abcdef';

describe('history, restore and revert (command line)', () => {
  let t: TestApp;
  let cli: (...args: string[]) => Promise<CliResult>;
  const { as, write, latest: record, changes } = recordClient(() => t);

  beforeAll(async () => {
    t = await bootTestApp({
      API_TOKENS: `alice:${TOKENS.alice},bob:${TOKENS.bob},mallory:${MALLORY}`,
      CACHE_TTL_MS: '0',
    });
    const env = databaseEnv(t.config.db);
    cli = (...args) => runCli(args, env);
  });
  afterAll(() => t.close());

  it('reverts one actor: updates, deletions and creations undone; a later change kept', async () => {
    const body = (country: string, total_cases: number) =>
      recordBody({ country, date: '2022-02-02', total_cases });
    const a = (await write(TOKENS.alice, 'post', '', body('Zone A', 1))).id!;
    const b = (await write(TOKENS.alice, 'post', '', body('Zone B', 2))).id!;
    const d = (await write(TOKENS.alice, 'post', '', body('Zone D', 4))).id!;
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await write(MALLORY, 'put', `/${a}`, body('Zone A', 666));
    await write(MALLORY, 'delete', `/${b}`);
    const c = (await write(MALLORY, 'post', '', body('Zone C', 3))).id!;
    await write(MALLORY, 'put', `/${d}`, body('Zone D', 666));
    await write(TOKENS.bob, 'put', `/${d}`, body('Zone D', 5));

    const before = await snapshot(t.dataSource);
    const dry = await cli('revert', 'covid', '--actor', 'mallory', '--since', since, '--dry-run');
    expect(dry.code).toBe(0);
    const dLine = (done: string) =>
      new RegExp(
        `^covid record ${d}: left alone, changed by bob at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z afterwards$`,
      ).test(done);
    // One line per record, by id (d was created before c), then the count.
    const lines = dry.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe(`covid record ${a}: would be put back (1 change(s) undone)`);
    expect(lines[1]).toBe(`covid record ${b}: would be brought back (1 change(s) undone)`);
    expect(dLine(lines[2])).toBe(true);
    expect(lines[3]).toBe(`covid record ${c}: would be removed (1 change(s) undone)`);
    expect(lines[4]).toBe('would revert: 3 record(s); left alone: 1 (--dry-run: nothing written)');
    expect(await snapshot(t.dataSource)).toBe(before);

    const done = await cli('revert', 'covid', '--actor', 'mallory', '--since', since);
    expect(done.code).toBe(0);
    const applied = done.stdout.trimEnd().split('\n');
    expect([applied[0], applied[1], applied[3]]).toEqual([
      `covid record ${a}: put back (1 change(s) undone)`,
      `covid record ${b}: brought back (1 change(s) undone)`,
      `covid record ${c}: removed (1 change(s) undone)`,
    ]);
    expect(dLine(applied[2])).toBe(true);
    expect(done.stdout).toContain('reverted: 3 record(s); left alone: 1\n');

    expect(await record(a)).toEqual({ id: a, ...body('Zone A', 1) });
    expect(await record(b)).toEqual({ id: b, ...body('Zone B', 2) });
    expect(await record(c)).toBeNull();
    expect(await record(d)).toEqual({ id: d, ...body('Zone D', 5) });
    expect(await changes(b)).toEqual(['alice create', 'mallory delete', 'cli:revert create']);
    expect(await changes(c)).toEqual(['mallory create', 'cli:revert delete']);
    expect(await changes(d)).toEqual(['alice create', 'mallory update', 'bob update']);
    // Served by the API at once: the brought-back record is listed with its id.
    const listed = await t.http.get('/api/covid/data?country=Zone%20B').set(as(TOKENS.alice));
    expect(listed.body).toEqual([{ id: b, ...body('Zone B', 2) }]);

    // Nothing left to undo: a second run changes nothing.
    const again = await cli('revert', 'covid', '--actor', 'mallory', '--since', since);
    expect(again.stdout).toContain('reverted: 0 record(s); left alone: 1\n');
  });

  it('restores a deleted record with its id, an updated one, or a given revision', async () => {
    const body = (total_cases: number) =>
      recordBody({ country: 'Restoria', date: '2022-03-03', total_cases });
    const id = (await write(TOKENS.alice, 'post', '', body(1))).id!;
    await write(TOKENS.bob, 'put', `/${id}`, body(2));
    await write(TOKENS.bob, 'delete', `/${id}`);

    expect(await cli('restore', 'covid', String(id))).toEqual({
      code: 0,
      stdout: `covid record ${id}: brought back (as revision 2 left it)\n`,
      stderr: '',
    });
    expect(await record(id)).toEqual({ id, ...body(2) });
    expect(await cli('restore', 'covid', String(id), '--revision', '1')).toEqual({
      code: 0,
      stdout: `covid record ${id}: put back (as revision 1 left it)\n`,
      stderr: '',
    });
    expect(await record(id)).toEqual({ id, ...body(1) });
    expect(await changes(id)).toEqual([
      'alice create',
      'bob update',
      'bob delete',
      'cli:restore create',
      'cli:restore update',
    ]);
    const printed = await cli('history', 'covid', String(id));
    expect(printed.code).toBe(0);
    const rows = printed.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^REVISION +AT +ACTOR +CHANGE +DATE +COUNTRY +FIGURES$/);
    expect(rows).toHaveLength(6);
    expect(rows[3]).toMatch(/^3 +\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z +bob +delete +- +- +-$/);
    expect(rows[5]).toMatch(
      /^5 +\S+ +cli:restore +update +2022-03-03 +Restoria +1 \(\+20000\), deaths 86000 \(\+250\)$/,
    );
    // A day revised downwards prints with its own sign.
    await write(TOKENS.bob, 'put', `/${id}`, { ...body(1), new_cases: -5 });
    const revised = await cli('history', 'covid', String(id));
    expect(revised.stdout.trimEnd().split('\n')[6]).toMatch(
      /^6 +\S+ +bob +update +2022-03-03 +Restoria +1 \(-5\), deaths 86000 \(\+250\)$/,
    );
  });

  it('refuses what it cannot do with a clear line, changing nothing', async () => {
    const id = (
      await write(
        TOKENS.alice,
        'post',
        '',
        recordBody({ country: 'Clashland', date: '2022-04-04' }),
      )
    ).id!;
    await write(TOKENS.alice, 'delete', `/${id}`);
    // Another record takes the same country and date: bringing the first back would clash.
    await write(TOKENS.bob, 'post', '', recordBody({ country: 'Clashland', date: '2022-04-04' }));
    const before = await snapshot(t.dataSource);
    const cases: [string[], number, string][] = [
      [
        ['restore', 'covid', String(id)],
        1,
        'error: another record now holds the same country and date; nothing was changed\n',
      ],
      [['restore', 'covid', '987654321'], 1, 'error: covid record 987654321 has no history\n'],
      [
        ['restore', 'covid', String(id), '--revision', '9'],
        2,
        `error: --revision must be from 1 to 2 for record ${id}\n`,
      ],
      [['history', 'flu', '1'], 2, 'error: unknown disease "flu": expected covid or mpox\n'],
      [['history', 'covid', '0'], 2, 'error: invalid record id "0": expected a positive integer\n'],
      [
        ['revert', 'covid', '--actor', 'x', '--since', 'last week'],
        2,
        'error: invalid --since "last week": expected an ISO 8601 date or date-time (2026-11-26, 2026-11-26T10:00:00Z)\n',
      ],
    ];
    for (const [args, code, stderr] of cases) {
      expect({ args, result: await cli(...args) }).toEqual({
        args,
        result: { code, stdout: '', stderr },
      });
    }
    const missing = await cli('revert', 'covid', '--since', '2026-01-01');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("error: required option '--actor <name>' not specified");
    expect(await snapshot(t.dataSource)).toBe(before);
  });
});
