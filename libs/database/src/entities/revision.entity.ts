import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintToNumber } from './bigint.transformer';

/**
 * One revision (a record's values after one change) per row of each disease's append-only
 * history table (`covid_revisions`, `mpox_revisions`), as the migrations create them.
 */
export abstract class RevisionEntity {
  /** BIGINT on MySQL, INTEGER (64-bit) on SQLite: see `AppDataSource`. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ name: 'record_id', type: 'bigint', transformer: bigintToNumber })
  recordId: number;

  @Column({ type: 'bigint', transformer: bigintToNumber })
  at: number;

  @Column({ type: 'varchar', length: 255 })
  actor: string;

  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId: string | null;

  @Column({ type: 'varchar', length: 6 })
  kind: string;

  @Column({ type: 'date', nullable: true })
  date: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  country: string | null;

  @Column({
    name: 'country_key',
    type: 'varchar',
    length: 300,
    nullable: true,
    charset: 'utf8mb4',
    collation: 'utf8mb4_bin',
  })
  countryKey: string | null;

  @Column({ name: 'total_cases', type: 'bigint', nullable: true, transformer: bigintToNumber })
  totalCases: number | null;

  @Column({ name: 'new_cases', type: 'double', nullable: true })
  newCases: number | null;

  @Column({ name: 'total_deaths', type: 'bigint', nullable: true, transformer: bigintToNumber })
  totalDeaths: number | null;

  @Column({ name: 'new_deaths', type: 'double', nullable: true })
  newDeaths: number | null;

  @Column({ name: 'change_set', type: 'bigint', default: 0, transformer: bigintToNumber })
  changeSet: number;
}

/** Declares one disease's revisions table with the indexes its migrations create. */
function RevisionTable(table: string): ClassDecorator {
  return (target) => {
    Index(`idx_${table}_record`, ['recordId', 'id'])(target);
    Index(`idx_${table}_change_set`, ['changeSet', 'id'])(target);
    Index(`idx_${table}_country_date`, ['countryKey', 'date', 'recordId'])(target);
    Index(`idx_${table}_date`, ['date', 'recordId'])(target);
    Index(`idx_${table}_kind_place`, ['kind', 'countryKey', 'date'])(target);
    Entity(table)(target);
  };
}

@RevisionTable('covid_revisions')
export class CovidRevisionEntity extends RevisionEntity {}

@RevisionTable('mpox_revisions')
export class MpoxRevisionEntity extends RevisionEntity {}
