import { addDays } from '@app/common';
import { ListFormat } from '../list-format';
import { FigureCursor } from './figure-cursor';
import {
  FigureDay,
  FigurePlace,
  FigureRow,
  PopulationOf,
  SMOOTHING_DAYS,
  dailyFigures,
  figureOutput,
  weeklyFigures,
} from './daily-figures';
import { Metric } from './figure-metrics';
import { FLAG_SEPARATOR, FigureFlag, flagsByDate } from './figure-flags';
import { FigureRange } from '@app/database';
import { weekEnd } from './iso-week';

export const FIGURE_PERIODS = ['day', 'week'] as const;
export type FigurePeriod = (typeof FIGURE_PERIODS)[number];

/** The days read before a range: what the first averages of the range need. */
export const LOOKBACK_DAYS = SMOOTHING_DAYS - 1;

/** A `/series` request once checked: its metrics, period and cursor worked out. */
export interface FigureRequest {
  from?: string;
  to?: string;
  period: FigurePeriod;
  metrics: Metric[];
  after?: FigureCursor;
  limit?: number;
  asOf?: number;
  lag?: number;
}

/** The days whose rows the request answers: whole ISO weeks for `period=week`. */
export function outputRange(request: FigureRequest): FigureRange {
  const week = request.period === 'week';
  return {
    from:
      request.from === undefined
        ? undefined
        : week
          ? addDays(weekEnd(request.from), -6)
          : request.from,
    to: request.to === undefined ? undefined : week ? weekEnd(request.to) : request.to,
    asOf: request.asOf,
  };
}

/** What is read for them: the 6 days before as well, which the first averages need. */
export function readRange(request: FigureRequest): FigureRange {
  const range = outputRange(request);
  return {
    ...range,
    from: range.from === undefined ? undefined : addDays(range.from, -LOOKBACK_DAYS),
  };
}

/** A row with its flags (docs/corrections.md). */
export type FlaggedRow = FigureRow & { flags?: FigureFlag[] };

/** A row as answered: the metrics, and its flags (CSV: one column, joined by `|`). */
export type OutputRow = Record<string, string | number | null | FigureFlag[]>;

export function figuresOf(
  days: FigureDay[],
  populationOf: PopulationOf,
  period: FigurePeriod,
  corrected: ReadonlySet<string> = new Set(),
): FlaggedRow[] {
  const daily = dailyFigures(days, populationOf);
  const rows: FlaggedRow[] = period === 'week' ? weeklyFigures(daily, populationOf) : daily;
  const flags = flagsByDate(days, corrected, period);
  if (flags.size === 0) return rows;
  for (const row of rows) {
    const some = flags.get(row.date);
    if (some) row.flags = some;
  }
  return rows;
}

/** JSON and NDJSON leave `flags` out when there are none; CSV always has the column. */
export function rowOutput(
  place: FigurePlace,
  row: FlaggedRow,
  metrics: readonly Metric[],
  format: ListFormat,
): OutputRow {
  const out: OutputRow = figureOutput(place, row, metrics);
  if (format === 'csv') out.flags = (row.flags ?? []).join(FLAG_SEPARATOR);
  else if (row.flags) out.flags = row.flags;
  return out;
}

/** The rows dated within the request's range (the days read before it only fed the averages). */
export function rowsInRange(rows: FlaggedRow[], request: FigureRequest): FlaggedRow[] {
  const { from } = outputRange(request);
  const first = from === undefined ? undefined : request.period === 'week' ? weekEnd(from) : from;
  return first === undefined ? rows : rows.filter((row) => row.date >= first);
}

/** The CSV columns (the JSON keys, in order) of a series' rows. */
export function columnsOf(metrics: readonly Metric[], region: boolean): string[] {
  return [
    'date',
    'country',
    'iso_code',
    ...(region ? ['countries_reporting'] : []),
    ...metrics,
    'flags',
  ];
}
