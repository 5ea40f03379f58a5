import { MigrationInterface, QueryRunner } from 'typeorm';

const DISEASES = ['covid', 'mpox'];

/**
 * The corrections' index (docs/corrections.md): updates and deletions by place and date, so that
 * a country's corrections, or the corrected days of every place, are read without walking the
 * creates of every first load (most of the history).
 */
const indexName = (table: string) => `idx_${table}_kind_place`;

export class RevisionCorrectionsIndex1765500000000 implements MigrationInterface {
  name = 'RevisionCorrectionsIndex1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const key of DISEASES) {
      const table = `${key}_revisions`;
      const columns = 'kind, country_key, date';
      await queryRunner.query(
        mysql
          ? `ALTER TABLE ${table} ADD INDEX ${indexName(table)} (${columns})`
          : `CREATE INDEX ${indexName(table)} ON ${table} (${columns})`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    for (const key of DISEASES) {
      const table = `${key}_revisions`;
      await queryRunner.query(
        mysql ? `DROP INDEX ${indexName(table)} ON ${table}` : `DROP INDEX ${indexName(table)}`,
      );
    }
  }
}
