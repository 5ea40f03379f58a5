import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a source's last applied import was: its id (the one its revisions carry) and the rows it
 * skipped (aggregates, rows without figures), beside the counts already kept.
 */
export class SourceImports1765200000000 implements MigrationInterface {
  name = 'SourceImports1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const escape = (name: string) => queryRunner.connection.driver.escape(name);
    const integer = queryRunner.connection.options.type === 'mysql' ? 'int' : 'integer';
    await queryRunner.query(
      `ALTER TABLE ${escape('sources')} ADD ${escape('last_import_id')} varchar(36) NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE ${escape('sources')} ADD ${escape('rows_skipped')} ${integer} NOT NULL DEFAULT 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const escape = (name: string) => queryRunner.connection.driver.escape(name);
    for (const column of ['rows_skipped', 'last_import_id']) {
      await queryRunner.query(`ALTER TABLE ${escape('sources')} DROP COLUMN ${escape(column)}`);
    }
  }
}
