import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many stored figures a source's last applied import corrected (docs/corrections.md), beside
 * its other counts: `/api/sources` shows it.
 */
export class SourceCorrections1765510000000 implements MigrationInterface {
  name = 'SourceCorrections1765510000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const escape = (name: string) => queryRunner.connection.driver.escape(name);
    const integer = queryRunner.connection.options.type === 'mysql' ? 'int' : 'integer';
    await queryRunner.query(
      `ALTER TABLE ${escape('sources')} ADD ${escape('figures_corrected')} ${integer} NOT NULL DEFAULT 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const escape = (name: string) => queryRunner.connection.driver.escape(name);
    await queryRunner.query(
      `ALTER TABLE ${escape('sources')} DROP COLUMN ${escape('figures_corrected')}`,
    );
  }
}
