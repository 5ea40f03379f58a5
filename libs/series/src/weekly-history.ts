import { addDays } from '@app/common';
import { DailyValues, WeeklyHistory } from './series.types';

/** The Sunday that ends the ISO week (Monday to Sunday) of a `YYYY-MM-DD` date. */
export function weekEnd(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, (7 - weekday) % 7);
}

/**
 * Daily values (oldest first) to weekly columns: new cases and deaths summed over the week, totals
 * of the week's last day with records. Weeks without any record are left out, not filled.
 */
export function weeklyHistory(country: string | null, daily: DailyValues[]): WeeklyHistory {
  const history: WeeklyHistory = {
    country,
    weeks: [],
    days: [],
    new_cases: [],
    new_deaths: [],
    total_cases: [],
    total_deaths: [],
  };
  for (const day of daily) {
    const week = weekEnd(day.date);
    let last = history.weeks.length - 1;
    if (history.weeks[last] !== week) {
      history.weeks.push(week);
      history.days.push(0);
      history.new_cases.push(0);
      history.new_deaths.push(0);
      last++;
    }
    history.days[last]++;
    history.new_cases[last] += day.new_cases;
    history.new_deaths[last] += day.new_deaths;
    history.total_cases[last] = day.total_cases;
    history.total_deaths[last] = day.total_deaths;
  }
  return history;
}
