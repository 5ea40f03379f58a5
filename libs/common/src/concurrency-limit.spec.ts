import { ConcurrencyLimit } from './concurrency-limit';

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
});
