import { ReadCache } from '@app/series';

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
