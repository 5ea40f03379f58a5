import { weekEnd, weeklyAnswer } from './weekly-answer';

const day = (date: string, newCases: number, totalCases: number) => ({
  date,
  new_cases: newCases,
  new_deaths: 1,
  total_cases: totalCases,
  total_deaths: 10,
});

describe('weekly series', () => {
  it('ends each ISO week on its Sunday', () => {
    expect(weekEnd('2023-03-06')).toBe('2023-03-12'); // Monday
    expect(weekEnd('2023-03-12')).toBe('2023-03-12'); // Sunday
    expect(weekEnd('2022-12-31')).toBe('2023-01-01'); // Saturday, across the year
  });

  it('sums new values per week, keeps the last totals and counts the days', () => {
    expect(
      weeklyAnswer('France', [
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
      population: null,
      new_cases_per_million: [null, null, null],
      new_deaths_per_million: [null, null, null],
      total_cases_per_million: [null, null, null],
      total_deaths_per_million: [null, null, null],
      new_cases_smoothed: [null, null, null],
      new_deaths_smoothed: [null, null, null],
      flags: [[], [], []],
    });
  });

  it("flags each week with the union of its days' flags", () => {
    const history = weeklyAnswer(
      'France',
      [
        day('2023-03-04', -5, 100),
        day('2023-03-06', 1, 101),
        day('2023-03-07', 2, 103),
        { ...day('2023-03-08', 1, 104), new_deaths: -1 },
        day('2023-03-20', 4, 107),
      ],
      undefined,
      new Set(['2023-03-07', '2023-03-20']),
    );
    expect(history.flags).toEqual([
      ['negative_new_cases'],
      ['negative_new_deaths', 'corrected'],
      ['corrected'],
    ]);
  });

  it("adds per-million figures over each week's population and the last day's 7-day average", () => {
    const days = Array.from({ length: 8 }, (_, i) =>
      day(`2023-03-${String(5 + i).padStart(2, '0')}`, i + 1, 100 + i),
    );
    // 2023: 3 million (a table of 2020 and 2025 would give 2025 for 2023: the nearest year).
    const history = weeklyAnswer('France', days, (year) => (year === 2023 ? 3_000_000 : null));
    expect(history.weeks).toEqual(['2023-03-05', '2023-03-12']);
    expect(history.population).toBe(3_000_000);
    expect(history.new_cases).toEqual([1, 2 + 3 + 4 + 5 + 6 + 7 + 8]);
    expect(history.new_cases_per_million).toEqual([0.333, 11.667]);
    expect(history.total_cases_per_million).toEqual([33.333, 35.667]);
    // 03-12's average: (2+3+...+8)/7 = 5; 03-05 has no 6 days before it.
    expect(history.new_cases_smoothed).toEqual([null, 5]);
    expect(history.new_deaths_smoothed).toEqual([null, 1]);
  });
});
