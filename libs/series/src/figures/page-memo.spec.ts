import { FigureDay } from './daily-figures';
import { PageMemo, sameDays } from './page-memo';
import { PopulationTable } from './population-table';

const day = (date: string, newCases: number): FigureDay => ({
  date,
  new_cases: newCases,
  new_deaths: 0,
  total_cases: newCases,
  total_deaths: 0,
});

describe('PageMemo', () => {
  const table = new PopulationTable([]);

  it('answers the page again from equal days and the same table, without computing', () => {
    const memo = new PageMemo<string>();
    let computed = 0;
    const compute = () => `page ${++computed}`;
    expect(memo.get('k', { days: [day('2020-01-01', 1)], table }, compute)).toBe('page 1');
    expect(memo.get('k', { days: [day('2020-01-01', 1)], table }, compute)).toBe('page 1');
    expect(computed).toBe(1);
  });

  it('computes again when a figure, a day or the table changed, and per key', () => {
    const memo = new PageMemo<string>();
    let computed = 0;
    const compute = () => `page ${++computed}`;
    memo.get('k', { days: [day('2020-01-01', 1)], table }, compute);
    expect(memo.get('k', { days: [day('2020-01-01', 2)], table }, compute)).toBe('page 2');
    expect(
      memo.get('k', { days: [day('2020-01-01', 2), day('2020-01-02', 0)], table }, compute),
    ).toBe('page 3');
    expect(
      memo.get(
        'k',
        { days: [day('2020-01-01', 2), day('2020-01-02', 0)], table: new PopulationTable([]) },
        compute,
      ),
    ).toBe('page 4');
    expect(memo.get('other', { days: [], table }, compute)).toBe('page 5');
  });

  it('keeps at most its size, the least recently used dropped first', () => {
    const memo = new PageMemo<string>(2);
    let computed = 0;
    const compute = () => `page ${++computed}`;
    memo.get('a', { days: [], table }, compute);
    memo.get('b', { days: [], table }, compute);
    memo.get('a', { days: [], table }, compute);
    memo.get('c', { days: [], table }, compute);
    expect(memo.get('a', { days: [], table }, compute)).toBe('page 1');
    expect(memo.get('b', { days: [], table }, compute)).toBe('page 4');
  });

  it('compares regions by how many countries reported too', () => {
    const reported = (n: number) => [{ ...day('2020-01-01', 1), countries_reporting: n }];
    expect(sameDays(reported(3), reported(3))).toBe(true);
    expect(sameDays(reported(3), reported(4))).toBe(false);
  });
});
