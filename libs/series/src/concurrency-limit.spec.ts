import { AppConfig, loadConfig } from '@app/config';
import { ConcurrencyLimit } from './concurrency-limit';
import { listPageQueries } from './reads/series.module';

describe('ConcurrencyLimit', () => {
  it('runs at most max tasks at once, the others in order, and frees a slot when a task fails', async () => {
    const limit = new ConcurrencyLimit(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const task = (i: number) => () => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      return new Promise<number>((resolve, reject) =>
        setTimeout(() => {
          running--;
          if (i === 1) reject(new Error('failed'));
          else resolve(i);
        }, 10),
      );
    };
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map((i) => limit.run(task(i))));
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    // Every slot is free again: two more run at once.
    most = 0;
    await Promise.all([limit.run(task(5)), limit.run(task(6))]);
    expect(most).toBe(2);
  });

  it('gives list pages a quarter of the MySQL pool per disease, at least one; one on SQLite', () => {
    const mysql = (pool?: string): AppConfig =>
      loadConfig({ DB_TYPE: 'mysql', ...(pool ? { DB_POOL_SIZE: pool } : {}) });
    expect(listPageQueries(mysql())).toBe(2);
    expect(listPageQueries(mysql('40'))).toBe(10);
    expect(listPageQueries(mysql('2'))).toBe(1);
    expect(listPageQueries(loadConfig({}))).toBe(1);
  });
});
