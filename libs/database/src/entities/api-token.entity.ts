import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintToNumber } from './bigint.transformer';

/**
 * Client tokens (`api_tokens`), as the migrations create them. Only the SHA-256 of a token is
 * stored; times are epoch milliseconds. `integer` is INT on MySQL and INTEGER on SQLite, `int`
 * is INT on both (see `AppDataSource`).
 */
@Entity('api_tokens')
@Index('uq_api_tokens_hash', ['tokenHash'], { unique: true })
@Index('idx_api_tokens_client', ['client'])
@Index('idx_api_tokens_revision', ['revision'])
export class ApiTokenEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 64 })
  client: string;

  @Column({
    name: 'token_hash',
    type: 'char',
    length: 64,
    charset: 'ascii',
    collation: 'ascii_bin',
  })
  tokenHash: string;

  @Column({ type: 'varchar', length: 16 })
  prefix: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintToNumber })
  createdAt: number;

  @Column({ name: 'last_used_at', type: 'bigint', nullable: true, transformer: bigintToNumber })
  lastUsedAt: number | null;

  @Column({ name: 'revoked_at', type: 'bigint', nullable: true, transformer: bigintToNumber })
  revokedAt: number | null;

  @Column({ name: 'expires_at', type: 'bigint', nullable: true, transformer: bigintToNumber })
  expiresAt: number | null;

  @Column({ type: 'bigint', transformer: bigintToNumber })
  revision: number;

  @Column({ name: 'rate_limit', type: 'int', nullable: true })
  rateLimit: number | null;

  @Column({ name: 'rate_window_seconds', type: 'int', nullable: true })
  rateWindowSeconds: number | null;

  /** Comma-separated scope list. */
  @Column({ type: 'varchar', length: 255, default: '' })
  scopes: string;
}
