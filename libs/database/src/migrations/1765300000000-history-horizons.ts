import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How far back each disease's history is whole: `history prune` removes revisions superseded
 * before `pruned_before` (epoch ms), and reads as of an earlier moment are refused from then on.
 */
export class HistoryHorizons1765300000000 implements MigrationInterface {
  name = 'HistoryHorizons1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    await queryRunner.query(
      `CREATE TABLE history_horizons (
        series varchar(16) NOT NULL PRIMARY KEY,
        pruned_before bigint NOT NULL,
        pruned_at bigint NOT NULL
      )${mysql ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci' : ''}`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE history_horizons`);
  }
}
