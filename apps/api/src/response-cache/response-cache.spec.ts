import { CachedValue } from '@app/diseases';
import { CachedAnswer, ResponseCache } from './response-cache';

class Route {
  handler(): void {}
}

/** An answer whose source stays current while `current()` says so. */
function answer(current: () => boolean): CachedAnswer {
  return {
    contentType: 'application/json; charset=utf-8',
    source: new CachedValue('[]', () => current()),
    headers: { etag: '"x"', 'cache-control': 'private, no-cache' },
    bytes: 2,
    compressed: {},
    extraHeaders: [],
    classRef: Route,
    handler: Route.prototype.handler,
  };
}

describe('ResponseCache', () => {
  it('serves an answer while its source is current, and forgets it after', () => {
    const cache = new ResponseCache(10);
    let current = true;
    const kept = answer(() => current);
    cache.set('/a', kept);
    expect(cache.get('/a')).toBe(kept);
    current = false;
    expect(cache.get('/a')).toBeUndefined();
    current = true;
    expect(cache.get('/a')).toBeUndefined();
  });

  it('never keeps an answer already out of date', () => {
    const cache = new ResponseCache(10);
    // Out of date when offered; were it kept, it would be served once current again.
    let current = false;
    cache.set(
      '/a',
      answer(() => current),
    );
    current = true;
    expect(cache.get('/a')).toBeUndefined();
  });

  it('when full, drops the answers no longer current first, and keeps the current ones', () => {
    const cache = new ResponseCache(4);
    let listsCurrent = true;
    const lists = ['/l1', '/l2', '/l3'].map((url) => [url, answer(() => listsCurrent)] as const);
    const totals = answer(() => true);
    cache.set('/totals', totals);
    for (const [url, kept] of lists) cache.set(url, kept);
    listsCurrent = false;

    const latest = answer(() => true);
    cache.set('/latest', latest);
    expect(cache.get('/totals')).toBe(totals);
    expect(cache.get('/latest')).toBe(latest);
  });

  it('starts again from empty when full of current answers', () => {
    const cache = new ResponseCache(2);
    const first = answer(() => true);
    cache.set('/a', first);
    cache.set(
      '/b',
      answer(() => true),
    );
    // The same URL again: no room needed.
    cache.set('/a', first);
    expect(cache.get('/b')).toBeDefined();

    const third = answer(() => true);
    cache.set('/c', third);
    expect([cache.get('/a'), cache.get('/b'), cache.get('/c')]).toEqual([
      undefined,
      undefined,
      third,
    ]);
  });

  it('keeps one answer per URL and list format that Accept asks for', () => {
    const cache = new ResponseCache();
    const json = answer(() => true);
    const csv = answer(() => true);
    cache.set('/a', json);
    cache.set('/a', csv, 'text/csv');
    expect(cache.get('/a')).toBe(json);
    expect(cache.get('/a', '*/*')).toBe(json);
    expect(cache.get('/a', 'application/json')).toBe(json);
    expect(cache.get('/a', 'text/csv')).toBe(csv);
    expect(cache.get('/a', 'text/csv;q=0.9, application/json;q=0.5')).toBe(csv);
    expect(cache.get('/a', 'application/x-ndjson')).toBeUndefined();
  });

  it('compresses a body read again unchanged only once, and a changed one again', () => {
    const cache = new ResponseCache(10);
    let current = true;
    const first = answer(() => current);
    first.compressed.gzip = Buffer.from('gz');
    cache.set('/a', first);
    current = false;
    expect(cache.get('/a')).toBeUndefined();
    expect(cache.compressedVariant('/a', undefined, '"x"', 'gzip')).toBe(first.compressed.gzip);
    expect(cache.compressedVariant('/a', undefined, '"y"', 'gzip')).toBeUndefined();
    expect(cache.compressedVariant('/a', undefined, '"x"', 'br')).toBeUndefined();
    const again = answer(() => true);
    cache.set('/a', again);
    expect(cache.get('/a')?.compressed.gzip).toBe(first.compressed.gzip);
    const changed = { ...answer(() => true), headers: { etag: '"y"', 'cache-control': 'x' } };
    cache.set('/a', changed);
    expect(cache.get('/a')?.compressed).toEqual({});
  });
});
