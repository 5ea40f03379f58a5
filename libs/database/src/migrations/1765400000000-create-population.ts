import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The population table (`import population`): one row per country (ISO 3166-1 alpha-3, as the
 * country directory knows it) and year, with the name and the source as the table gave them.
 */
export class CreatePopulation1765400000000 implements MigrationInterface {
  name = 'CreatePopulation1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.options.type === 'mysql';
    await queryRunner.query(
      `CREATE TABLE population (
        iso3 varchar(8) NOT NULL,
        year int NOT NULL,
        country varchar(100) NOT NULL,
        population bigint NOT NULL,
        source varchar(200) NOT NULL,
        PRIMARY KEY (iso3, year)
      )${mysql ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci' : ''}`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE population`);
  }
}
