import { Injectable } from '@nestjs/common';
import { SqlRunner } from '../sql-runner';

/** One row of the population table: a country (ISO alpha-3) in one year. */
export interface PopulationRow {
  iso3: string;
  year: number;
  /** The country's canonical name (the country directory's). */
  country: string;
  population: number;
  source: string;
}

export interface PopulationWriteCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** Rows per INSERT (5 parameters each: within both drivers' limits). */
const INSERT_CHUNK = 500;
const COLUMNS = 'iso3, year, country, population, source';

const rowOf = (row: Record<string, unknown>): PopulationRow => ({
  iso3: String(row.iso3),
  year: Number(row.year),
  country: String(row.country),
  population: Number(row.population),
  source: String(row.source),
});

const keyOf = (row: { iso3: string; year: number }) => `${row.iso3} ${row.year}`;

/** All SQL of the `population` table. */
@Injectable()
export class PopulationRepository {
  constructor(private readonly sql: SqlRunner) {}

  /** Every row, by country code then year. */
  async all(): Promise<PopulationRow[]> {
    const rows = await this.sql.read<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM population ORDER BY iso3, year`,
    );
    return rows.map(rowOf);
  }

  /**
   * Inserts or replaces the rows by country and year, in one transaction; rows equal to the stored
   * ones are left alone and counted as unchanged. Rows of other countries or years stay.
   */
  async upsert(rows: PopulationRow[]): Promise<PopulationWriteCounts> {
    return this.sql.transaction(async (manager) => {
      const stored = new Map<string, PopulationRow>();
      const found = await manager.query<Record<string, unknown>[]>(
        `SELECT ${COLUMNS} FROM population`,
      );
      for (const row of found.map(rowOf)) stored.set(keyOf(row), row);
      const counts: PopulationWriteCounts = { inserted: 0, updated: 0, unchanged: 0 };
      const fresh: PopulationRow[] = [];
      for (const row of rows) {
        const old = stored.get(keyOf(row));
        if (old === undefined) {
          counts.inserted++;
          fresh.push(row);
        } else if (
          old.population !== row.population ||
          old.country !== row.country ||
          old.source !== row.source
        ) {
          counts.updated++;
          await manager.query(
            'UPDATE population SET country = ?, population = ?, source = ? WHERE iso3 = ? AND year = ?',
            [row.country, row.population, row.source, row.iso3, row.year],
          );
        } else {
          counts.unchanged++;
        }
      }
      for (let i = 0; i < fresh.length; i += INSERT_CHUNK) {
        const chunk = fresh.slice(i, i + INSERT_CHUNK);
        await manager.query(
          `INSERT INTO population (${COLUMNS}) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
          chunk.flatMap((r) => [r.iso3, r.year, r.country, r.population, r.source]),
        );
      }
      return counts;
    });
  }
}
