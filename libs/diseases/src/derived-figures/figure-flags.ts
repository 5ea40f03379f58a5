import { weekEnd } from './iso-week';

/**
 * What a row of the derived series may be flagged with (docs/corrections.md): its published daily
 * figure is below zero, or a stored figure of that place and date changed after it was first
 * published (`/corrections` lists how).
 */
export const FIGURE_FLAGS = ['negative_new_cases', 'negative_new_deaths', 'corrected'] as const;
export type FigureFlag = (typeof FIGURE_FLAGS)[number];

/** How CSV carries a row's flags: one column, values joined by this. */
export const FLAG_SEPARATOR = '|';

/** A day of a place (or a region's sums): its date and daily figures. */
interface FlaggedDay {
  date: string;
  new_cases: number;
  new_deaths: number;
}

/** A day's flags, in `FIGURE_FLAGS`' order; `corrected`: the dates with a correction. */
export function dayFlags(day: FlaggedDay, corrected: ReadonlySet<string>): FigureFlag[] {
  const flags: FigureFlag[] = [];
  if (day.new_cases < 0) flags.push('negative_new_cases');
  if (day.new_deaths < 0) flags.push('negative_new_deaths');
  if (corrected.has(day.date)) flags.push('corrected');
  return flags;
}

/**
 * The flags of each row's date: a day's own (`period` day), or the union of the flags of the
 * week's days, by the week's Sunday (`period` week). In `FIGURE_FLAGS`' order.
 */
export function flagsByDate(
  days: readonly FlaggedDay[],
  corrected: ReadonlySet<string>,
  period: 'day' | 'week',
): Map<string, FigureFlag[]> {
  const byDate = new Map<string, Set<FigureFlag>>();
  for (const day of days) {
    const flags = dayFlags(day, corrected);
    if (flags.length === 0) continue;
    const date = period === 'week' ? weekEnd(day.date) : day.date;
    const set = byDate.get(date) ?? new Set<FigureFlag>();
    for (const flag of flags) set.add(flag);
    byDate.set(date, set);
  }
  return new Map(
    [...byDate].map(([date, set]) => [date, FIGURE_FLAGS.filter((flag) => set.has(flag))]),
  );
}
