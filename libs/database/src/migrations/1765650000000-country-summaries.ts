import { MigrationInterface, QueryRunner } from 'typeorm';
import { countrySummariesTable } from '../records/derived-tables';
import { CountrySummaryStatements } from '../records/country-summary-statements';

const DISEASES = ['covid', 'mpox'];

/**
 * Each country's number of records and first and last dates, kept by every write (decision 0036)
 * so that `/countries` does not group the whole table; existing stores get theirs here, once.
 */
export class CountrySummaries1765650000000 implements MigrationInterface {
  name = 'CountrySummaries1765650000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    const key = mysql
      ? 'varchar(300) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL'
      : 'varchar(300) NOT NULL';
    const engine = mysql ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci' : '';
    for (const disease of DISEASES) {
      await queryRunner.query(
        `CREATE TABLE ${countrySummariesTable(disease)} (
          country_key ${key},
          records int NOT NULL,
          first_date date NULL,
          last_date date NULL,
          PRIMARY KEY (country_key)
        )${engine}`,
      );
      const statements = new CountrySummaryStatements(disease, `${disease}_data`, mysql);
      for (const { sql, params } of statements.rebuild()) await queryRunner.query(sql, params);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const disease of DISEASES) {
      await queryRunner.query(`DROP TABLE ${countrySummariesTable(disease)}`);
    }
  }
}
