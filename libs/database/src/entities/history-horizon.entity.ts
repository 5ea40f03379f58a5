import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintToNumber } from './bigint.transformer';

/** How far back each disease's history is whole (`history_horizons`); times in epoch ms. */
@Entity('history_horizons')
export class HistoryHorizonEntity {
  @PrimaryColumn({ type: 'varchar', length: 16 })
  series: string;

  @Column({ name: 'pruned_before', type: 'bigint', transformer: bigintToNumber })
  prunedBefore: number;

  @Column({ name: 'pruned_at', type: 'bigint', transformer: bigintToNumber })
  prunedAt: number;
}
