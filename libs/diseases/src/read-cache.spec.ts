import { ReadCache } from './read-cache';

describe('ReadCache', () => {
  it('shares one query between concurrent misses and keeps its answer', async () => {
    const cache = new ReadCache(60_000);
    let calls = 0;
    const load = () => Promise.resolve(++calls);
    const answers = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect(answers).toEqual([1, 1]);
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('other', load)).toBe(2);
  });

  it('queries again after invalidate()', async () => {
    const cache = new ReadCache(60_000);
    let calls = 0;
    const load = () => Promise.resolve(++calls);
    await cache.get('k', load);
    cache.invalidate();
    expect(await cache.get('k', load)).toBe(2);
  });

  it('does not keep a failed query', async () => {
    const cache = new ReadCache(60_000);
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', () => Promise.resolve('up'))).toBe('up');
  });

  it('keeps nothing when the TTL is 0', async () => {
    const cache = new ReadCache(0);
    let calls = 0;
    const load = () => Promise.resolve(++calls);
    await cache.get('k', load);
    expect(await cache.get('k', load)).toBe(2);
  });

  it('stays bounded: past maxEntries it starts afresh', async () => {
    const cache = new ReadCache(60_000, 2);
    let calls = 0;
    const load = () => Promise.resolve(++calls);
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('c', load);
    expect(await cache.get('a', load)).toBe(4);
  });
});

describe('ReadCache, once an answer expires', () => {
  // Answers kept 200 ms: far longer than REFRESH_WAIT_MS and a loaded machine's delays.
  const expire = () => new Promise((resolve) => setTimeout(resolve, 250));
  /** A query answered when the test says. */
  const deferred = <T>() => {
    let answer!: (value: T) => void;
    let fail!: (error: Error) => void;
    const promise = new Promise<T>((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
    return { promise, answer, fail, load: jest.fn(() => promise) };
  };

  it('answers the new answer to the caller that reads it again, if it comes soon', async () => {
    const cache = new ReadCache(200);
    await cache.get('k', () => Promise.resolve('a'));
    await expire();
    expect(await cache.get('k', () => Promise.resolve('b'))).toBe('b');
    expect(await cache.get('k', () => Promise.resolve('c'))).toBe('b');
  });

  it('serves it while one slow query reads it again, then serves the new answer', async () => {
    const cache = new ReadCache(200);
    await cache.get('k', () => Promise.resolve('a'));
    await expire();
    const again = deferred<string>();
    expect(await cache.get('k', again.load)).toBe('a');
    expect(await cache.get('k', again.load)).toBe('a');
    expect(again.load).toHaveBeenCalledTimes(1);
    again.answer('b');
    await again.promise;
    expect(await cache.get('k', () => Promise.resolve('c'))).toBe('b');
  });

  it('after invalidate(), makes callers wait for a new query, and drops one started before', async () => {
    const cache = new ReadCache(200);
    await cache.get('k', () => Promise.resolve('a'));
    await expire();
    const before = deferred<string>();
    expect(await cache.get('k', before.load)).toBe('a');
    cache.invalidate();
    expect(await cache.get('k', () => Promise.resolve('c'))).toBe('c');
    before.answer('b');
    await before.promise;
    expect(await cache.get('k', () => Promise.resolve('d'))).toBe('c');
  });

  it('drops it when the new query fails', async () => {
    const cache = new ReadCache(200);
    await cache.get('k', () => Promise.resolve('a'));
    await expire();
    const failing = deferred<string>();
    expect(await cache.get('k', failing.load)).toBe('a');
    failing.fail(new Error('down'));
    await failing.promise.catch(() => undefined);
    expect(await cache.get('k', () => Promise.resolve('up'))).toBe('up');
  });

  it('tells callers that the answer it serves is no longer held', async () => {
    const cache = new ReadCache(200);
    await cache.get('k', () => Promise.resolve('a'));
    await expire();
    const stale = await cache.getCached('k', () => new Promise<string>(() => undefined));
    expect(stale.value).toBe('a');
    expect(stale.isCurrent()).toBe(false);
  });
});

describe('ReadCache.getCached', () => {
  it('tells whether the cache still holds the value: until invalidate()', async () => {
    const cache = new ReadCache(60_000);
    const first = await cache.getCached('k', () => Promise.resolve('a'));
    const again = await cache.getCached('k', () => Promise.resolve('b'));
    expect([first.value, again.value]).toEqual(['a', 'a']);
    expect([first.isCurrent(), again.isCurrent()]).toEqual([true, true]);
    cache.invalidate();
    expect([first.isCurrent(), again.isCurrent()]).toEqual([false, false]);
    const reloaded = await cache.getCached('k', () => Promise.resolve('c'));
    expect(reloaded.value).toBe('c');
    expect([first.isCurrent(), reloaded.isCurrent()]).toEqual([false, true]);
  });

  it('until the value expires, counted from the start of its query', async () => {
    const cache = new ReadCache(1000);
    const started = Date.now();
    const value = await cache.getCached('k', () => Promise.resolve('a'));
    expect(value.isCurrent(started + 999 - 50)).toBe(true);
    expect(value.isCurrent(Date.now() + 1000)).toBe(false);
  });

  it('never, when the cache is off', async () => {
    const cache = new ReadCache(0);
    const value = await cache.getCached('k', () => Promise.resolve('a'));
    expect(value.value).toBe('a');
    expect(value.isCurrent()).toBe(false);
  });

  it('not for a value that another key replaced in a full cache', async () => {
    const cache = new ReadCache(60_000, 1);
    const first = await cache.getCached('k', () => Promise.resolve('a'));
    await cache.getCached('other', () => Promise.resolve('b'));
    expect(first.isCurrent()).toBe(false);
  });
});

describe('ReadCache with the records’ version (SQLite)', () => {
  const expire = () => new Promise((resolve) => setTimeout(resolve, 250));

  it('keeps an expired answer while the version holds, and reads again once it changes', async () => {
    let version = 'v1';
    const cache = new ReadCache(200, 1000, undefined, () => Promise.resolve(version));
    let calls = 0;
    const load = () => Promise.resolve(++calls);
    expect(await cache.get('k', load)).toBe(1);
    await expire();
    expect(await cache.get('k', load)).toBe(1);
    const renewed = await cache.getCached('k', load);
    expect([renewed.value, renewed.isCurrent()]).toEqual([1, true]);
    version = 'v2';
    await expire();
    expect(await cache.get('k', load)).toBe(2);
    expect(calls).toBe(2);
  });

  it('still drops everything on invalidate(), whatever the version', async () => {
    const cache = new ReadCache(60_000, 1000, undefined, () => Promise.resolve('v1'));
    let calls = 0;
    const load = () => Promise.resolve(++calls);
    await cache.get('k', load);
    cache.invalidate();
    expect(await cache.get('k', load)).toBe(2);
  });
});
