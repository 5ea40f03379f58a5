import { PopulationOf, dailyFigures, weeklyFigures } from '../derived-figures/daily-figures';
import { roundFigure } from '../derived-figures/figure-rounding';
import { flagsByDate } from '../derived-figures/figure-flags';
import { DailyValues, WeeklyAnswer } from '@app/database';

export { weekEnd } from '../derived-figures/iso-week';

/**
 * Daily values (oldest first) to weekly columns: new cases and deaths summed over the week, totals
 * of the week's last day with records. Weeks without any record are left out, not filled. With
 * the derived figures of `weeklyFigures` (per million over `populationOf`, 7-day averages of the
 * week's last day with a record), rounded to 3 decimals; `population`: the one the last week used.
 * `flags`: each week's union of its days' flags, `corrected` from the dates of `corrected`.
 */
export function weeklyAnswer(
  country: string | null,
  daily: DailyValues[],
  populationOf: PopulationOf = () => null,
  corrected: ReadonlySet<string> = new Set(),
): WeeklyAnswer {
  const weeks = weeklyFigures(dailyFigures(daily, populationOf), populationOf);
  const column = (metric: keyof (typeof weeks)[number]) =>
    weeks.map((week) => roundFigure(week[metric] as number | null));
  const last = daily[daily.length - 1];
  const flags = flagsByDate(daily, corrected, 'week');
  return {
    country,
    weeks: weeks.map((week) => week.date),
    days: weeks.map((week) => week.days ?? 0),
    new_cases: weeks.map((week) => week.new_cases),
    new_deaths: weeks.map((week) => week.new_deaths),
    total_cases: weeks.map((week) => week.total_cases),
    total_deaths: weeks.map((week) => week.total_deaths),
    population: last ? populationOf(Number(last.date.slice(0, 4))) : null,
    new_cases_per_million: column('new_cases_per_million'),
    new_deaths_per_million: column('new_deaths_per_million'),
    total_cases_per_million: column('total_cases_per_million'),
    total_deaths_per_million: column('total_deaths_per_million'),
    new_cases_smoothed: column('new_cases_smoothed'),
    new_deaths_smoothed: column('new_deaths_smoothed'),
    flags: weeks.map((week) => flags.get(week.date) ?? []),
  };
}
