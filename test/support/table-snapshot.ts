import { DataSource } from 'typeorm';

export const RECORD_TABLES = ['covid_data', 'mpox_data'] as const;

export interface StoredRow {
  id: number;
  date: string;
  country: string;
  country_key: string;
  total_cases: number;
  new_cases: number;
  total_deaths: number;
  new_deaths: number;
}

/** Every stored row of one table, by id, with numbers as numbers (MySQL BIGINT comes as text). */
export async function tableRows(dataSource: DataSource, table: string): Promise<StoredRow[]> {
  const rows = await dataSource.query<Record<string, unknown>[]>(
    `SELECT id, date, country, country_key, total_cases, new_cases, total_deaths, new_deaths
     FROM ${table} ORDER BY id`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    date: String(row.date),
    country: String(row.country),
    country_key: String(row.country_key),
    total_cases: Number(row.total_cases),
    new_cases: Number(row.new_cases),
    total_deaths: Number(row.total_deaths),
    new_deaths: Number(row.new_deaths),
  }));
}

/** The whole stored state (both tables) as one comparable string. */
export async function snapshot(dataSource: DataSource): Promise<string> {
  const tables = await Promise.all(RECORD_TABLES.map((table) => tableRows(dataSource, table)));
  return JSON.stringify(tables);
}

/** Every revision of one disease's history, by id, as one comparable string. */
export async function historySnapshot(dataSource: DataSource, key: string): Promise<string> {
  const rows = await dataSource.query<Record<string, unknown>[]>(
    `SELECT * FROM ${key}_revisions ORDER BY id`,
  );
  return JSON.stringify(rows);
}
