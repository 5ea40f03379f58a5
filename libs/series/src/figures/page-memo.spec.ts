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
  const corrected = new Set<string>();

  it('answers the page again from equal days and the same table, without computing', () => {
    const memo = new PageMemo<string>();
    let computed = 0;
    const compute = () => `page ${++computed}`;
    expect(memo.get('k', { days: [day('2020-01-01', 1)], table, corrected }, compute)).toBe(
      'page 1',
    );
    expect(memo.get('k', { days: [day('2020-01-01', 1)], table, corrected }, compute)).toBe(
      'page 1',
    );
    expect(computed).toBe(1);
  });

  it('computes again when a figure, a day or the table changed, and per key', () => {
    const memo = new PageMemo<string>();
    let computed = 0;
    const compute = () => `page ${++computed}`;
    memo.get('k', { days: [day('2020-01-01', 1)], table, corrected }, compute);
    expect(memo.get('k', { days: [day('2020-01-01', 2)], table, corrected }, compute)).toBe(
      'page 2',
    );
    expect(
      memo.get(
        'k',
        { days: [day('2020-01-01', 2), day('2020-01-02', 0)], table, corrected },
        compute,
      ),
    ).toBe('page 3');
    expect(
      memo.get(
        'k',
        {
          days: [day('2020-01-01', 2), day('2020-01-02', 0)],
          table: new PopulationTable([]),
          corrected,
        },
        compute,
      ),
    ).toBe('page 4');
    expect(memo.get('other', { days: [], table, corrected }, compute)).toBe('page 5');
  });

  it('keeps at most its size, the least recently used dropped first', () => {
    const memo = new PageMemo<string>(2);
    let computed = 0;
    const compute = () => `page ${++computed}`;
    memo.get('a', { days: [], table, corrected }, compute);
    memo.get('b', { days: [], table, corrected }, compute);
    memo.get('a', { days: [], table, corrected }, compute);
    memo.get('c', { days: [], table, corrected }, compute);
    expect(memo.get('a', { days: [], table, corrected }, compute)).toBe('page 1');
    expect(memo.get('b', { days: [], table, corrected }, compute)).toBe('page 4');
  });

  it('compares regions by how many countries reported too', () => {
    const reported = (n: number) => [{ ...day('2020-01-01', 1), countries_reporting: n }];
    expect(sameDays(reported(3), reported(3))).toBe(true);
    expect(sameDays(reported(3), reported(4))).toBe(false);
  });

  it('computes again when the corrected dates changed', () => {
    const memo = new PageMemo<string>();
    let computed = 0;
    const compute = () => `page ${++computed}`;
    const days = [day('2020-01-01', 1)];
    memo.get('k', { days, table, corrected: new Set(['2020-01-01']) }, compute);
    expect(memo.get('k', { days, table, corrected: new Set(['2020-01-01']) }, compute)).toBe(
      'page 1',
    );
    expect(memo.get('k', { days, table, corrected }, compute)).toBe('page 2');
  });
});
