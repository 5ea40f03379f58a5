import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A client's own rate limit, stored on each of its token rows (a client is the set of its
 * tokens): `rate_limit` requests per `rate_window_seconds`; both null for the default budget.
 */
export class ClientRateBudgets1764500000000 implements MigrationInterface {
  name = 'ClientRateBudgets1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE api_tokens ADD rate_limit int NULL');
    await queryRunner.query('ALTER TABLE api_tokens ADD rate_window_seconds int NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE api_tokens DROP COLUMN rate_window_seconds');
    await queryRunner.query('ALTER TABLE api_tokens DROP COLUMN rate_limit');
  }
}
