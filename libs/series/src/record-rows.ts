import { RecordValues, SeriesRecord } from './series.types';

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
export function toRecord(row: Row): SeriesRecord {
  return { id: Number(row.id), ...recordValuesOf(row) };
}
