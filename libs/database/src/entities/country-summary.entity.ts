import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A country's records: how many, the first and last dates (`<key>_country_summaries`). */
export abstract class CountrySummaryEntity {
  @PrimaryColumn({
    name: 'country_key',
    type: 'varchar',
    length: 300,
    charset: 'utf8mb4',
    collation: 'utf8mb4_bin',
  })
  countryKey: string;

  @Column({ type: 'int' })
  records: number;

  /** Null only inside the write that made the row, before it reads the dates. */
  @Column({ name: 'first_date', type: 'date', nullable: true })
  firstDate: string | null;

  @Column({ name: 'last_date', type: 'date', nullable: true })
  lastDate: string | null;
}

@Entity('covid_country_summaries')
export class CovidCountrySummaryEntity extends CountrySummaryEntity {}

@Entity('mpox_country_summaries')
export class MpoxCountrySummaryEntity extends CountrySummaryEntity {}
