import { resolveCountry } from '@app/countries';
import { PopulationOf } from './daily-figures';
import { Metric } from './figure-metrics';
import { FigurePeriod, figuresOf } from './figure-request';
import { roundFigure } from './figure-rounding';
import { KeyedDay } from '@app/database';

/** A country's value on the public map. */
export interface MapCountry {
  country: string;
  iso3: string;
  /** The day of the value, or its week's Sunday: the country's latest at or before the map's. */
  date: string;
  value: number | null;
}

const byName = (a: { country: string }, b: { country: string }) =>
  a.country.localeCompare(b.country, 'en');

/**
 * The public map's countries: each country's `metric` on its last day (or ISO week) in `days`,
 * read by place key then date with the days the averages need before it. Places that are not
 * countries are left out.
 */
export function mapCountries(
  days: KeyedDay[],
  metric: Metric,
  period: FigurePeriod,
  populationOf: (identity: { iso3: string }) => PopulationOf,
): MapCountry[] {
  const countries: MapCountry[] = [];
  for (let start = 0; start < days.length;) {
    let stop = start;
    while (stop < days.length && days[stop].key === days[start].key) stop++;
    const placeDays = days.slice(start, stop);
    start = stop;
    const name = placeDays[placeDays.length - 1].country;
    const identity = resolveCountry(name);
    if (!identity) continue;
    const rows = figuresOf(placeDays, populationOf(identity), period);
    const row = rows[rows.length - 1];
    countries.push({
      country: identity.name,
      iso3: identity.iso3,
      date: row.date,
      value: roundFigure(row[metric]),
    });
  }
  return countries.sort(byName);
}
