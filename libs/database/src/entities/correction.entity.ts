import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from './bigint.transformer';

const placeKey = {
  type: 'varchar',
  length: 300,
  charset: 'utf8mb4',
  collation: 'utf8mb4_bin',
} as const;

/**
 * One corrected place and date of one revision per row (`covid_corrections`, `mpox_corrections`),
 * written in the revision's transaction (docs/corrections.md): part 0 the day it changed or left,
 * part 1 the day a moved record arrived at.
 */
export abstract class CorrectionEntity {
  @PrimaryColumn({ name: 'revision_id', type: 'bigint', transformer: bigintToNumber })
  revisionId: number;

  @PrimaryColumn({ type: 'smallint' })
  part: number;

  @Column({ name: 'change_set', type: 'bigint', transformer: bigintToNumber })
  changeSet: number;

  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId: string | null;

  @Column({ type: 'bigint', transformer: bigintToNumber })
  at: number;

  @Column({ type: 'varchar', length: 255 })
  actor: string;

  /** `update`, `delete` or `restore`. */
  @Column({ type: 'varchar', length: 7 })
  kind: string;

  @Column({ type: 'date' })
  date: string;

  @Column({ type: 'varchar', length: 100 })
  country: string;

  @Column({ name: 'country_key', ...placeKey })
  countryKey: string;

  @Column({ name: 'old_total_cases', type: 'bigint', nullable: true, transformer: bigintToNumber })
  oldTotalCases: number | null;

  @Column({ name: 'old_new_cases', type: 'double', nullable: true })
  oldNewCases: number | null;

  @Column({ name: 'old_total_deaths', type: 'bigint', nullable: true, transformer: bigintToNumber })
  oldTotalDeaths: number | null;

  @Column({ name: 'old_new_deaths', type: 'double', nullable: true })
  oldNewDeaths: number | null;

  @Column({ name: 'new_total_cases', type: 'bigint', nullable: true, transformer: bigintToNumber })
  newTotalCases: number | null;

  @Column({ name: 'new_new_cases', type: 'double', nullable: true })
  newNewCases: number | null;

  @Column({ name: 'new_total_deaths', type: 'bigint', nullable: true, transformer: bigintToNumber })
  newTotalDeaths: number | null;

  @Column({ name: 'new_new_deaths', type: 'double', nullable: true })
  newNewDeaths: number | null;

  /** How many of the four figures it corrected. */
  @Column({ type: 'smallint' })
  figures: number;
}

function CorrectionTable(table: string): ClassDecorator {
  return (target) => {
    Index(`idx_${table}_change_set`, ['changeSet', 'revisionId', 'part'])(target);
    Index(`idx_${table}_place`, ['countryKey', 'date'])(target);
    Index(`idx_${table}_request`, ['requestId'])(target);
    Entity(table)(target);
  };
}

@CorrectionTable('covid_corrections')
export class CovidCorrectionEntity extends CorrectionEntity {}

@CorrectionTable('mpox_corrections')
export class MpoxCorrectionEntity extends CorrectionEntity {}

/** Each corrected place and date with the moment of its first correction (the `corrected` flags). */
export abstract class CorrectedDayEntity {
  @PrimaryColumn({ name: 'country_key', ...placeKey })
  countryKey: string;

  @PrimaryColumn({ type: 'date' })
  date: string;

  @Column({ name: 'first_at', type: 'bigint', transformer: bigintToNumber })
  firstAt: number;
}

@Entity('covid_corrected_days')
export class CovidCorrectedDayEntity extends CorrectedDayEntity {}

@Entity('mpox_corrected_days')
export class MpoxCorrectedDayEntity extends CorrectedDayEntity {}
