export * from './validation';
export * from './read-cache';
export * from './weekly/weekly-series';
export * from './stream-turns';
export * from './list-format';
export * from './reads';
export * from './writes';
export * from './history';
export * from './figures/daily-figures';
export * from './figures/figure-metrics';
export * from './figures/figure-rounding';
export * from './figures/figure-cursor';
export * from './figures/population-table';
export * from './figures/derived-figures.service';
export * from './figures/figure-flags';
// The records' types and the series' definitions live with their tables in `@app/database`
// (decision 0035); re-exported so that the apps and tests keep importing them from here.
export type {
  ChangeOrigin,
  CountryLatest,
  CountryListItem,
  CountryStats,
  CountrySummary,
  DailyValues,
  ListFilter,
  ListQuery,
  RecordRevision,
  RecordValues,
  SeriesDefinition,
  SeriesRecord,
  SeriesSummary,
  Totals,
  WeeklySeries,
} from '@app/database';
export { COVID_SERIES, MPOX_SERIES, RECORD_COLUMNS } from '@app/database';
export * from './weekly/weekly.service';
