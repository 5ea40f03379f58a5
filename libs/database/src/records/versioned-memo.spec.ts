import { FigureDay } from './series.types';
import { VersionedMemo } from './versioned-memo';

const day = (date: string, new_cases: number): FigureDay => ({
  date,
  new_cases,
  new_deaths: 0,
  total_cases: new_cases,
  total_deaths: 0,
});

describe('VersionedMemo', () => {
  it('reads again only when the version changed', async () => {
    let version = 'v1';
    let reads = 0;
    const memo = new VersionedMemo<FigureDay[]>(() => Promise.resolve(version), 32);
    const read = () => Promise.resolve([day('2023-01-01', ++reads)]);
    expect(await memo.get('World', read)).toEqual([day('2023-01-01', 1)]);
    expect(await memo.get('World', read)).toEqual([day('2023-01-01', 1)]);
    expect(reads).toBe(1);
    version = 'v2';
    expect(await memo.get('World', read)).toEqual([day('2023-01-01', 2)]);
    expect(await memo.get('Europe', read)).toEqual([day('2023-01-01', 3)]);
    expect(reads).toBe(3);
  });

  it('keeps the version read before the sums, so a write meanwhile costs one more read', async () => {
    let version = 1;
    const memo = new VersionedMemo<FigureDay[]>(() => Promise.resolve(String(version)), 32);
    const first = await memo.get('World', () => {
      version++; // a write commits while the sums are read
      return Promise.resolve([day('2023-01-01', 1)]);
    });
    expect(first).toEqual([day('2023-01-01', 1)]);
    const again = await memo.get('World', () => Promise.resolve([day('2023-01-01', 2)]));
    expect(again).toEqual([day('2023-01-01', 2)]);
  });

  it('keeps at most its size, dropping the least recently read', async () => {
    let reads = 0;
    const memo = new VersionedMemo<FigureDay[]>(() => Promise.resolve('v'), 32);
    const read = () => Promise.resolve([day('2023-01-01', ++reads)]);
    for (let i = 0; i < 32; i++) await memo.get(`key ${i}`, read);
    await memo.get('key 0', read); // read again: now the most recent
    await memo.get('key 32', read); // drops key 1
    expect(reads).toBe(33);
    await memo.get('key 0', read);
    expect(reads).toBe(33);
    await memo.get('key 1', read);
    expect(reads).toBe(34);
  });
});
