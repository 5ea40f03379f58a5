import { SqlRunner } from '@app/database';
import { TestApp, bootTestApp } from '../../support/test-app';
import { onlyOn } from '../../support/database-only';

/** A promise and the function that settles it. */
function signal(): { done: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const done = new Promise<void>((resolve) => (fire = resolve));
  return { done, fire };
}

onlyOn('mysql').describe("SqlRunner's write transaction on MySQL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
    await t.dataSource.query('CREATE TABLE deadlock_probe (id INT PRIMARY KEY, v INT NOT NULL)');
    await t.dataSource.query('INSERT INTO deadlock_probe VALUES (1, 0), (2, 0)');
  });
  afterAll(() => t.close());

  it("runs a deadlock's victim again: two transactions that lock two rows in opposite orders both commit", async () => {
    const attempts = { first: 0, second: 0 };
    const firstLocked = signal();
    const secondLocked = signal();
    /** Locks row `a`, waits (first attempt only) until the other holds row `b`, then writes `b`. */
    const crossing =
      (
        who: 'first' | 'second',
        a: number,
        b: number,
        mine: typeof firstLocked,
        theirs: typeof firstLocked,
      ) =>
      () =>
        new SqlRunner(t.dataSource).transaction(async (manager) => {
          attempts[who]++;
          await manager.query('UPDATE deadlock_probe SET v = v + 1 WHERE id = ?', [a]);
          if (attempts[who] === 1) {
            mine.fire();
            await theirs.done;
          }
          await manager.query('UPDATE deadlock_probe SET v = v + 1 WHERE id = ?', [b]);
          return who;
        });

    const results = await Promise.all([
      crossing('first', 1, 2, firstLocked, secondLocked)(),
      crossing('second', 2, 1, secondLocked, firstLocked)(),
    ]);
    expect(results).toEqual(['first', 'second']);
    // InnoDB rolled one of them back once; it ran again and committed.
    expect(attempts.first + attempts.second).toBe(3);
    expect(await t.dataSource.query('SELECT id, v FROM deadlock_probe ORDER BY id')).toEqual([
      { id: 1, v: 2 },
      { id: 2, v: 2 },
    ]);
  });

  it('does not run again a transaction that failed otherwise', async () => {
    let attempts = 0;
    await expect(
      new SqlRunner(t.dataSource).transaction(async (manager) => {
        attempts++;
        await manager.query('INSERT INTO deadlock_probe VALUES (1, 0)');
      }),
    ).rejects.toMatchObject({ driverError: { code: 'ER_DUP_ENTRY' } });
    expect(attempts).toBe(1);
  });
});
