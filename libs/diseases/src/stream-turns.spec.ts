import { EventLoopTurns } from './stream-turns';

describe('EventLoopTurns', () => {
  it('lets one waiter go per turn of the event loop, in arrival order', async () => {
    const turns = new EventLoopTurns();
    // Counts turns: one setImmediate callback per turn of the loop.
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const order: number[] = [];
    const resumedAt = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        turns.next().then(() => {
          order.push(i);
          return turn;
        }),
      ),
    );
    counting = false;
    expect(order).toEqual([0, 1, 2, 3]);
    // Four different turns (plain setImmediate calls would all resume in the same one).
    expect(new Set(resumedAt).size).toBe(4);
  });

  it('lets a waiter that comes later go too, after the queue drained', async () => {
    const turns = new EventLoopTurns();
    await turns.next();
    await expect(turns.next()).resolves.toBeUndefined();
  });
});
