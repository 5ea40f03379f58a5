import { weekEnd, weeklyHistory } from './weekly-history';

const day = (date: string, newCases: number, totalCases: number) => ({
  date,
  new_cases: newCases,
  new_deaths: 1,
  total_cases: totalCases,
  total_deaths: 10,
});

describe('weekly history', () => {
  it('ends each ISO week on its Sunday', () => {
    expect(weekEnd('2023-03-06')).toBe('2023-03-12'); // Monday
    expect(weekEnd('2023-03-12')).toBe('2023-03-12'); // Sunday
    expect(weekEnd('2022-12-31')).toBe('2023-01-01'); // Saturday, across the year
  });

  it('sums new values per week, keeps the last totals and counts the days', () => {
    expect(
      weeklyHistory('France', [
        day('2023-03-04', 5, 100),
        day('2023-03-06', 1, 101),
        day('2023-03-07', 2, 103),
        day('2023-03-20', 4, 107),
      ]),
    ).toEqual({
      country: 'France',
      weeks: ['2023-03-05', '2023-03-12', '2023-03-26'],
      days: [1, 2, 1],
      new_cases: [5, 3, 4],
      new_deaths: [1, 2, 1],
      total_cases: [100, 103, 107],
      total_deaths: [10, 10, 10],
    });
  });
});
