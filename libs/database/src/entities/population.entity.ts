import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from './bigint.transformer';

/** One row per country (ISO 3166-1 alpha-3) and year (`population`), as its migration creates it. */
@Entity('population')
export class PopulationEntity {
  @PrimaryColumn({ type: 'varchar', length: 8 })
  iso3: string;

  /** INT on both databases (see `AppDataSource`). */
  @PrimaryColumn({ type: 'int' })
  year: number;

  @Column({ type: 'varchar', length: 100 })
  country: string;

  @Column({ type: 'bigint', transformer: bigintToNumber })
  population: number;

  @Column({ type: 'varchar', length: 200 })
  source: string;
}
