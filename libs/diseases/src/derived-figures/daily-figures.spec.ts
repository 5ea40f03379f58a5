import {
  FigureDay,
  dailyFigures,
  figureOutput,
  smoothedColumn,
  weeklyFigures,
} from './daily-figures';

const day = (date: string, newCases: number, totalCases = 0): FigureDay => ({
  date,
  new_cases: newCases,
  new_deaths: 0,
  total_cases: totalCases,
  total_deaths: 0,
});

describe('daily figures', () => {
  it('averages the 7 calendar days ending each day, null until each of them has a record', () => {
    const days = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => day(`2023-03-0${n}`, n));
    expect(smoothedColumn(days, 'new_cases')).toEqual([null, null, null, null, null, null, 4, 5]);
  });

  it('leaves the average null when a day of the 7 has no record (absent, not zero)', () => {
    const days = ['01', '02', '03', '05', '06', '07', '08', '09', '10', '11'].map((d) =>
      day(`2023-03-${d}`, 7),
    );
    // 03-04 is missing: the windows ending 03-05 to 03-10 hold it; 03-11's (05..11) does not.
    expect(smoothedColumn(days, 'new_cases')).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      7,
    ]);
  });

  it('averages the days after a huge one exactly once it has left the window', () => {
    const days = [Number.MAX_SAFE_INTEGER, 1, 1, 1, 1, 1, 1, 1, 1].map((n, i) =>
      day(`2023-03-0${i + 1}`, n),
    );
    expect(smoothedColumn(days, 'new_cases').slice(7)).toEqual([1, 1]);
  });

  it('keeps negative days as published, in the averages too', () => {
    const days = [10, 10, 10, 10, 10, 10, -11].map((n, i) => day(`2023-03-0${i + 1}`, n));
    expect(smoothedColumn(days, 'new_cases')[6]).toBe(7);
  });

  it('gives per-million figures over the population of each row’s year, null without one', () => {
    const rows = dailyFigures([day('2022-12-31', 5, 50), day('2023-01-01', 2, 52)], (year) =>
      year === 2022 ? 2_000_000 : null,
    );
    expect(rows[0]).toMatchObject({ new_cases_per_million: 2.5, total_cases_per_million: 25 });
    expect(rows[1]).toMatchObject({ new_cases_per_million: null, total_cases_per_million: null });
  });

  it('sums weeks, keeps the last day’s totals, average and countries reporting', () => {
    const days = dailyFigures(
      [
        { ...day('2023-03-05', 1, 1), countries_reporting: 1 },
        { ...day('2023-03-06', 2, 3), countries_reporting: 2 },
        { ...day('2023-03-08', 3, 6), countries_reporting: 3 },
      ],
      () => 1_000_000,
    );
    const weeks = weeklyFigures(days, () => 1_000_000);
    expect(
      weeks.map((w) => [w.date, w.days, w.new_cases, w.total_cases, w.countries_reporting]),
    ).toEqual([
      ['2023-03-05', 1, 1, 1, 1],
      ['2023-03-12', 2, 5, 6, 3],
    ]);
    expect(weeks[1].new_cases_per_million).toBe(5);
  });

  it('writes a row with the metrics asked for, rounded to 3 decimals', () => {
    const [row] = dailyFigures([day('2023-03-01', 1, 1)], () => 3_000_000);
    expect(
      figureOutput({ name: 'France', isoCode: 'FRA' }, row, ['new_cases_per_million', 'new_cases']),
    ).toEqual({
      date: '2023-03-01',
      country: 'France',
      iso_code: 'FRA',
      new_cases_per_million: 0.333,
      new_cases: 1,
    });
  });
});
