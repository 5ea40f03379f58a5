import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from './bigint.transformer';

/** A region's member (`region_members`), as the start-up writes them from the code's regions. */
@Entity('region_members')
@Index('idx_region_members_country', ['countryKey'])
export class RegionMemberEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  region: string;

  @PrimaryColumn({
    name: 'country_key',
    type: 'varchar',
    length: 300,
    charset: 'utf8mb4',
    collation: 'utf8mb4_bin',
  })
  countryKey: string;
}

/** A region's sums of one date over its members with a record that date (`<key>_region_days`). */
export abstract class RegionDayEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  region: string;

  @PrimaryColumn({ type: 'date' })
  date: string;

  @Column({ name: 'total_cases', type: 'bigint', transformer: bigintToNumber })
  totalCases: number;

  @Column({ name: 'new_cases', type: 'double' })
  newCases: number;

  @Column({ name: 'total_deaths', type: 'bigint', transformer: bigintToNumber })
  totalDeaths: number;

  @Column({ name: 'new_deaths', type: 'double' })
  newDeaths: number;

  @Column({ name: 'countries_reporting', type: 'int' })
  countriesReporting: number;

  /** The first moment a member's day was corrected; null when none was. */
  @Column({ name: 'corrected_at', type: 'bigint', nullable: true, transformer: bigintToNumber })
  correctedAt: number | null;
}

@Entity('covid_region_days')
export class CovidRegionDayEntity extends RegionDayEntity {}

@Entity('mpox_region_days')
export class MpoxRegionDayEntity extends RegionDayEntity {}
