import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintToNumber } from './bigint.transformer';

/**
 * One committed write transaction per row (`covid_revision_commits`, `mpox_revision_commits`),
 * as the migrations create them: `seq` follows the commit order (the change feed's order).
 */
export abstract class RevisionCommitEntity {
  /** BIGINT on MySQL, INTEGER (64-bit) on SQLite: see `AppDataSource`. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  seq: number;

  @Column({ name: 'change_set', type: 'bigint', transformer: bigintToNumber })
  changeSet: number;

  @Column({ type: 'bigint', transformer: bigintToNumber })
  at: number;

  /** INT on MySQL, INTEGER on SQLite. */
  @Column({ type: 'integer' })
  revisions: number;

  /** 1 when the transaction corrected figures (`<key>_corrections`): the corrections' walk. */
  @Column({ type: 'smallint', default: 0 })
  corrected: number;
}

/** Declares one disease's commits table with the indexes its migration creates. */
function RevisionCommitTable(table: string): ClassDecorator {
  return (target) => {
    Index(`uq_${table}_change_set`, ['changeSet'], { unique: true })(target);
    Index(`idx_${table}_at`, ['at'])(target);
    Index(`idx_${table}_corrected`, ['corrected', 'seq'])(target);
    Entity(table)(target);
  };
}

@RevisionCommitTable('covid_revision_commits')
export class CovidRevisionCommitEntity extends RevisionCommitEntity {}

@RevisionCommitTable('mpox_revision_commits')
export class MpoxRevisionCommitEntity extends RevisionCommitEntity {}
