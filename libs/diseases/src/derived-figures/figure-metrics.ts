/**
 * The figures of a series, named and defined as in Our World in Data's files (docs/derived-figures.md):
 * the four stored ones, then the derived ones.
 */
export const STORED_METRICS = ['total_cases', 'new_cases', 'total_deaths', 'new_deaths'] as const;

export const DERIVED_METRICS = [
  'new_cases_smoothed',
  'new_deaths_smoothed',
  'total_cases_per_million',
  'new_cases_per_million',
  'new_cases_smoothed_per_million',
  'total_deaths_per_million',
  'new_deaths_per_million',
  'new_deaths_smoothed_per_million',
] as const;

export const METRICS = [...STORED_METRICS, ...DERIVED_METRICS] as const;
export type Metric = (typeof METRICS)[number];

/** The metric the map colours by when none is asked for. */
export const DEFAULT_MAP_METRIC: Metric = 'new_cases_smoothed_per_million';

export function isMetric(value: string): value is Metric {
  return (METRICS as readonly string[]).includes(value);
}

/**
 * The metrics of a comma-separated list (blanks around names ignored, each kept once, in the
 * list's order; empty or absent: all), or the names that are not metrics.
 */
export function parseMetrics(
  text: string | undefined,
): { metrics: Metric[] } | { unknown: string[] } {
  if (text === undefined || text.trim() === '') return { metrics: [...METRICS] };
  const names = text.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !isMetric(name));
  if (unknown.length > 0) return { unknown: [...new Set(unknown)] };
  return { metrics: [...new Set(names as Metric[])] };
}
