import { FigureDay } from '@app/database';
import { weekEnd } from './iso-week';
import { Metric } from './figure-metrics';
import { perMillion, roundFigure } from './figure-rounding';

export type { FigureDay };

/** A day (or a week) of a place with every figure, unrounded. */
export interface FigureRow extends FigureDay, Record<Metric, number | null> {
  total_cases: number;
  new_cases: number;
  total_deaths: number;
  new_deaths: number;
  /** Weeks only: how many days of the week have a record. */
  days?: number;
}

/** The population a place's figures of `year` use (null: none known). */
export type PopulationOf = (year: number) => number | null;

/** Days in Our World in Data's average: the day and the 6 before it. */
export const SMOOTHING_DAYS = 7;

const yearOf = (date: string) => Number(date.slice(0, 4));

const DAY_MS = 86_400_000;

/**
 * Each day's mean of `field` over the 7 calendar days ending that day, or null unless each of
 * those days has a record (days without one are absent, not zero). `days`: dates ascending, each
 * once. Each window is summed afresh: a running sum keeps the rounding of every value it ever
 * held, so a huge day would spoil the averages of the small ones after it.
 */
export function smoothedColumn(
  days: FigureDay[],
  field: 'new_cases' | 'new_deaths',
): (number | null)[] {
  const dayNumbers = days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / DAY_MS);
  return days.map((_, i) => {
    const first = i - (SMOOTHING_DAYS - 1);
    if (first < 0 || dayNumbers[i] - dayNumbers[first] !== SMOOTHING_DAYS - 1) return null;
    let sum = 0;
    for (let j = first; j <= i; j++) sum += days[j][field];
    return sum / SMOOTHING_DAYS;
  });
}

/** The per-million figures of a row whose counts and averages are set, with `population`. */
function withPerMillion(row: FigureRow, population: number | null): FigureRow {
  row.total_cases_per_million = perMillion(row.total_cases, population);
  row.new_cases_per_million = perMillion(row.new_cases, population);
  row.new_cases_smoothed_per_million = perMillion(row.new_cases_smoothed, population);
  row.total_deaths_per_million = perMillion(row.total_deaths, population);
  row.new_deaths_per_million = perMillion(row.new_deaths, population);
  row.new_deaths_smoothed_per_million = perMillion(row.new_deaths_smoothed, population);
  return row;
}

/** Each day (dates ascending, each once) with every figure; per million over its year's population. */
export function dailyFigures(days: FigureDay[], populationOf: PopulationOf): FigureRow[] {
  const cases = smoothedColumn(days, 'new_cases');
  const deaths = smoothedColumn(days, 'new_deaths');
  let year = NaN;
  let population: number | null = null;
  return days.map((day, i) => {
    // One lookup per year, not per day.
    if (yearOf(day.date) !== year) {
      year = yearOf(day.date);
      population = populationOf(year);
    }
    const row = { ...day, new_cases_smoothed: cases[i], new_deaths_smoothed: deaths[i] };
    return withPerMillion(row as FigureRow, population);
  });
}

/**
 * Daily rows (from `dailyFigures`) by ISO week (Monday to Sunday), dated by the week's Sunday:
 * new counts summed, totals, averages and `countries_reporting` of the week's last day with a
 * record, per million over that day's population. Weeks without a record are absent.
 */
export function weeklyFigures(daily: FigureRow[], populationOf: PopulationOf): FigureRow[] {
  const weeks: FigureRow[] = [];
  let lastDate = '';
  const close = () => {
    const week = weeks[weeks.length - 1];
    if (week) withPerMillion(week, populationOf(yearOf(lastDate)));
  };
  for (const day of daily) {
    const sunday = weekEnd(day.date);
    let week = weeks[weeks.length - 1];
    if (week?.date !== sunday) {
      close();
      week = { ...day, date: sunday, new_cases: 0, new_deaths: 0, days: 0 };
      weeks.push(week);
    }
    week.days = (week.days ?? 0) + 1;
    week.new_cases += day.new_cases;
    week.new_deaths += day.new_deaths;
    week.total_cases = day.total_cases;
    week.total_deaths = day.total_deaths;
    week.new_cases_smoothed = day.new_cases_smoothed;
    week.new_deaths_smoothed = day.new_deaths_smoothed;
    if (day.countries_reporting !== undefined) week.countries_reporting = day.countries_reporting;
    lastDate = day.date;
  }
  close();
  return weeks;
}

/** A row as the API answers it: date, place, then the metrics asked for, rounded. */
/**
 * The place a row is of, as written: its name and its code (ISO 3166-1 alpha-3, a region's
 * `OWID_...`, null for a stored place that is no country).
 */
export interface FigurePlace {
  name: string;
  isoCode: string | null;
}

export function figureOutput(
  place: FigurePlace,
  row: FigureRow,
  metrics: readonly Metric[],
): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {
    date: row.date,
    country: place.name,
    iso_code: place.isoCode,
  };
  if (row.countries_reporting !== undefined) out.countries_reporting = row.countries_reporting;
  for (const metric of metrics) out[metric] = roundFigure(row[metric]);
  return out;
}
