import { canonicalCountryName } from '@app/countries';
import { countryKey } from '@app/common';
import { DailyValues, RECORD_COLUMNS, RecordValues, StoredRecord } from './disease.types';

export type Row = Record<string, unknown>;

/** A row's record values: 64-bit columns come back from MySQL as strings. */
export function recordValuesOf(row: Row): RecordValues {
  return {
    date: String(row.date),
    country: String(row.country),
    total_cases: Number(row.total_cases),
    new_cases: Number(row.new_cases),
    total_deaths: Number(row.total_deaths),
    new_deaths: Number(row.new_deaths),
  };
}

/** Database rows to API records, keys in the API's order. */
export function toRecord(row: Row): StoredRecord {
  return { id: Number(row.id), ...recordValuesOf(row) };
}

/** A row's day of figures (a record's, or sums over countries). */
export function toDaily(row: Row): DailyValues {
  return {
    date: String(row.date),
    new_cases: Number(row.new_cases),
    new_deaths: Number(row.new_deaths),
    total_cases: Number(row.total_cases),
    total_deaths: Number(row.total_deaths),
  };
}

/** An `IN (...)` list of ids or country keys (`listChunks`): 500 values per statement at most. */
export const IN_LIST = { paramsPerItem: 1, bytesPerItem: 150, maxItems: 500 };

/** Country keys or ids per `IN (...)` list, for the loops that slice by count. */
export const IN_LIMIT = IN_LIST.maxItems;

/** The columns a record is read from (`toRecord`): its fields, id first. */
export const RECORD_COLUMNS_SQL = RECORD_COLUMNS.join(', ');

/** A record's values, its fields but its id (a revision's columns). */
export const VALUE_COLUMNS_SQL = RECORD_COLUMNS.slice(1).join(', ');

/** A record's figures, the columns after its id, date and country. */
export const FIGURE_COLUMNS = RECORD_COLUMNS.slice(3) as Exclude<
  keyof RecordValues,
  'date' | 'country'
>[];

/** The figures' columns as SQL. */
export const FIGURE_COLUMNS_SQL = FIGURE_COLUMNS.join(', ');

/** The columns a write may change in a stored record (found by its country and date). */
export const CHANGING_COLUMNS: (keyof RecordValues)[] = ['country', ...FIGURE_COLUMNS];

/**
 * The columns of a new record, in the order of `upsertParams`: the key its country is unique by
 * (with the date) follows the country.
 */
export const INSERT_COLUMNS = ['date', 'country', 'country_key', ...FIGURE_COLUMNS].join(', ');

/** What an upsert did: records created, records changed, records equal to the stored ones. */
export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** What a record holds, as one string to compare a stored record with a new one. */
export function valuesKey(r: RecordValues): string {
  return `${r.country}|${r.total_cases}|${r.new_cases}|${r.total_deaths}|${r.new_deaths}`;
}

export function upsertParams(r: RecordValues): unknown[] {
  return [
    r.date,
    r.country,
    countryKey(r.country),
    r.total_cases,
    r.new_cases,
    r.total_deaths,
    r.new_deaths,
  ];
}

/**
 * Every write stores a recognised country under its canonical name (`US` -> `United States`),
 * whichever path it comes by, so that two spellings never make two countries.
 */
export function withCanonicalCountry(values: RecordValues): RecordValues {
  const country = canonicalCountryName(values.country);
  return country === values.country ? values : { ...values, country };
}
