import { MemoryThrottlerStorage } from '../apps/api/src/rate-limit/memory-throttler.storage';

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

  it('drops idle counters when it sweeps', async () => {
    await hit('client:a');
    await hit('client:b');
    expect(storage.size).toBe(2);
    jest.advanceTimersByTime(TTL);
    expect(storage.size).toBe(0);
  });
});
