export * from './validation';
export * from './read-cache';
export * from './weekly/weekly-answer';
export * from './stream-turns';
export * from './list-format';
export * from './reads';
export * from './writes';
export * from './history';
export * from './derived-figures/daily-figures';
export * from './derived-figures/figure-metrics';
export * from './derived-figures/figure-rounding';
export * from './derived-figures/figure-cursor';
export * from './derived-figures/population-table';
export * from './derived-figures/derived-figures.service';
export * from './derived-figures/figure-flags';
// The records' types and the diseases' definitions live with their tables in `@app/database`
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
  DiseaseDefinition,
  StoredRecord,
  DiseaseSummary,
  Totals,
  WeeklyAnswer,
} from '@app/database';
export { COVID_DISEASE, MPOX_DISEASE, RECORD_COLUMNS } from '@app/database';
export * from './weekly/weekly.service';
