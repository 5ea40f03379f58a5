import { MemoryThrottlerStorage } from './memory-throttler.storage';

describe('MemoryThrottlerStorage (fixed window, as the Redis storage)', () => {
  const TTL = 60_000;
  let storage: MemoryThrottlerStorage;
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2024-01-01T00:00:00Z') });
    storage = new MemoryThrottlerStorage();
  });
  afterEach(() => {
    storage.onApplicationShutdown();
    jest.useRealTimers();
  });

  const hit = (key = 'client:a') => storage.increment(key, TTL, 2, TTL, 'default');

  it('counts hits per key and blocks past the limit, with the time left', async () => {
    expect(await hit()).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect((await hit()).isBlocked).toBe(false);
    jest.advanceTimersByTime(10_500);
    expect(await hit()).toEqual({
      totalHits: 3,
      timeToExpire: 50,
      isBlocked: true,
      timeToBlockExpire: 60,
    });
    expect((await hit('client:b')).isBlocked).toBe(false);
  });

  it('starts a new window when the window and the block are over', async () => {
    await hit();
    await hit();
    await hit();
    jest.advanceTimersByTime(TTL - 1);
    expect((await hit()).isBlocked).toBe(true);
    jest.advanceTimersByTime(1);
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('counts refused hits too: a client that keeps sending stays refused, one that waits starts afresh', async () => {
    for (const key of ['client:eager', 'client:patient']) {
      await hit(key);
      await hit(key);
    }
    jest.advanceTimersByTime(10_000);
    // Third hit of each: blocked until 70 s, while the window ends at 60 s.
    expect((await hit('client:eager')).isBlocked).toBe(true);
    expect((await hit('client:patient')).isBlocked).toBe(true);
    jest.advanceTimersByTime(50_000);
    // 60 s: a new window, still blocked; these refused hits count in it.
    for (let i = 0; i < 3; i++) expect((await hit('client:eager')).isBlocked).toBe(true);
    jest.advanceTimersByTime(10_000);
    // 70 s: the block is over, but the eager client's window already holds 3 hits.
    expect(await hit('client:eager')).toMatchObject({ totalHits: 4, isBlocked: true });
    expect(await hit('client:patient')).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('counts one key apart in each throttler', async () => {
    await hit('client:a');
    await hit('client:a');
    expect((await storage.increment('client:a', TTL, 2, TTL, 'short')).totalHits).toBe(1);
    expect(await hit('client:a')).toMatchObject({ totalHits: 3, isBlocked: true });
    expect(storage.size).toBe(2);
  });

  it('drops idle counters when it sweeps', async () => {
    await hit('client:a');
    await hit('client:b');
    expect(storage.size).toBe(2);
    jest.advanceTimersByTime(TTL);
    expect(storage.size).toBe(0);
  });
});
