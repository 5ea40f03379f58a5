import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintToNumber } from './bigint.transformer';

/**
 * One downloaded source per row (`sources`), as the migrations create it: what the server last
 * answered and how the last attempt and import went. Times are epoch milliseconds; a source is
 * found by `url_hash` (SHA-256 of the URL), which keeps the unique key within MySQL's limit.
 */
@Entity('sources')
@Index('uq_sources_dataset_url', ['dataset', 'urlHash'], { unique: true })
export class SourceEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 16 })
  dataset: string;

  @Column({ type: 'text' })
  url: string;

  @Column({ name: 'url_hash', type: 'char', length: 64, charset: 'ascii', collation: 'ascii_bin' })
  urlHash: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  etag: string | null;

  @Column({ name: 'last_modified', type: 'varchar', length: 64, nullable: true })
  lastModified: string | null;

  @Column({
    name: 'content_hash',
    type: 'char',
    length: 64,
    nullable: true,
    charset: 'ascii',
    collation: 'ascii_bin',
  })
  contentHash: string | null;

  @Column({ name: 'last_attempt_at', type: 'bigint', transformer: bigintToNumber })
  lastAttemptAt: number;

  @Column({ name: 'last_success_at', type: 'bigint', nullable: true, transformer: bigintToNumber })
  lastSuccessAt: number | null;

  @Column({ type: 'varchar', length: 16 })
  outcome: string;

  @Column({ name: 'rows_inserted', type: 'integer', default: 0 })
  rowsInserted: number;

  @Column({ name: 'rows_updated', type: 'integer', default: 0 })
  rowsUpdated: number;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @Column({ name: 'rows_unchanged', type: 'integer', default: 0 })
  rowsUnchanged: number;

  @Column({ name: 'last_import_id', type: 'varchar', length: 36, nullable: true })
  lastImportId: string | null;

  @Column({ name: 'rows_skipped', type: 'integer', default: 0 })
  rowsSkipped: number;

  /** Stored figures the last applied import corrected (docs/corrections.md). */
  @Column({ name: 'figures_corrected', type: 'integer', default: 0 })
  figuresCorrected: number;
}
