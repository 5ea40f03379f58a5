import { ListCursor } from './list-cursor';

/**
 * What makes one disease: its name in paths and logs, and its records' table (made by
 * the migrations and described by its entity; read and written with SQL strings, decision 0032).
 */
export interface DiseaseDefinition {
  key: 'covid' | 'mpox';
  label: string;
  table: 'covid_data' | 'mpox_data';
}

export const COVID_DISEASE: DiseaseDefinition = {
  key: 'covid',
  label: 'COVID-19',
  table: 'covid_data',
};
export const MPOX_DISEASE: DiseaseDefinition = {
  key: 'mpox',
  label: 'MPOX',
  table: 'mpox_data',
};

/** A record as the API returns it: exactly these keys, in this order. */
export interface StoredRecord {
  id: number;
  date: string;
  country: string;
  total_cases: number;
  new_cases: number;
  total_deaths: number;
  new_deaths: number;
}

export type RecordValues = Omit<StoredRecord, 'id'>;

export interface Totals {
  total_cases: number;
  total_deaths: number;
}

export interface CountrySummary {
  country: string;
  records: number;
  first_date: string;
  last_date: string;
}

/** The fields of a record, in the order of its JSON keys (CSV header rows). */
export const RECORD_COLUMNS = [
  'id',
  'date',
  'country',
  'total_cases',
  'new_cases',
  'total_deaths',
  'new_deaths',
] as const satisfies readonly (keyof StoredRecord)[];

/** An item of `GET /<key>/countries`: the summary with the place's ISO codes, null if it has none. */
export interface CountryListItem extends CountrySummary {
  iso2: string | null;
  iso3: string | null;
}

export interface CountryStats extends CountrySummary, Totals {
  new_cases_7d: number;
  new_deaths_7d: number;
  case_fatality_rate: number | null;
}

/** A country's most recent record's date and totals. */
export interface CountryLatest extends Totals {
  country: string;
  date: string;
}

export interface DiseaseSummary extends Totals {
  countries: number;
  last_date: string | null;
  top_countries: { country: string; date: string; total_cases: number; total_deaths: number }[];
}

/** A list request as the client gave it; the service defaults `limit` and `offset`. */
export interface ListQuery {
  country?: string;
  from?: string;
  to?: string;
  limit?: number;
  offset?: number;
  /** A cursor from a `Link` header: the page starts past that record. */
  after?: string;
  /** The list as it stood at that instant (`parseAsOf`), read from the history. */
  as_of?: string;
}

export interface ListFilter {
  countryKey?: string;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
  /** Start past this record (a client's cursor); `offset` is then 0. */
  after?: ListCursor;
  /** End at this record, included (a streamed list ends where its `Link` header said). */
  until?: ListCursor;
  /** Epoch ms: the records as they stood then (from the history) rather than now. */
  asOf?: number;
}

/** One day of a place (a country's record, or the sums over countries for the world). */
export interface DailyValues {
  date: string;
  new_cases: number;
  new_deaths: number;
  total_cases: number;
  total_deaths: number;
}

/** One day of a place: its record (or a region's sums, with how many countries reported). */
export interface FigureDay extends DailyValues {
  countries_reporting?: number;
}

/**
 * A weekly answer as columnar arrays, one entry per ISO week (Monday to Sunday) that has records,
 * oldest first: `weeks` holds each week's Sunday, `days` how many days of it have records.
 */
export interface WeeklyAnswer {
  /** The country's name as stored (most recent record); null for the world. */
  country: string | null;
  weeks: string[];
  days: number[];
  new_cases: number[];
  new_deaths: number[];
  total_cases: number[];
  total_deaths: number[];
  /** The population the per-million figures used (that of the last week's year); null if none. */
  population: number | null;
  new_cases_per_million: (number | null)[];
  new_deaths_per_million: (number | null)[];
  total_cases_per_million: (number | null)[];
  total_deaths_per_million: (number | null)[];
  /** Our World in Data's 7-day average of the week's last day with a record. */
  new_cases_smoothed: (number | null)[];
  new_deaths_smoothed: (number | null)[];
  /** The union of the flags of the week's days (docs/corrections.md); [] when none. */
  flags: string[][];
}

/**
 * Who made a change and on whose request: the client's name for the API (the history records it),
 * `import:<file or URL>`, `sync:<source>` or `cli:<command>` for the other writers.
 */
export interface ChangeOrigin {
  actor: string;
  /** The HTTP request's id (`X-Request-Id`), or the import's id. */
  requestId?: string;
}

/** One revision of a record, as the API answers it (`GET /<key>/data/:id/history`). */
export interface RecordRevision {
  revision: number;
  /** ISO 8601, UTC, milliseconds. */
  at: string;
  actor: string;
  change: 'create' | 'update' | 'delete';
  record: StoredRecord | null;
}
