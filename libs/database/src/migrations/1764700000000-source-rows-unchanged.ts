import { MigrationInterface, QueryRunner } from 'typeorm';

/** The rows of a source's last import that held the values already stored (not rewritten). */
export class SourceRowsUnchanged1764700000000 implements MigrationInterface {
  name = 'SourceRowsUnchanged1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const column = queryRunner.connection.driver.escape('rows_unchanged');
    const type = queryRunner.connection.options.type === 'mysql' ? 'int' : 'integer';
    await queryRunner.query(
      `ALTER TABLE ${queryRunner.connection.driver.escape('sources')} ADD ${column} ${type} NOT NULL DEFAULT 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE ${queryRunner.connection.driver.escape('sources')} DROP COLUMN ${queryRunner.connection.driver.escape('rows_unchanged')}`,
    );
  }
}
