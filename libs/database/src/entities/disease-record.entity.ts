import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintToNumber } from './bigint.transformer';

/**
 * Columns shared by every disease's table (`covid_data`, `mpox_data`). The tables themselves are
 * created by migrations; `countryKey` (trimmed, lower-cased country) carries the unique index with
 * `date`, so that uniqueness and look-ups ignore case the same way on SQLite and MySQL.
 */
export abstract class DiseaseRecordEntity {
  /**
   * BIGINT on MySQL (INTEGER, 64-bit too, on SQLite: see `AppDataSource`). Records are read with
   * SQL and `toRecord`, which makes every 64-bit column a number.
   */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ type: 'date' })
  date: string;

  @Column({ type: 'varchar', length: 100 })
  country: string;

  /** Up to three times the country's 100 characters: NFC can triple a character. */
  @Column({
    name: 'country_key',
    type: 'varchar',
    length: 300,
    charset: 'utf8mb4',
    collation: 'utf8mb4_bin',
  })
  countryKey: string;

  @Column({ name: 'total_cases', type: 'bigint', transformer: bigintToNumber })
  totalCases: number;

  @Column({ name: 'new_cases', type: 'double' })
  newCases: number;

  @Column({ name: 'total_deaths', type: 'bigint', transformer: bigintToNumber })
  totalDeaths: number;

  @Column({ name: 'new_deaths', type: 'double' })
  newDeaths: number;
}

/** Declares one disease's table with the indexes its migration creates. */
export function DiseaseTable(table: string): ClassDecorator {
  return (target) => {
    Index(`idx_${table}_date`, ['date', 'id'])(target);
    Index(`uq_${table}_country_date`, ['countryKey', 'date'], { unique: true })(target);
    Entity(table)(target);
  };
}
